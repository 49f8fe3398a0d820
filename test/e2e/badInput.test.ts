/**
 * Bad input end to end: a backend kernel nobody provides, operators/dtypes lowering cannot
 * handle, and a pool too small. Each fails with one clear `error:` line naming the culprit,
 * exits 1 through the CLI, and leaves no output directory (a previous one stays intact).
 * What is merely not offloadable (a float model on int8-only backends) is not an error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccelBackend } from '../../backends/accel';
import { VanillaBackend } from '../../backends/vanilla';
import { depthwisePerTensorModel } from '../ops/hybridCases';
import { loadBackendModule } from '../../src/cli/backendLoader';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { checkBackendExterns, declaresFunction } from '../../src/codegen/c/checkExterns';
import { targetOf } from '../../src/codegen/c/generate';
import { CodegenError } from '../../src/errors';
import { callExtern, evaluate, makeVar, primFunc, seq } from '../../src/ir/tir/builder';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { parsePoolsJson } from '../../src/usmp/pools';
import { RawTflite } from '../frontend/rawTflite';
import { buildApplication, fixedInput, runApplication } from './harness';
import { runCli } from '../helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const model = (name: string) => path.join(ROOT, 'models', `${name}.tflite`);

/**
 * A user backend offloading int8 dense whose phase-0 TIR pass puts a call to `kernel` in
 * front of each of its functions. Its C (header + source) declares and defines `ghost_ok`
 * only, so `ghost_missing` is a kernel the backend does not provide.
 */
function ghostModule(target: string, kernel: string): string {
  return `
const { UmaBackend, CPU_STRATEGIES, tir } = require(${JSON.stringify(path.join(ROOT, 'src', 'index'))});
const HEADER = '#ifndef GHOST_KERNELS_H_\\n#define GHOST_KERNELS_H_\\n#include <stdint.h>\\n' +
  '/* ghost_missing( is only mentioned in this comment */\\n' +
  'int32_t ghost_ok(const int8_t* x);\\n#endif\\n';
const SOURCE = '#include "ghost_kernels.h"\\nint32_t ghost_ok(const int8_t* x) { return x == 0; }\\n';
class GhostBackend extends UmaBackend {
  constructor() {
    super();
    this.targetName = ${JSON.stringify(target)};
    this.registerSupportedOp('dense');
    this.registerOperatorStrategy('dense', CPU_STRATEGIES.get('dense'));
    this.registerTirPass(0, {
      name: 'ghost_kernel_call',
      phase: 0,
      run: (module) => ({
        ...module,
        functions: new Map([...module.functions].map(([name, f]) => [name, {
          ...f,
          body: tir.seq([tir.evaluate(tir.callExtern(${JSON.stringify(kernel)}, [f.params[0]])), f.body]),
        }])),
      }),
    });
    this.registerCodegen({
      includes: () => '#include "ghost_kernels.h"\\n',
      runtimeSources: () => [
        { name: 'ghost_kernels.h', content: HEADER },
        { name: 'ghost_kernels.c', content: SOURCE },
      ],
    });
  }
}
module.exports = { GhostBackend };
`;
}

/** The single `error:` line of a failed run. */
function errorLine(err: string): string {
  const lines = err.split('\n').filter((l) => l.startsWith('error:'));
  expect(lines).toHaveLength(1);
  return lines[0];
}

function listTree(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

let dir: string;
let missingModule: string;
let okModule: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bad-input-'));
  missingModule = path.join(dir, 'ghost_missing.js');
  okModule = path.join(dir, 'ghost_ok.js');
  fs.writeFileSync(missingModule, ghostModule('ghost', 'ghost_missing'));
  fs.writeFileSync(okModule, ghostModule('ghostok', 'ghost_ok'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Entries of `dir` other than `keep`: temp or backup directories a failed write left behind. */
function strays(keep: readonly string[]): string[] {
  return fs.readdirSync(dir).filter((e) => !keep.includes(e) && !e.endsWith('.js'));
}

describe('a kernel the backend does not provide', () => {
  const MESSAGE =
    "function ghost_main_0 (target ghost) calls kernel 'ghost_missing' that backend ghost does not provide " +
    '(not declared in its includes or runtime sources)';

  it('compileModel: CodegenError naming function, target and kernel', async () => {
    const registry = new BackendRegistry();
    expect(await loadBackendModule(registry, missingModule)).toEqual(['ghost']);
    let caught: unknown;
    try {
      compileModel(model('hello_world_int8'), { backend: 'ghost', registry });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CodegenError);
    expect((caught as CodegenError).message).toBe(MESSAGE);
    expect((caught as CodegenError).context).toMatchObject({ func: 'ghost_main_0', target: 'ghost' });
  });

  it('the same backend calling a declared kernel compiles, builds and runs byte-exact', async () => {
    const registry = new BackendRegistry();
    await loadBackendModule(registry, okModule);
    const file = model('hello_world_int8');
    const result = compileModel(file, { backend: 'ghostok', registry });
    const lib = result.artifacts.files.find((f) => f.content.includes('ghost_ok('))!;
    expect(lib.path).toMatch(/^src\/default_lib\d\.c$/);
    const input = fixedInput(1, 5);
    const expected = interpret(loadTfliteFile(file), [input]);
    const app = buildApplication(result, [input]);
    try {
      const out = runApplication(app, expected.map((e) => e.length));
      expect(out.status).toBe(0);
      expect(out.outputs.map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
    } finally {
      fs.rmSync(app, { recursive: true, force: true });
    }
  });

  it('CLI: exit 1, the message, no output directory', async () => {
    const out = path.join(dir, 'ghost_out');
    const { code, err } = await runCli(['compile', model('hello_world_int8'), '--backend', 'ghost', '--backend-module', missingModule, '--out', out]);
    expect(code).toBe(1);
    expect(errorLine(err)).toBe(`error: ${MESSAGE}`);
    expect(fs.existsSync(out)).toBe(false);
    expect(strays([])).toEqual([]);
  });
});

describe('what counts as provided', () => {
  it('declaresFunction: whole identifiers followed by (, outside comments', () => {
    expect(declaresFunction('int32_t k(int8_t* x);', 'k')).toBe(true);
    expect(declaresFunction('#define k(x) (x)', 'k')).toBe(true);
    expect(declaresFunction('int32_t my_k(int8_t* x);', 'k')).toBe(false);
    expect(declaresFunction('int32_t k_v2(int8_t* x);', 'k')).toBe(false);
    expect(declaresFunction('/* k( */ // k(\nint x;', 'k')).toBe(false);
  });

  const x = makeVar('x', 'handle', 'int8');
  const caller = (callee: string, target = 'ghost') =>
    primFunc({ params: [x], body: seq([evaluate(callExtern(callee, [x]))]), attrs: { target } });
  const check = (fn: ReturnType<typeof caller>, hook: Parameters<typeof checkBackendExterns>[1][number], others: [string, typeof fn][] = []) =>
    () => checkBackendExterns(new Map([['ghost_main_0', fn], ...others]), [hook], targetOf);
  const bare = { target: 'ghost', includes: '#include "ghost.h"' };

  it('module functions, uma runtime helpers and hook-rendered calls pass; anything else fails', () => {
    expect(check(caller('k'), bare)).toThrow(/calls kernel 'k' that backend ghost does not provide/);
    expect(check(caller('k'), { ...bare, runtimeSources: [{ name: 'ghost.h', content: 'int k(signed char*);' }] })).not.toThrow();
    expect(check(caller('k'), { ...bare, replaceCallExtern: (n, a) => (n === 'k' ? `(${a[0]} == 0)` : undefined) })).not.toThrow();
    expect(check(caller('uma_ref_softmax_int8'), bare)).not.toThrow();
    expect(check(caller('helper'), bare, [['helper', primFunc({ params: [], body: seq([]), attrs: { target: 'ghost' } })]])).not.toThrow();
    // Functions of targets without a hook get inferred prototypes: nothing to check.
    expect(check(caller('k', 'other'), bare)).not.toThrow();
  });
});

describe('operators and dtypes', () => {
  it('a float model on backends whose patterns want int8 simply stays on the host', () => {
    const registry = new BackendRegistry();
    registry.register(VanillaBackend);
    registry.register(AccelBackend);
    for (const backend of ['vanilla', 'accel']) {
      // accel's memory declaration names the pools of its bundled pools.json.
      const poolsFile = path.join(ROOT, 'backends', 'accel', 'pools.json');
      const pools = backend === 'accel' ? parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile) : undefined;
      const result = compileModel(model('hello_world_float'), { backend, registry, ...(pools ? { pools } : {}) });
      expect([backend, [...result.partitioned.functions.values()].filter((f) => f.attrs.Compiler !== undefined)]).toEqual([backend, []]);
      expect(result.artifacts.metadata.targets).toEqual(['c']);
    }
  });

  it('a hybrid depthwise_conv2d with one weight scale: one error line naming the operator, exit 1, no output directory', async () => {
    // Float32 activations with an int8 weight TensorFlow Lite wants per-channel; both are
    // listed under the one error line, like the import checker's list.
    const file = path.join(dir, 'dw_per_tensor.tflite');
    fs.writeFileSync(file, depthwisePerTensorModel(2));
    const out = path.join(dir, 'dw_per_tensor_out');
    const { code, err } = await runCli(['compile', file, '--backend', 'vanilla', '--out', out]);
    expect(code).toBe(1);
    expect(errorLine(err)).toMatch(
      /^error: .+: hybrid depthwise_conv2d: weight has 1 scale along axis 3; a hybrid depthwise_conv2d takes 3 \(one per output channel\) along axis 3 \(2 operators the host CPU cannot lower, 1 kind:\)$/,
    );
    const lines = err.split('\n');
    expect(lines[lines.findIndex((l) => l.startsWith('error:')) + 1]).toMatch(/^  depthwise_conv2d x2, first at 'y0': hybrid depthwise_conv2d: weight has 1 scale/);
    expect(fs.existsSync(out)).toBe(false);
    expect(strays(['dw_per_tensor.tflite'])).toEqual([]);
    fs.rmSync(file);
  });
});

describe('a pool too small', () => {
  it('names the buffer, writes nothing, and leaves a previous output directory intact', async () => {
    const out = path.join(dir, 'kws_out');
    const common = ['compile', model('kws_ref_model'), '--backend', 'ghostok', '--backend-module', okModule, '--out', out];
    const pools = ['--workspace-pools', 'sram', '--workspace-pools-targets', 'sram:c,ghostok'];

    const first = await runCli([...common, ...pools]);
    expect(first.err).not.toContain('error:');
    expect(first.code).toBe(0);
    const before = listTree(out);
    const metadata = fs.readFileSync(path.join(out, 'metadata.json'), 'utf8');

    // kws_ref_model's first activation alone is 25x5x64 int8 = 8000 bytes.
    const { code, err } = await runCli([...common, ...pools, '--workspace-pools-size-hint-bytes', 'sram:4096']);
    expect(code).toBe(1);
    // TVM's overflow message, naming a buffer of this program (one the fitting plan placed).
    const line = errorLine(err);
    const named = /allocate the buffer: (\S+) \(/.exec(line);
    expect(named).not.toBeNull();
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')) as { buffers: { name: string }[] };
    expect(report.buffers.map((b) => b.name)).toContain(named![1]);
    // The same line says how big the buffer is, who writes it, the limit and what the plan needs.
    expect(line).toMatch(/ \(\d+ bytes, (tensor '[^']+', )?allocated in \S+, written by tvmgen_default_\S+ \(target c\)\)/);
    expect(line).toContain('excluded: global_const_workspace (a constant pool, the buffer needs workspace pool)');
    expect(line).toMatch(/allowed pools: sram \(limit 4096 bytes, the plan needs \d+\)/);
    expect(line).toMatch(/raise a limit \(pools config\) or allow another pool$/);
    expect(listTree(out)).toEqual(before);
    expect(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8')).toBe(metadata);
    expect(strays(['kws_out'])).toEqual([]);
  });

  it('says why no plan fits where each buffer fits alone but those live together do not', async () => {
    const out = path.join(dir, 'kws_out_8000');
    const { code, err } = await runCli([
      'compile', model('kws_ref_model'), '--backend', 'ghostok', '--backend-module', okModule, '--out', out,
      '--workspace-pools', 'sram', '--workspace-pools-targets', 'sram:c,ghostok', '--workspace-pools-size-hint-bytes', 'sram:8000',
    ]);
    expect(code).toBe(1);
    // The first activation alone is 8000 bytes; it and the next are live together.
    expect(errorLine(err)).toMatch(
      /allowed pools: sram \(limit 8000 bytes, the plan needs \d+\);.* the 2 buffer\(s\) that can only go in pool sram are live together at step \d+ of the live ranges with 16000 bytes, above its limit of 8000 bytes, so no plan fits them; raise a limit/,
    );
    expect(fs.existsSync(out)).toBe(false);
  });
});

describe('a model problem found while compiling', () => {
  it('names the model file, on one line', async () => {
    // hello_world's first dense output is [1, 16]; a corrupted 2nd dimension no longer fits.
    const bytes = new Uint8Array(fs.readFileSync(model('hello_world_int8')));
    const file = path.join(dir, 'reshaped.tflite');
    const raw = new RawTflite(bytes);
    const dv = new DataView(bytes.buffer);
    const tensor = raw.tensors()[7];
    const p = raw.fieldPos(tensor, 0);
    const header = p + dv.getUint32(p, true);
    dv.setInt32(header + 8, 17, true);
    fs.writeFileSync(file, bytes);
    const r = await runCli(['compile', file, '--backend', 'vanilla', '--out', path.join(dir, 'reshaped_out')]);
    expect(r.code).toBe(1);
    // Found at import now (the weighted operators' type rule runs there), naming operator and file.
    expect(errorLine(r.err)).toBe(
      `error: unsupported dense: input of 17 elements is not a whole number of rows of 16 (arguments: [1, 17] int8, [16, 16] int8, [16] int32) on FULLY_CONNECTED at operator #1 in ${file}`,
    );
    expect(fs.existsSync(path.join(dir, 'reshaped_out'))).toBe(false);
  });
});

describe('compile options given empty', () => {
  it.each(['algorithm', 'moduleName'] as const)('compileModel refuses %s "" (read as not given, it chose the default)', (key) => {
    const registry = new BackendRegistry();
    registry.register(VanillaBackend);
    expect(() => compileModel(model('hello_world_int8'), { backend: 'vanilla', registry, [key]: ' ' })).toThrow(`compile option ${key} is empty: leave it out for the default`);
  });
});
