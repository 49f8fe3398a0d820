/**
 * Output directories and file errors (issue 14, items 2, 5 and 9): a directory uma-ts did
 * not write is never replaced, a killed run's leftovers are recovered or removed by the
 * next compile, and file-system failures are one-line errors naming the path.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
// The module object itself, so spies reach the code under test (namespace imports are frozen).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fsModule = require('fs') as typeof import('fs');
import * as os from 'os';
import * as path from 'path';
import { defaultOutDir } from '../../src/cli/compile';
import { FileAccessError } from '../../src/errors';
import { OUTPUT_MARKER, recoverLeftovers, writeOwnedDirectory } from '../../src/util/ownedOutputDir';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');

/** The run failed with exactly one line, an `error:` line. */
function expectOneLineError(r: { code: number; err: string }, pattern: RegExp): void {
  expect(r.code).toBe(1);
  // Progress lines ([uma-ts] stage ...) come first; the failure itself is one line.
  const lines = r.err.split('\n').filter((l) => !l.startsWith('[uma-ts] '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(lines[0]).toMatch(pattern);
}

/** A pid no process has: one of a child that has exited. */
function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '0']).pid;
  expect(pid).toBeGreaterThan(0);
  return pid!;
}

function errno(code: string, syscall: string, p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: fake, ${syscall} '${p}'`), { code, syscall, path: p });
}

const compileArgs = (out: string) => ['compile', HELLO, '--backend', 'vanilla', '--out', out];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-out-safety-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('never replaces a directory uma-ts did not write', () => {
  it("keeps a user's project that happens to hold a metadata.json", async () => {
    const project = path.join(dir, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'metadata.json'), '{"mine": true}');
    fs.writeFileSync(path.join(project, 'src', 'main.c'), 'int main(void) { return 0; }');
    const r = await runCli(compileArgs(project));
    expectOneLineError(r, /was not written by uma-ts.*refusing to replace it/);
    // Refused before compiling, not after.
    expect(r.err).not.toContain('[uma-ts] import');
    expect(fs.readFileSync(path.join(project, 'metadata.json'), 'utf8')).toBe('{"mine": true}');
    expect(fs.readdirSync(project).sort()).toEqual(['metadata.json', 'src']);
    expect(fs.readdirSync(dir)).toEqual(['project']);
  });

  it('replaces its own previous output (marked) and an empty directory', async () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    expect((await runCli(compileArgs(out))).code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(out, OUTPUT_MARKER), 'utf8'))).toMatchObject({ generator: 'uma-ts', complete: true });
    expect((await runCli(compileArgs(out))).code).toBe(0);
    // A file an earlier uma-ts wrote (in its manifest) that this compile does not write goes.
    writeOwnedDirectory(out, (d) => fs.writeFileSync(path.join(d, 'stale.txt'), 'x'));
    expect((await runCli(compileArgs(out))).code).toBe(0);
    expect(fs.existsSync(path.join(out, 'stale.txt'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'metadata.json'))).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it("refuses its own previous output once the user has put files into it, before compiling, deleting nothing", async () => {
    const out = path.join(dir, 'out');
    expect((await runCli(compileArgs(out))).code).toBe(0);
    fs.writeFileSync(path.join(out, 'NOTES.txt'), 'my notes');
    fs.mkdirSync(path.join(out, 'app'));
    fs.writeFileSync(path.join(out, 'app', 'main.c'), 'int main(void) { return 0; }');
    const before = fs.readFileSync(path.join(out, 'metadata.json'), 'utf8');
    const r = await runCli(compileArgs(out));
    expectOneLineError(r, /^error: output directory \S*out holds files uma-ts did not write \(NOTES\.txt, app\/main\.c\); refusing to replace it: move them out or choose another --out$/);
    expect(r.err).not.toContain('[uma-ts] import');
    expect(fs.readFileSync(path.join(out, 'NOTES.txt'), 'utf8')).toBe('my notes');
    expect(fs.readFileSync(path.join(out, 'app', 'main.c'), 'utf8')).toBe('int main(void) { return 0; }');
    expect(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['out']);
    // Moved out, the output is replaceable again.
    fs.rmSync(path.join(out, 'NOTES.txt'));
    fs.rmSync(path.join(out, 'app'), { recursive: true });
    expect((await runCli(compileArgs(out))).code).toBe(0);
  });

  it('a several-model compile is protected the same way', async () => {
    const out = path.join(dir, 'app');
    const args = ['compile', HELLO, HELLO, '--module-name', 'a,b', '--backend', 'vanilla', '--out', out];
    expect((await runCli(args)).code).toBe(0);
    expect((await runCli(args)).code).toBe(0);
    fs.writeFileSync(path.join(out, 'codegen', 'host', 'src', 'mine.c'), 'int x;');
    expectOneLineError(await runCli(args), /holds files uma-ts did not write \(codegen\/host\/src\/mine\.c\)/);
    expect(fs.readFileSync(path.join(out, 'codegen', 'host', 'src', 'mine.c'), 'utf8')).toBe('int x;');
  });

  it('refuses a symlink or a plain file as the output', async () => {
    const file = path.join(dir, 'file');
    fs.writeFileSync(file, 'keep');
    expectOneLineError(await runCli(compileArgs(file)), /exists and is not a directory/);
    const link = path.join(dir, 'link');
    fs.symlinkSync(dir, link);
    expectOneLineError(await runCli(compileArgs(link)), /is a symbolic link; refusing to replace it/);
    expect(fs.readFileSync(file, 'utf8')).toBe('keep');
  });

  // Fuzzed: `--out .` in an empty working directory compiled, replacing that directory by a
  // rename; the user's shell was left in a removed directory (the next uma-ts said "the current
  // directory cannot be read"). So did `--out ../..` from inside an earlier output's codegen/host.
  it('refuses the working directory, and a directory holding it, before compiling', async () => {
    const cwd = process.cwd();
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const previous = path.join(dir, 'previous');
    expect((await runCli(compileArgs(previous))).code).toBe(0);
    const inside = path.join(previous, 'codegen', 'host');
    const inode = (p: string) => fs.statSync(p).ino;
    const before = [inode(empty), inode(previous)];
    try {
      process.chdir(empty);
      expectOneLineError(await runCli(compileArgs('.')), /^error: output directory \. is the current directory; replacing it would leave the shell in a removed directory: choose another --out$/);
      process.chdir(inside);
      expectOneLineError(await runCli(compileArgs('../..')), /^error: output directory \.\.\/\.\. holds the current directory; replacing it/);
    } finally {
      process.chdir(cwd);
    }
    expect([inode(empty), inode(previous)]).toEqual(before);
    expect(fs.readdirSync(empty)).toEqual([]);
  });
});

describe('the default output directory', () => {
  it("is out/<model name>, and out/model for a name of dots only (never the working directory or out itself)", () => {
    expect(defaultOutDir('models/kws.tflite')).toBe(path.join('out', 'kws'));
    // Fuzzed: '...tflite' gave out/.. (the working directory), '..tflite' out/. (out itself).
    expect(defaultOutDir('a/...tflite')).toBe(path.join('out', 'model'));
    expect(defaultOutDir('..tflite')).toBe(path.join('out', 'model'));
    expect(defaultOutDir('.tflite')).toBe(path.join('out', 'model'));
  });
});

describe('crash safety: what a killed compile leaves is recovered', () => {
  const fill = (content: string) => (d: string) => fs.writeFileSync(path.join(d, 'data.txt'), content);

  /** Builds a leftover as a run with `pid` killed at some point would have left it. */
  function leftover(name: string, tag: 'tmp' | 'old', pid: number, content: string | undefined, complete: boolean): string {
    const d = path.join(dir, `${name}.uma-ts-${tag}-${pid}-k1ll3d`);
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, OUTPUT_MARKER), JSON.stringify({ generator: 'uma-ts', output: name, complete }));
    if (content !== undefined) fs.writeFileSync(path.join(d, 'data.txt'), content);
    return d;
  }

  it('killed between the two renames: the new output is restored, then replaced, nothing left', () => {
    const pid = deadPid();
    leftover('out', 'old', pid, 'old', true);
    const tmp = leftover('out', 'tmp', pid, 'new', true);
    const target = path.join(dir, 'out');
    recoverLeftovers(target);
    expect(fs.readFileSync(path.join(target, 'data.txt'), 'utf8')).toBe('new');
    expect(fs.existsSync(tmp)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual(['out']);
    writeOwnedDirectory(target, fill('newest'));
    expect(fs.readFileSync(path.join(target, 'data.txt'), 'utf8')).toBe('newest');
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('killed while filling: the partial temp is removed, the previous output kept until replaced', () => {
    const target = path.join(dir, 'out');
    writeOwnedDirectory(target, fill('v1'));
    const pid = deadPid();
    leftover('out', 'tmp', pid, 'half', false);
    fs.mkdirSync(path.join(dir, `out.uma-ts-tmp-${pid}-empty0`)); // killed right after mkdir
    leftover('out', 'old', pid, 'v0', true); // killed before removing the backup
    recoverLeftovers(target);
    expect(fs.readFileSync(path.join(target, 'data.txt'), 'utf8')).toBe('v1');
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('never ENOTEMPTY: a compile after a killed one succeeds, twice', async () => {
    const out = path.join(dir, 'out');
    expect((await runCli(compileArgs(out))).code).toBe(0);
    const pid = deadPid();
    fs.renameSync(out, path.join(dir, `out.uma-ts-old-${pid}-aaaa`));
    leftover('out', 'tmp', pid, 'partial', false);
    for (let i = 0; i < 2; i++) {
      const r = await runCli(compileArgs(out));
      expect(r.err).not.toContain('error');
      expect(r.code).toBe(0);
      expect(fs.readdirSync(dir)).toEqual(['out']);
    }
  });

  it('a long multi-byte name: the leftovers of a killed run are recognised by the stem it wrote, and by the one older versions wrote', () => {
    const name = '€'.repeat(60); // 180 bytes: stems of 50 characters now, 60 before
    const target = path.join(dir, name);
    writeOwnedDirectory(target, fill('v1'));
    const pid = deadPid();
    leftover('€'.repeat(60), 'old', pid, 'v0', true);
    const d = path.join(dir, `${'€'.repeat(50)}.uma-ts-tmp-${pid}-k1ll3d`);
    fs.mkdirSync(d);
    fs.writeFileSync(path.join(d, OUTPUT_MARKER), JSON.stringify({ generator: 'uma-ts', output: name, complete: false }));
    recoverLeftovers(target);
    expect(fs.readFileSync(path.join(target, 'data.txt'), 'utf8')).toBe('v1');
    expect(fs.readdirSync(dir)).toEqual([name]);
  });

  it("leaves alone what is not a dead run's: other names, live pids, unmarked content", () => {
    const pid = deadPid();
    const foreign = path.join(dir, `out.uma-ts-tmp-${pid}-user00`);
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'notes.txt'), 'mine');
    const live = leftover('out', 'tmp', process.ppid, 'running', false);
    const other = leftover('other', 'old', pid, 'x', true);
    recoverLeftovers(path.join(dir, 'out'));
    expect(fs.readFileSync(path.join(foreign, 'notes.txt'), 'utf8')).toBe('mine');
    expect(fs.existsSync(live)).toBe(true);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
  });
});

describe('file-system errors are one line naming the path', () => {
  it('--out under a plain file (ENOTDIR)', async () => {
    fs.writeFileSync(path.join(dir, 'plain'), '');
    const r = await runCli(compileArgs(path.join(dir, 'plain', 'out')));
    expectOneLineError(r, /plain\/out: .*not a directory \((ENOTDIR|EEXIST)\)/);
  });

  it('--out with a name too long (ENAMETOOLONG), cleanup included', async () => {
    const r = await runCli(compileArgs(path.join(dir, 'x'.repeat(300))));
    expectOneLineError(r, /file name too long \(ENAMETOOLONG\)/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('--out a valid name of multi-byte characters: its temporary siblings stay under NAME_MAX (255 bytes)', async () => {
    // 85 '€' are 255 bytes: a valid name, whose siblings kept 150 characters (450 bytes) of it
    // and the compile failed "cannot create a temporary directory beside ...: file name too long".
    for (const name of ['€'.repeat(85), `${'a'.repeat(149)}€${'b'.repeat(10)}`, '😀'.repeat(63)]) {
      const out = path.join(dir, name);
      for (let i = 0; i < 2; i++) {
        const r = await runCli(compileArgs(out));
        expect([name.slice(0, 4), r.code, r.err.split('\n').filter((l) => l.startsWith('error'))]).toEqual([name.slice(0, 4), 0, []]);
      }
      expect(fs.existsSync(path.join(out, 'metadata.json'))).toBe(true);
      expect(fs.readdirSync(dir)).toEqual([name]);
      fs.rmSync(out, { recursive: true });
    }
  });

  it('--out in an unwritable directory (EACCES)', async () => {
    const real = fs.mkdirSync;
    jest.spyOn(fsModule, 'mkdirSync').mockImplementation((p, o) => {
      if (String(p).includes('.uma-ts-tmp-')) throw errno('EACCES', 'mkdir', String(p));
      return real(p, o);
    });
    const r = await runCli(compileArgs(path.join(dir, 'out')));
    expectOneLineError(r, /cannot create a temporary directory beside .*out: permission denied \(EACCES\)/);
  });

  it('disk full while writing (ENOSPC): previous output intact, no temp left', async () => {
    const out = path.join(dir, 'out');
    expect((await runCli(compileArgs(out))).code).toBe(0);
    const before = fs.readFileSync(path.join(out, 'metadata.json'), 'utf8');
    const real = fs.writeFileSync;
    jest.spyOn(fsModule, 'writeFileSync').mockImplementation((p, d, o) => {
      if (String(p).endsWith('.c')) throw errno('ENOSPC', 'write', String(p));
      return real(p, d, o);
    });
    const r = await runCli(compileArgs(out));
    expectOneLineError(r, /cannot write output directory .*out: no space left on device \(ENOSPC\)/);
    expect(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8')).toBe(before);
    expect(fs.readdirSync(dir)).toEqual(['out']);
  });

  it('cleanup that fails in the error path does not replace the error', async () => {
    jest.spyOn(fsModule, 'rmSync').mockImplementation(() => {
      throw errno('EBUSY', 'rm', 'x');
    });
    const real = fs.writeFileSync;
    jest.spyOn(fsModule, 'writeFileSync').mockImplementation((p, d, o) => {
      if (String(p).endsWith('.c')) throw errno('ENOSPC', 'write', String(p));
      return real(p, d, o);
    });
    expectOneLineError(await runCli(compileArgs(path.join(dir, 'out'))), /ENOSPC/);
  });

  it('new-backend with a 5,000-character or control-character name', async () => {
    const r = await runCli(['new-backend', 'a'.repeat(5000), '--dir', path.join(dir, 'b')]);
    expectOneLineError(r, /invalid backend name 'a{40}\.\.\.': it is 5000 characters long/);
    expect(r.err.length).toBeLessThan(300);
    expectOneLineError(await runCli(['new-backend', 'ab\ncd', '--dir', path.join(dir, 'b')]), /invalid backend name 'ab\?cd'/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('new-backend --dir under a plain file', async () => {
    fs.writeFileSync(path.join(dir, 'plain'), '');
    expectOneLineError(await runCli(['new-backend', 'my-accel', '--dir', path.join(dir, 'plain', 'b')]), /ENOTDIR|EEXIST/);
  });

  it('an I/O error while inspecting the output is one line', async () => {
    jest.spyOn(fsModule, 'lstatSync').mockImplementation(() => {
      throw errno('EIO', 'lstat', '/dev/sda');
    });
    const r = await runCli(compileArgs(path.join(dir, 'out')));
    expectOneLineError(r, /input\/output error \(EIO\)/);
  });

  it('FileAccessError is typed', () => {
    expect(() => writeOwnedDirectory(path.join(dir, 'x'.repeat(300)), () => undefined)).toThrow(FileAccessError);
  });
});

describe('user code and generated code inputs', () => {
  it('a backend module that throws a non-Error, or fails while registering, is one error line', async () => {
    const cases: Array<[string, RegExp]> = [
      ['throw "boom";', /cannot load: threw boom$/],
      ['module.exports = { register() { undefined.x; } };', /registering its backends failed: TypeError: Cannot read properties of undefined/],
    ];
    for (const [i, [source, pattern]] of cases.entries()) {
      const file = path.join(dir, `backend${i}.js`);
      fs.writeFileSync(file, source);
      const r = await runCli(['compile', HELLO, '--backend', 'vanilla', '--backend-module', file, '--out', path.join(dir, 'o')]);
      expectOneLineError(r, pattern);
      expect(r.err).toContain(`--backend-module ${file}`);
    }
  });

  it('new-backend --import-from must be a module specifier', async () => {
    const r = await runCli(['new-backend', 'ok', '--import-from', "a'\nb", '--dir', path.join(dir, 'nb')]);
    expectOneLineError(r, /--import-from 'a'\?b' is not a module specifier/);
    expect(fs.existsSync(path.join(dir, 'nb'))).toBe(false);
  });
});
