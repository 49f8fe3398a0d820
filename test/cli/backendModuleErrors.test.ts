/**
 * A `--backend-module` whose code fails in ways a synchronous try/catch does not see: an
 * `async register`, a promise rejected at load time that nobody handles, a strategy that
 * throws a TypeError. Each ends in one `error:` line, exit code 1, and no output directory.
 */
import { spawnSync } from 'child_process';
import { EventEmitter } from 'events';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { NEVER_SETTLED_LINE, runMain } from '../../src/cli/main';
import { runCli } from '../helpers/cli';
import { requireFromRoot, tsChildScript } from '../helpers/tsChild';

const ROOT = path.join(__dirname, '..', '..');
const HELLO = path.join(ROOT, 'models', 'hello_world_int8.tflite');
const API = JSON.stringify(path.join(ROOT, 'src', 'index'));
const VANILLA = JSON.stringify(path.join(ROOT, 'backends', 'vanilla'));

/** A vanilla-like dense offload named `target`, as a module's source. */
const DENSE_BACKEND = (target: string, strategy: string) => `
const api = require(${API});
const vanilla = require(${VANILLA});
class Dense extends api.UmaBackend {
  constructor() {
    super();
    this.targetName = ${JSON.stringify(target)};
    this.registerPattern('dense', vanilla.densePattern());
    this.registerOperatorStrategy('dense', ${strategy});
    this.registerCodegen(vanilla.vanillaCodegenHooks);
  }
}
`;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-backend-module-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function moduleFile(name: string, source: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return file;
}

/** Exit 1 with one `error:` line (after any progress lines), and nothing at or beside `out`. */
function expectOneLineFailure(r: { code: number | null; err: string }, line: string | RegExp, out: string): void {
  const lines = r.err.split('\n').filter((l) => l !== '' && !l.startsWith('[uma-ts] '));
  expect(lines).toHaveLength(1);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
  expect(r.code).toBe(1);
  expect(fs.existsSync(out)).toBe(false);
  expect(fs.readdirSync(path.dirname(out)).filter((e) => e.includes('.uma-ts-'))).toEqual([]);
}

describe('an async register()', () => {
  it('that rejects: the one-line error of a throwing register, and nothing written', async () => {
    const file = moduleFile('asyncreg.js', "module.exports.register = async function (reg) { throw new Error('async register failed'); };");
    const out = path.join(dir, 'out');
    const r = await runCli(['compile', HELLO, '--backend', 'vanilla', '--backend-module', file, '--out', out]);
    expectOneLineFailure(r, `error: --backend-module ${file}: registering its backends failed: async register failed`, out);
  });

  it.each([
    ['a register getter', "Object.defineProperty(exports, 'register', { enumerable: true, get() { throw new Error('not initialised yet'); } });"],
    ['a proxy', "module.exports = new Proxy({}, { get() { throw new Error('not initialised yet'); } });"],
  ])('exports behind %s that throws: the one-line error of a throwing register, and nothing written', async (_, source) => {
    const file = moduleFile('getter.js', source);
    const out = path.join(dir, 'out');
    const r = await runCli(['compile', HELLO, '--backend', 'vanilla', '--backend-module', file, '--out', out]);
    expectOneLineFailure(r, `error: --backend-module ${file}: registering its backends failed: not initialised yet`, out);
  });

  it('that registers after an await: awaited before the compile starts', async () => {
    const file = moduleFile(
      'asyncok.js',
      `${DENSE_BACKEND('later', 'vanilla.vanillaDenseStrategy')}
module.exports.register = async (registry) => { await new Promise((r) => setTimeout(r, 5)); registry.register(Dense); };`,
    );
    const out = path.join(dir, 'out');
    const r = await runCli(['compile', HELLO, '--backend', 'later', '--backend-module', file, '--out', out]);
    expect(r.err).not.toContain('error:');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'metadata.json'))).toBe(true);
  });
});

describe('a strategy that throws a TypeError', () => {
  it('one line naming backend, hook and operator; no stack, nothing written', async () => {
    const file = moduleFile('tbthrow.js', `${DENSE_BACKEND('tb', '(input) => input.nothing.boom')}\nmodule.exports = { Dense };`);
    const out = path.join(dir, 'out');
    const r = await runCli(['compile', HELLO, '--backend', 'tb', '--backend-module', file, '--out', out]);
    expectOneLineFailure(
      r,
      /^error: backend tb: strategy for dense \(call '[^']+'\) threw TypeError: Cannot read properties of undefined \(reading 'boom'\)$/,
      out,
    );
  });
});

/**
 * The process entry (`runMain`, what bin/uma-ts.js runs) in a child process with src/
 * transpiled on load, so the test does not depend on a dist/ build.
 */
const CHILD = tsChildScript(`${requireFromRoot('src/cli/main.ts')}.runMain(['node', 'uma-ts', ...process.argv.slice(1)]);`);

function runChild(args: readonly string[]): { code: number | null; err: string } {
  // The timeout only stops a test of a run that would hang; every run here ends in seconds.
  const r = spawnSync(process.execPath, ['-e', CHILD, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, err: r.stderr };
}

describe('the process entry', () => {
  it('a promise a backend module rejected and left unhandled: one error line, no stack, nothing written', () => {
    const file = moduleFile('asyncrej.js', 'const p = Promise.reject(new Error("async reject\\nmore detail")); module.exports = {};');
    const out = path.join(dir, 'out');
    const r = runChild(['compile', HELLO, '--backend', 'vanilla', '--backend-module', file, '--out', out]);
    expectOneLineFailure(r, 'error: a promise rejected and nobody handled it (from user code?): Error: async reject', out);
  });

  it('the same next to a working backend: stopped before anything is compiled', () => {
    const file = moduleFile('strayrej.js', `${DENSE_BACKEND('stray', 'vanilla.vanillaDenseStrategy')}\nPromise.reject(new TypeError('stray'));\nmodule.exports = { Dense };`);
    const out = path.join(dir, 'out');
    const r = runChild(['compile', HELLO, '--backend', 'stray', '--backend-module', file, '--out', out]);
    expectOneLineFailure(r, 'error: a promise rejected and nobody handled it (from user code?): TypeError: stray', out);
    expect(r.err).not.toContain('[uma-ts] import');
  });

  it('a register() whose promise never settles: one error line and exit 1, not a silent 0', () => {
    const file = moduleFile('hang.js', 'module.exports.register = () => new Promise(() => {});');
    const out = path.join(dir, 'out');
    expectOneLineFailure(runChild(['compile', HELLO, '--backend', 'vanilla', '--backend-module', file, '--out', out]), NEVER_SETTLED_LINE, out);
  });

  it('a timer a backend module leaves running does not keep a finished run alive', () => {
    const file = moduleFile('ticking.js', `${DENSE_BACKEND('ticking', 'vanilla.vanillaDenseStrategy')}\nsetInterval(() => {}, 1000);\nmodule.exports = { Dense };`);
    const out = path.join(dir, 'out');
    const r = runChild(['compile', HELLO, '--backend', 'ticking', '--backend-module', file, '--out', out]);
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(out, 'report.json'))).toBe(true);
  });

  it('an exception a backend module throws from a callback it scheduled: one error line and exit 1', () => {
    // (A tick callback runs before the load finishes; a timer could fire after the run ended.)
    const file = moduleFile('tickthrow.js', `${DENSE_BACKEND('tt', 'vanilla.vanillaDenseStrategy')}\nprocess.nextTick(() => { throw new RangeError('late\\nframes'); });\nmodule.exports = { Dense };`);
    const r = runChild(['compile', HELLO, '--backend', 'tt', '--backend-module', file, '--out', path.join(dir, 'out2')]);
    const lines = r.err.split('\n').filter((l) => l !== '' && !l.startsWith('[uma-ts] '));
    expect(lines).toEqual(['error: an exception was thrown outside any uma-ts call (from user code?): RangeError: late']);
    expect(r.code).toBe(1);
  });

  it('prints an unhandled rejection as one line and exits 1 (fake process)', async () => {
    const proc = Object.assign(new EventEmitter(), { exit: jest.fn(), exitCode: undefined as number | undefined });
    const io = memoryIO();
    const done = runMain(['node', 'uma-ts', '--version'], io, proc);
    proc.emit('unhandledRejection', new RangeError('bad\n    at frame (x.js:1:1)'));
    expect(io.stderr).toEqual(['error: a promise rejected and nobody handled it (from user code?): RangeError: bad']);
    expect(proc.exit).toHaveBeenCalledWith(1);
    await done;
  });
});
