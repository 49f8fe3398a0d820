/**
 * A `--backend-module` whose code fails in ways a synchronous try/catch does not see: an
 * `async register`, a strategy that throws a TypeError. Each ends in one `error:` line, exit
 * code 1, and no output directory.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCli } from '../helpers/cli';

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
