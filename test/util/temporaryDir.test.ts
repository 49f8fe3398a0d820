import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { requireFromRoot, tsChildScript } from '../helpers/tsChild';

/**
 * makeTemporaryDir in a child process, where TMPDIR reaches os.tmpdir() (jest gives a test a
 * copy of process.env); prints the directory's path.
 */
const CHILD = tsChildScript(`
const dir = ${requireFromRoot('src/util/temporaryDir.ts')}.makeTemporaryDir('uma-test-');
process.stdout.write(dir.path);
dir.remove();
`);

describe('makeTemporaryDir', () => {
  it('gives an absolute path under a relative TMPDIR', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-reltmp-'));
    try {
      fs.mkdirSync(path.join(base, 'rel'));
      const r = spawnSync(process.execPath, ['-e', CHILD], { cwd: base, env: { ...process.env, TMPDIR: 'rel' }, encoding: 'utf8' });
      expect(r.stderr).toBe('');
      // A relative path names another place for a compiler run with another cwd (fuzzed:
      // `TMPDIR=reltmp uma-ts run` failed with "tvmgen_default.h: No such file or directory").
      expect(path.isAbsolute(r.stdout)).toBe(true);
      expect(fs.realpathSync(base)).toBe(fs.realpathSync(path.dirname(path.dirname(r.stdout))));
      expect(path.basename(path.dirname(r.stdout))).toBe('rel');
      expect(fs.readdirSync(path.join(base, 'rel'))).toEqual([]);
    } finally {
      fs.rmSync(base, { recursive: true, force: true });
    }
  });
});
