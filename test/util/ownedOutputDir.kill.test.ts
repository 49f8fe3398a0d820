/**
 * Real kills and real concurrency for output directories (issue 14, item 9): a child process
 * writing an output is SIGKILLed at every file-system step in turn; afterwards the old or the
 * new complete output is at the target, or (between the two renames) complete beside it, and
 * the next write recovers and leaves nothing behind. Concurrent writers to one target all
 * succeed, never ENOTEMPTY, and leave one complete output.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OUTPUT_MARKER, writeOwnedDirectory } from '../../src/util/ownedOutputDir';

const ROOT = path.join(__dirname, '..', '..');

/** Runs writeOwnedDirectory from the TypeScript sources in a plain node process (transpiled on load). */
const CHILD = `
const fs = require('fs');
const ts = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'typescript'))});
require.extensions['.ts'] = (module, filename) => {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, esModuleInterop: true },
  });
  module._compile(out.outputText, filename);
};
const [killAt, target, content] = [Number(process.argv[1]), process.argv[2], process.argv[3]];
let steps = 0;
for (const name of ['mkdirSync', 'writeFileSync', 'renameSync', 'rmSync', 'rmdirSync']) {
  const original = fs[name];
  fs[name] = function (...args) {
    if (++steps === killAt) process.kill(process.pid, 'SIGKILL');
    return original.apply(this, args);
  };
}
const { writeOwnedDirectory } = require(${JSON.stringify(path.join(ROOT, 'src', 'util', 'ownedOutputDir.ts'))});
writeOwnedDirectory(target, (dir) => {
  fs.writeFileSync(dir + '/a.txt', content);
  fs.mkdirSync(dir + '/sub');
  fs.writeFileSync(dir + '/sub/b.txt', content);
});
process.stdout.write(String(steps));
`;

function fill(content: string) {
  return (dir: string): void => {
    fs.writeFileSync(path.join(dir, 'a.txt'), content);
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(dir, 'sub', 'b.txt'), content);
  };
}

/** The content of a complete output in `dir`, or undefined when it is not one. */
function completeContent(dir: string): string | undefined {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(dir, OUTPUT_MARKER), 'utf8'));
    const a = fs.readFileSync(path.join(dir, 'a.txt'), 'utf8');
    const b = fs.readFileSync(path.join(dir, 'sub', 'b.txt'), 'utf8');
    return marker.complete === true && a === b ? a : undefined;
  } catch {
    return undefined;
  }
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-kill-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a compile killed at any step', () => {
  it('leaves the old or the new complete output, found and cleaned by the next write', () => {
    const target = path.join(dir, 'out');
    writeOwnedDirectory(target, fill('old'));
    const full = spawnSync(process.execPath, ['-e', CHILD, '0', target, 'new'], { encoding: 'utf8' });
    expect(full.status).toBe(0);
    const steps = Number(full.stdout);
    expect(steps).toBeGreaterThan(5);
    for (let killAt = 1; killAt <= steps; killAt++) {
      writeOwnedDirectory(target, fill('old'));
      const r = spawnSync(process.execPath, ['-e', CHILD, String(killAt), target, 'new'], { encoding: 'utf8' });
      expect({ killAt, signal: r.signal }).toEqual({ killAt, signal: 'SIGKILL' });
      const atTarget = completeContent(target);
      const beside = fs.readdirSync(dir).filter((n) => n !== 'out').map((n) => completeContent(path.join(dir, n)));
      if (atTarget === undefined) {
        // Only between the two renames: both outputs complete beside the target.
        expect({ killAt, beside: beside.sort() }).toEqual({ killAt, beside: ['new', 'old'] });
      } else {
        expect(['old', 'new']).toContain(atTarget);
      }
      writeOwnedDirectory(target, fill('next'));
      expect(completeContent(target)).toBe('next');
      expect({ killAt, left: fs.readdirSync(dir) }).toEqual({ killAt, left: ['out'] });
    }
  });
});

describe('concurrent writers to one output', () => {
  it('all succeed and leave one complete output, nothing beside it', async () => {
    const target = path.join(dir, 'out');
    writeOwnedDirectory(target, fill('old'));
    const runs = ['w1', 'w2', 'w3', 'w4'].map(
      (content) =>
        new Promise<{ code: number | null; err: string }>((resolve) => {
          const child = spawn(process.execPath, ['-e', CHILD, '0', target, content]);
          let err = '';
          child.stderr.on('data', (d) => (err += String(d)));
          child.on('close', (code) => resolve({ code, err }));
        }),
    );
    const results = await Promise.all(runs);
    expect(results).toEqual(results.map(() => ({ code: 0, err: '' })));
    expect(['w1', 'w2', 'w3', 'w4']).toContain(completeContent(target));
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });
});
