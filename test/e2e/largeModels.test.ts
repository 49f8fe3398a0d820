/**
 * Large models compile: the AoT main nests one Allocate per intermediate tensor, and every
 * traversal of it (visitors, mutators, checks, printer, C emitter, evaluator) once recursed
 * through that nest and overflowed Node's stack past about 3,000 intermediates. These build
 * models well past that with the TFLite writer and run them through the whole pipeline.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { MAIN_PRIM_FUNC } from '../../src/ir/tir/nodes';
import { scopeChain } from '../../src/ir/tir/scope';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { expectRunsByteExact } from './harness';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const SHAPE = [1, 8];
const Q = { scale: [0.05], zeroPoint: [3] };

/**
 * A chain of `n` operators cycling QUANTIZE (to int8), DEQUANTIZE, RELU, ADD and MUL (float32,
 * one shared constant): the dtype changes twice a cycle, so in-place reuse cannot fold the
 * chain into one buffer and main declares 2 intermediates per 5 operators. (int8 RELU, ADD or
 * MUL would add a constant table per operator; planning constants grows with their square.)
 */
function chainModel(n: number): Uint8Array {
  const w = new TfliteWriter('large chain');
  let cur = w.addInput({ name: 'x', shape: SHAPE, dtype: 'float32' });
  const c = w.addConstant({ name: 'c', shape: SHAPE, dtype: 'float32', data: new Float32Array(8).fill(0.5) });
  for (let k = 0; k < n; k++) {
    const step = k % 5;
    const int8 = step === 0;
    const out = w.addTensor({ name: `t${k}`, shape: SHAPE, dtype: int8 ? 'int8' : 'float32', ...(int8 ? { quant: Q } : {}) });
    if (step === 0) w.addOperator({ op: 'QUANTIZE', inputs: [cur], outputs: [out] });
    else if (step === 1) w.addOperator({ op: 'DEQUANTIZE', inputs: [cur], outputs: [out] });
    else if (step === 2) w.addOperator({ op: 'RELU', inputs: [cur], outputs: [out] });
    else if (step === 3) w.addOperator({ op: 'ADD', inputs: [cur, c], outputs: [out], options: tfliteOptions.add() });
    else w.addOperator({ op: 'MUL', inputs: [cur, c], outputs: [out], options: tfliteOptions.mul() });
    cur = out;
  }
  w.markOutput(cur);
  return w.finish();
}

/**
 * `n` float32 operators shaped like a U-Net's skip connections: `n / 2` operators down, each
 * output also added back on the way up, so half the intermediates are live at once.
 */
function skipModel(n: number): Uint8Array {
  const w = new TfliteWriter('skip connections');
  const x = w.addInput({ name: 'x', shape: SHAPE, dtype: 'float32' });
  const c = w.addConstant({ name: 'c', shape: SHAPE, dtype: 'float32', data: new Float32Array(8).fill(0.25) });
  const half = Math.floor(n / 2);
  const down = [x];
  for (let k = 0; k < half; k++) {
    const out = w.addTensor({ name: `d${k}`, shape: SHAPE, dtype: 'float32' });
    w.addOperator({ op: k % 2 ? 'MUL' : 'ADD', inputs: [down[k], c], outputs: [out], options: k % 2 ? tfliteOptions.mul() : tfliteOptions.add() });
    down.push(out);
  }
  let cur = down[half];
  for (let j = 1; j <= n - half; j++) {
    const out = w.addTensor({ name: `u${j}`, shape: SHAPE, dtype: 'float32' });
    w.addOperator({ op: 'ADD', inputs: [cur, down[Math.max(0, half - j)]], outputs: [out], options: tfliteOptions.add() });
    cur = out;
  }
  w.markOutput(cur);
  return w.finish();
}

/** `branches` parallel QUANTIZE -> DEQUANTIZE -> QUANTIZE -> DEQUANTIZE branches of one input, concatenated: each branch's output lives until the end. */
function wideModel(branches: number): Uint8Array {
  const w = new TfliteWriter('wide');
  const x = w.addInput({ name: 'x', shape: SHAPE, dtype: 'float32' });
  const outs: number[] = [];
  for (let k = 0; k < branches; k++) {
    let cur = x;
    for (let d = 0; d < 4; d++) {
      const int8 = d % 2 === 0;
      const out = w.addTensor({ name: `b${k}_${d}`, shape: SHAPE, dtype: int8 ? 'int8' : 'float32', ...(int8 ? { quant: Q } : {}) });
      w.addOperator({ op: int8 ? 'QUANTIZE' : 'DEQUANTIZE', inputs: [cur], outputs: [out] });
      cur = out;
    }
    outs.push(cur);
  }
  const cat = w.addTensor({ name: 'cat', shape: [1, 8 * branches], dtype: 'float32' });
  w.addOperator({ op: 'CONCATENATION', inputs: outs, outputs: [cat], options: tfliteOptions.concatenation(1) });
  w.markOutput(cat);
  return w.finish();
}

const INPUT = new Uint8Array(Float32Array.from([-1, -0.5, 0, 0.25, 0.5, 1, 2, 3]).buffer);

function compile(model: Uint8Array, name: string) {
  const registry = new BackendRegistry();
  registry.register(HostOnlyBackend);
  const graph = importTflite(model, name);
  return { graph, result: compileModel(graph, { backend: 'host_only', registry }) };
}

/** How deep main's scope statements nest. */
function mainNesting(result: ReturnType<typeof compile>['result']): number {
  return scopeChain(result.tir.functions.get(MAIN_PRIM_FUNC)!.body).scopes.length;
}

describe('large models compile without overflowing the stack', () => {
  it('a 20,000-operator chain compiles to C (main nests 8,000 scopes)', () => {
    const { result } = compile(chainModel(20000), 'chain20k.tflite');
    expect(mainNesting(result)).toBeGreaterThanOrEqual(8000);
    const lib = result.artifacts.files.find((f) => f.path.endsWith('default_lib1.c'));
    expect(lib?.content).toContain('tvmgen_default_fused_mul_3999(');
  });

  it('a 5,000-operator chain builds under gcc and runs byte-exact; the TIR evaluator agrees', () => {
    const { graph, result } = compile(chainModel(5000), 'chain5k.tflite');
    const expected = interpret(graph, [INPUT]);
    expect(runMain(result.tir, [INPUT], { externs: LOWERING_EXTERN_SIMULATIONS })[0]).toEqual(expected[0]);
    expectRunsByteExact(result, [INPUT], expected, ['-O0']);
  });

  // Many buffers live at once make a dense conflict graph, which planning pays for: these stay small.
  it('skip connections keeping 1,500 intermediates live at once compile to C', () => {
    const { result } = compile(skipModel(3000), 'skip3k.tflite');
    expect(mainNesting(result)).toBeGreaterThanOrEqual(1500);
  });

  it('1,200 parallel branches of 4 operators, concatenated, compile to C (main nests 4,800 scopes)', () => {
    const { result } = compile(wideModel(1200), 'wide1200.tflite');
    expect(mainNesting(result)).toBeGreaterThanOrEqual(4800);
  });
});
