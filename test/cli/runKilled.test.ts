/**
 * A killed `uma-ts run` (Ctrl-C = SIGINT, or SIGTERM) leaves no `uma-run-*` build directory
 * behind and still dies of the signal (a shell reports 130/143), and removes nothing else.
 * The CLI runs in a child process (TypeScript sources transpiled on load) with TMPDIR pointing
 * at a directory of the test; its C "compiler" marks that the build started and then waits
 * for as long as its build directory exists.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeTemporaryDir } from '../../src/util/temporaryDir';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');

const CHILD = `
const fs = require('fs');
const ts = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'typescript'))});
require.extensions['.ts'] = (module, filename) => {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, experimentalDecorators: true },
  });
  module._compile(out.outputText, filename);
};
require(${JSON.stringify(path.join(ROOT, 'src', 'cli', 'main.ts'))})
  .main(['node', 'uma-ts', ...process.argv.slice(1)])
  .then((code) => { process.exitCode = code; });
`;

async function until(what: string, test: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

describe('a killed uma-ts run', () => {
  let tmp: string;
  let cc: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-killed-test-'));
    cc = path.join(tmp, 'slowcc.sh');
    // A "compiler" that says it started, then waits while the build directory (its cwd) exists.
    fs.writeFileSync(cc, '#!/bin/sh\npwd > "$UMA_TEST_MARKER"\nwhile [ -d "$PWD" ]; do sleep 0.05; done\nexit 1\n', { mode: 0o755 });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it.each([['SIGTERM'], ['SIGINT']] as const)('by %s removes its build directory and dies of the signal', async (signal) => {
    const temp = path.join(tmp, 'tmpdir');
    fs.mkdirSync(temp);
    // Not ours: a user's directory with the same prefix and a file beside them must stay.
    fs.mkdirSync(path.join(temp, 'uma-run-users-own'));
    fs.writeFileSync(path.join(temp, 'uma-run-users-own', 'keep.txt'), 'x');
    fs.writeFileSync(path.join(temp, 'notes.txt'), 'y');
    const marker = path.join(tmp, 'started');
    const child = spawn(process.execPath, ['-e', CHILD, 'run', HELLO, '--backend', 'vanilla', '--cc', cc], {
      env: { ...process.env, TMPDIR: temp, UMA_TEST_MARKER: marker },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const exit = exited(child);
    await until('the C build to start', () => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() !== '', 60000);
    const buildDir = fs.readFileSync(marker, 'utf8').trim();
    expect(path.basename(buildDir)).toMatch(/^uma-run-\w+$/);
    expect(fs.realpathSync(path.dirname(buildDir))).toBe(fs.realpathSync(temp));
    expect(fs.existsSync(path.join(buildDir, 'main.c'))).toBe(true);

    child.kill(signal);
    expect(await exit).toEqual({ code: null, signal });
    expect(stderr).not.toMatch(/error:/);
    await until('the build directory to be removed', () => !fs.existsSync(buildDir), 10000);
    expect(fs.readdirSync(temp).sort()).toEqual(['notes.txt', 'uma-run-users-own']);
    expect(fs.readFileSync(path.join(temp, 'uma-run-users-own', 'keep.txt'), 'utf8')).toBe('x');
  }, 120000);
});

describe('makeTemporaryDir', () => {
  it('remove() removes the directory; keep() leaves it for good (its watcher is stopped, not fired)', async () => {
    const a = makeTemporaryDir('uma-tempdir-test-');
    fs.writeFileSync(path.join(a.path, 'f'), 'x');
    a.remove();
    expect(fs.existsSync(a.path)).toBe(false);
    a.remove();

    const b = makeTemporaryDir('uma-tempdir-test-');
    b.keep();
    await new Promise((r) => setTimeout(r, 300));
    expect(fs.existsSync(b.path)).toBe(true);
    fs.rmSync(b.path, { recursive: true, force: true });
  });
});
