/**
 * The vanilla example backend end to end: what it offloads from real models, the TIR its
 * pass produces, and that the kernel (TypeScript simulation and C) computes exactly what
 * the reference interpreter computes.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  BackendRegistry,
  CallNode,
  CArtifacts,
  compileModel,
  compileToTir,
  externalFunctions,
  generateC,
  GraphFunction,
  interpret,
  IRModule,
  LOWERING_EXTERN_SIMULATIONS,
  loadTfliteFile,
  MAIN_FUNCTION,
  partition,
  seededRandom,
  tir,
} from '../../src';
import { VanillaBackend, VANILLA_CONV2D, VANILLA_EXTERN_SIMULATIONS, vanillaCodegenHook } from '.';
import { randomInt8, tinyConvModule } from './fixtures';

const MODELS = path.join(__dirname, '..', '..', 'models');

function registry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(VanillaBackend);
  return r;
}

function mainOf(m: IRModule): GraphFunction {
  return m.functions.get(MAIN_FUNCTION) as GraphFunction;
}

/**
 * The calls the backend should take, decided from the op list alone: int8 conv2d/dense
 * whose weight and bias arguments are constants.
 */
function expectedOffloads(main: GraphFunction): CallNode[] {
  const kind = new Map(main.nodes.map((n) => [n.name, n.kind]));
  return main.nodes.filter(
    (n): n is CallNode =>
      n.kind === 'call' &&
      n.callee.kind === 'op' &&
      (n.callee.op === 'conv2d' || n.callee.op === 'dense') &&
      n.type.dtype === 'int8' &&
      n.args.slice(1).every((a) => kind.get(a) === 'constant'),
  );
}

/** Operator calls reachable from `fn`, following calls into composite functions. */
function opsInside(m: IRModule, fn: GraphFunction): string[] {
  return fn.nodes.flatMap((n) => {
    if (n.kind !== 'call') return [];
    if (n.callee.kind === 'op') return [n.callee.op];
    return opsInside(m, m.functions.get(n.callee.name) as GraphFunction);
  });
}

/** Regions the merge should form: offloaded calls joined along direct producer → consumer edges. */
function connectedGroups(main: GraphFunction, members: readonly CallNode[]): number {
  const parent = new Map(members.map((c) => [c.name, c.name]));
  const find = (x: string): string => {
    while (parent.get(x) !== x) x = parent.get(x) as string;
    return x;
  };
  for (const c of members) for (const a of c.args) if (parent.has(a)) parent.set(find(a), find(c.name));
  return new Set(members.map((c) => find(c.name))).size;
}

function countBy(items: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[i] = (out[i] ?? 0) + 1;
  return out;
}

describe.each(['person_detect.tflite', 'kws_ref_model.tflite'])('partitioning %s for vanilla', (file) => {
  const model = loadTfliteFile(path.join(MODELS, file));
  const expected = expectedOffloads(mainOf(model));
  const hostCallsBefore = mainOf(model).nodes.filter((n) => n.kind === 'call').length;

  it('offloads every int8 conv2d/dense with constant weights and nothing else', () => {
    expect(expected.length).toBeGreaterThan(0);
    const out = partition(model, registry(), 'vanilla', { mergeRegions: false });
    const externals = externalFunctions(out, 'vanilla').map((n) => out.functions.get(n) as GraphFunction);
    const offloadedOps = externals.flatMap((f) => opsInside(out, f));
    expect(countBy(offloadedOps)).toEqual(countBy(expected.map((c) => (c.callee as { op: string }).op)));
    // What stays in main: every other operator, and none of the expected ones.
    const main = mainOf(out);
    const hostOps = main.nodes.filter((n) => n.kind === 'call' && n.callee.kind === 'op');
    expect(hostOps.length).toBe(hostCallsBefore - expected.length);
    expect(expectedOffloads(main)).toEqual([]);
  });

  it('forms one external function per call without merging, one per connected group with merging', () => {
    const unmerged = partition(model, registry(), 'vanilla', { mergeRegions: false });
    expect(externalFunctions(unmerged, 'vanilla')).toHaveLength(expected.length);
    const merged = partition(model, registry(), 'vanilla', { mergeRegions: true });
    expect(externalFunctions(merged, 'vanilla')).toHaveLength(connectedGroups(mainOf(model), expected));
  });
});

describe('the vanilla TIR of a small conv graph', () => {
  const module = tinyConvModule();

  it('merges the three adjacent convs into one function; dense (after a host reshape) is another', () => {
    const merged = partition(module, registry(), 'vanilla');
    expect(externalFunctions(merged, 'vanilla')).toHaveLength(2);
    const unmerged = partition(module, registry(), 'vanilla', { mergeRegions: false });
    expect(externalFunctions(unmerged, 'vanilla')).toHaveLength(4);
  });

  it('replaces every conv loop nest with call_extern("vanilla_conv2dnchw", ...) in phase 1', () => {
    const reg = registry();
    const before = compileToTir(module, reg, 'vanilla', { lastPhase: 0 }).tir;
    const after = compileToTir(module, reg, 'vanilla').tir;
    const convFunc = (m: tir.TirModule) => tir.printPrimFunc(m.functions.get('vanilla_main_0') as tir.PrimFunc, 'vanilla_main_0');

    const loops = convFunc(before);
    expect(loops).not.toContain(VANILLA_CONV2D);
    expect(loops).toMatch(/for oc in T\.serial/);
    expect(loops).toContain('a_pad = T.allocate(');

    const text = convFunc(after);
    expect(text.match(/T\.call_extern\("int32", "vanilla_conv2dnchw", /g)).toHaveLength(3);
    // The loops and the scratch only they used are gone; the intermediates between convs stay.
    expect(text).not.toMatch(/for \w+ in T\.serial/);
    expect(text).not.toContain('_pad');
    expect(text).toMatch(/\ba = T\.allocate\(\[196\], "int8", "global"/);
    expect(text).toMatch(/\bb = T\.allocate\(\[45\], "int8", "global"/);
    // conv b from the graph: 7x7x4 in, 3x3x5 out, 3x3 kernel over 4 channels, stride 2, no
    // padding, input zero point -10 (a's), output zero point 4, no activation; no bias → zeros.
    expect(text).toContain(
      'T.call_extern("int32", "vanilla_conv2dnchw", a, wb, vanilla_b_zero_bias, b, vanilla_b_multiplier, vanilla_b_shift, 1, 7, 7, 4, 3, 3, 5, 3, 3, 4, 2, 2, 1, 1, 0, 0, 10, 4, -128, 127)',
    );

    const mainText = tir.printPrimFunc(after.functions.get('__tvm_main__') as tir.PrimFunc, '__tvm_main__');
    expect(mainText).toMatch(/sid_1 = T\.allocate\(\[45\], "int8", "global"/);
    expect(mainText).toMatch(/T\.call_extern\("int32", "vanilla_main_0", x, /);
    // Host functions are not the pass's business.
    expect(tir.printPrimFunc(after.functions.get('tvmgen_default_fused_reshape') as tir.PrimFunc)).toEqual(
      tir.printPrimFunc(before.functions.get('tvmgen_default_fused_reshape') as tir.PrimFunc),
    );
  });

  it('drops the removed scratch from the operator records', () => {
    const after = compileToTir(module, registry(), 'vanilla').tir;
    const records = JSON.parse(after.functions.get('vanilla_main_0')?.attrs['uma.operators'] as string) as { scratch: string[] }[];
    expect(records.flatMap((r) => r.scratch)).toEqual([]);
  });
});

describe('the vanilla kernel computes what the interpreter computes', () => {
  const externs = new Map([...LOWERING_EXTERN_SIMULATIONS, ...VANILLA_EXTERN_SIMULATIONS]);

  it('TIR evaluator with the simulated kernel, small conv graph, several inputs', () => {
    const module = tinyConvModule();
    const compiled = compileToTir(module, registry(), 'vanilla').tir;
    for (let seed = 1; seed <= 5; seed++) {
      const x = randomInt8(seededRandom(seed), 7 * 7 * 3);
      expect(tir.runMain(compiled, [x], { externs })).toEqual(interpret(module, [x]));
    }
  });

  it('TIR evaluator, hello_world int8 (dense offloaded)', () => {
    const model = loadTfliteFile(path.join(MODELS, 'hello_world_int8.tflite'));
    const compiled = compileToTir(model, registry(), 'vanilla').tir;
    expect([...compiled.functions.values()].filter((f) => f.attrs.target === 'vanilla').length).toBeGreaterThan(0);
    for (const v of [-128, -60, 0, 17, 127]) {
      const x = new Uint8Array(Int8Array.of(v).buffer);
      expect(tir.runMain(compiled, [x], { externs })).toEqual(interpret(model, [x]));
    }
  });

  it('TIR evaluator, kws_ref_model (convs through the kernel)', () => {
    const model = loadTfliteFile(path.join(MODELS, 'kws_ref_model.tflite'));
    const compiled = compileToTir(model, registry(), 'vanilla').tir;
    const calls = tir.collectCallExterns(compiled.functions.get('vanilla_main_0') as tir.PrimFunc);
    expect(calls.map((c) => c.name)).toContain(VANILLA_CONV2D);
    const inputSize = mainOf(model).nodes.find((n) => n.kind === 'var')?.type.shape.reduce((a, b) => a * b, 1) as number;
    const x = randomInt8(seededRandom(11), inputSize);
    expect(tir.runMain(compiled, [x], { externs })).toEqual(interpret(model, [x]));
  });

  it('generated C with the shipped kernel (gcc, UBSan) matches the interpreter', () => {
    const module = tinyConvModule();
    const compiled = compileToTir(module, registry(), 'vanilla').tir;
    const artifacts = generateC({
      module: compiled,
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, 7, 7, 3] }],
      outputs: [{ name: 'd', dtype: 'int8', shape: [1, 6] }],
      backends: [vanillaCodegenHook()],
    });
    const paths = artifacts.runtimeFiles.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['include/vanilla_conv2d.h', 'src/vanilla_conv2d.c']));
    const vanillaFile = artifacts.files.find((f) => f.content.includes('vanilla_main_0(') && f.content.includes('#include "vanilla_conv2d.h"'));
    expect(vanillaFile).toBeDefined();
    const inputs = [1, 2, 3].map((seed) => randomInt8(seededRandom(seed), 7 * 7 * 3));
    expect(runWithGcc(artifacts, inputs, 6)).toEqual(inputs.map((x) => interpret(module, [x])[0]));
  });

  it.each(['tiny conv graph', 'kws_ref_model.tflite', 'person_detect.tflite'])('the full compile (pinning, USMP, C) of %s runs bit-exact', (what) => {
    const module = what.endsWith('.tflite') ? loadTfliteFile(path.join(MODELS, what)) : tinyConvModule();
    const result = compileModel(module, { backend: 'vanilla', registry: registry() });
    const lib = result.artifacts.files.filter((f) => f.content.includes('vanilla_conv2dnchw('));
    expect(lib.length).toBeGreaterThan(0);
    const inSize = result.inputs[0].shape.reduce((a, b) => a * b, 1);
    const outSize = result.outputs[0].shape.reduce((a, b) => a * b, 1);
    const inputs = [5, 6].map((seed) => randomInt8(seededRandom(seed), inSize));
    expect(runWithGcc(result.artifacts, inputs, outSize)).toEqual(inputs.map((x) => interpret(module, [x])[0]));
  });
});

/**
 * Builds the generated C with a driver that runs each input through `tvmgen_default_run`
 * (one int8 input, one int8 output), under UBSan, and returns the outputs as bytes.
 */
function runWithGcc(artifacts: CArtifacts, inputs: readonly Uint8Array[], outSize: number): Uint8Array[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-vanilla-'));
  try {
    for (const f of [...artifacts.files, ...artifacts.runtimeFiles]) {
      const p = path.join(dir, f.path);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, f.content);
    }
    const inSize = inputs[0].length;
    const rows = inputs.map((x) => `{${Array.from(new Int8Array(x.buffer, x.byteOffset, x.length)).join(', ')}}`).join(',\n  ');
    const input = artifacts.metadata.inputs[0].cName;
    const output = artifacts.metadata.outputs[0].cName;
    fs.writeFileSync(
      path.join(dir, 'main.c'),
      `#include <stdio.h>
#include "tvmgen_default.h"
static int8_t inputs[${inputs.length}][${inSize}] = {
  ${rows}
};
static int8_t out[${outSize}];
int main(void) {
  for (int r = 0; r < ${inputs.length}; ++r) {
    struct tvmgen_default_inputs in = { .${input} = inputs[r] };
    struct tvmgen_default_outputs o = { .${output} = out };
    if (tvmgen_default_run(&in, &o) != 0) return 3;
    for (int i = 0; i < ${outSize}; ++i) printf("%d\\n", out[i]);
  }
  return 0;
}
`,
    );
    const sources = fs.readdirSync(path.join(dir, 'src')).map((f) => path.join('src', f));
    const flags = ['-std=c99', '-Wall', '-Wextra', '-Werror', '-fsanitize=undefined', '-fno-sanitize-recover=all', '-O1'];
    execFileSync('gcc', [...flags, '-Iinclude', ...sources, 'main.c', '-o', 'prog', '-lm'], { cwd: dir, stdio: 'pipe' });
    const values = execFileSync(path.join(dir, 'prog'), { encoding: 'utf8' }).trim().split(/\s+/).map(Number);
    return inputs.map((_, r) => new Uint8Array(Int8Array.from(values.slice(r * outSize, (r + 1) * outSize)).buffer));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the vanilla registration', () => {
  it('declares its target attribute, patterns, strategies, pass, codegen and memory', () => {
    const backend = registry().get('vanilla');
    expect(backend.manifest()).toMatchObject({
      target: 'vanilla',
      attrs: [{ name: 'dimension', type: 'int', default: 16 }],
      patterns: ['conv2d', 'dense'],
      operatorStrategies: ['conv2d', 'dense'],
      tirPasses: [{ name: 'VanillaConv2dPass', phase: 1, scope: 'target' }],
      codegen: true,
      pools: [
        { pool: 'global_workspace', access: 'rw' },
        { pool: 'global_const_workspace', access: 'rw' },
      ],
      operandConstraints: [],
    });
    expect(backend.codegenHooks()?.includes()).toBe('#include "vanilla_conv2d.h"\n');
  });
});
