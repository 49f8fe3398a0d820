import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findRuntimeDir, readRuntimeSources, runtimeDirCandidates } from '../../src/backend/runtimeSources';
import { CodegenError } from '../../src/errors';

describe('backend runtime sources', () => {
  it('looks next to the module, then at the same place outside dist/', () => {
    expect(runtimeDirCandidates('/repo/dist/backends/x')).toEqual(['/repo/dist/backends/x/runtime', '/repo/backends/x/runtime']);
    expect(runtimeDirCandidates('/repo/backends/x')).toEqual(['/repo/backends/x/runtime']);
  });

  it('reads the files from the source tree when dist/ has none', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-rt-'));
    try {
      fs.mkdirSync(path.join(root, 'backends', 'x', 'runtime'), { recursive: true });
      fs.mkdirSync(path.join(root, 'dist', 'backends', 'x'), { recursive: true });
      fs.writeFileSync(path.join(root, 'backends', 'x', 'runtime', 'k.h'), 'int k(void);\n');
      const moduleDir = path.join(root, 'dist', 'backends', 'x');
      expect(findRuntimeDir(moduleDir, ['k.h'], 'x')).toBe(path.join(root, 'backends', 'x', 'runtime'));
      expect(readRuntimeSources(moduleDir, ['k.h'], 'x')).toEqual([{ name: 'k.h', content: 'int k(void);\n' }]);
      expect(() => readRuntimeSources(moduleDir, ['missing.c'], 'x')).toThrow(CodegenError);
      expect(() => readRuntimeSources(moduleDir, ['missing.c'], 'x')).toThrow(/x runtime files missing.c not found \(looked in /);
      // Each folder says what it lacks: here only the misspelt file, next to one that is there.
      expect(() => readRuntimeSources(moduleDir, ['k.h', 'kk.c'], 'x')).toThrow(
        `x runtime files k.h, kk.c not found (looked in ${path.join(moduleDir, 'runtime')}: no such directory; ${path.join(root, 'backends', 'x', 'runtime')}: lacks kk.c)`,
      );
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
