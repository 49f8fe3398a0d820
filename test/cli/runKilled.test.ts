/**
 * A killed `uma-ts run` (Ctrl-C = SIGINT, or SIGTERM) leaves no `uma-run-*` build directory
 * behind and still dies of the signal (a shell reports 130/143), and removes nothing else.
 * The CLI runs in a child process (TypeScript sources transpiled on load) with TMPDIR pointing
 * at a directory of the test; its C "compiler" marks that the build started and then waits
 * for as long as its build directory exists. A program killed mid-run (it never returns) is
 * stopped too: it lost the timeout the run enforced.
 */
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { makeTemporaryDir } from '../../src/util/temporaryDir';
import { requireFromRoot, tsChildScript } from '../helpers/tsChild';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');

const CHILD = tsChildScript(`
${requireFromRoot('src/cli/main.ts')}
  .main(['node', 'uma-ts', ...process.argv.slice(1)])
  .then((code) => { process.exitCode = code; });
`);

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

describe('a run killed while its program runs', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-killed-test-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** Whether `pid` is still a live (not zombie) process. */
  function alive(pid: number): boolean {
    try {
      return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      return false;
    }
  }

  it('stops the program (which lost its timeout with the run) and removes the directory', async () => {
    // The program's run says where it runs, then never returns.
    const wrapper = path.join(tmp, 'hang.c');
    fs.writeFileSync(
      wrapper,
      '#define _POSIX_C_SOURCE 200809L\n#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n' +
        'int __wrap_tvmgen_default_run(void* a, void* b, void* c, void* d) {\n' +
        '  char cwd[4096]; FILE* f = fopen(getenv("UMA_TEST_MARKER"), "w"); volatile int forever = 1;\n' +
        '  (void)a; (void)b; (void)c; (void)d;\n' +
        '  fprintf(f, "%d %s\\n", (int)getpid(), getcwd(cwd, sizeof cwd)); fclose(f);\n' +
        '  while (forever) {}\n  return 0;\n}\n',
    );
    const cc = path.join(tmp, 'hangcc.sh');
    fs.writeFileSync(cc, `#!/bin/sh\nexec gcc "$@" ${wrapper} -Wl,--wrap=tvmgen_default_run\n`, { mode: 0o755 });
    const temp = path.join(tmp, 'tmpdir');
    fs.mkdirSync(temp);
    const marker = path.join(tmp, 'running');
    const child = spawn(process.execPath, ['-e', CHILD, 'run', HELLO, '--backend', 'vanilla', '--cc', cc], {
      env: { ...process.env, TMPDIR: temp, UMA_TEST_MARKER: marker },
      stdio: 'ignore',
    });
    const exit = exited(child);
    await until('the program to run', () => fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').endsWith('\n'), 90000);
    const [pidText, buildDir] = fs.readFileSync(marker, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    expect(path.basename(buildDir)).toMatch(/^uma-run-\w+$/);
    expect(alive(pid)).toBe(true);

    try {
      child.kill('SIGTERM');
      expect(await exit).toEqual({ code: null, signal: 'SIGTERM' });
      await until('the build directory to be removed', () => !fs.existsSync(buildDir), 10000);
      await until('the program to be stopped', () => !alive(pid), 10000);
      expect(fs.readdirSync(temp)).toEqual([]);
    } finally {
      // Should the check fail, the test does not leave a spinning program behind.
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
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
