/**
 * BROADCAST_ARGS (TFLite builtin 145) through the importer, from models built with the TFLite
 * writer: known shapes (constants, SHAPE outputs) fold to a constant at import, shapes that do
 * not broadcast are an import error naming the operator and both tensors; shapes read at run
 * time become a call, interpreted as TFLite Micro's kernel and lowered byte-exact (TIR
 * evaluator and gcc), and agree with LiteRT.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { broadcastShapeValues } from '../../src/ir/graph/miscTypes';
import { MAIN_FUNCTION } from '../../src/ir/graph/types';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { expectRunsByteExact } from '../e2e/harness';
import { lowerForCpu } from '../lower/helpers';
import { describeAgainstLiteRt, LiteRtCase } from './liteRtComparison';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

type Dt = 'int32' | 'int64';
/** An operand: a model input with its run-time values, or a constant. */
type Operand = { readonly values: number[]; readonly input: boolean };
const input = (values: number[]): Operand => ({ values, input: true });
const constant = (values: number[]): Operand => ({ values, input: false });

function bytes(values: readonly number[], dtype: Dt): Uint8Array {
  return dtype === 'int64' ? new Uint8Array(BigInt64Array.from(values.map((v) => BigInt(v))).buffer) : new Uint8Array(Int32Array.from(values).buffer);
}

function decode(data: Uint8Array, dtype: Dt): number[] {
  const copy = data.slice();
  return dtype === 'int64' ? Array.from(new BigInt64Array(copy.buffer), Number) : Array.from(new Int32Array(copy.buffer));
}

function model(name: string, a: Operand, b: Operand, dtype: Dt, outLength = Math.max(a.values.length, b.values.length)): LiteRtCase {
  const w = new TfliteWriter();
  const inputs: Uint8Array[] = [];
  const operand = (o: Operand, tensor: string) => {
    if (!o.input) return w.addConstant({ name: tensor, shape: [o.values.length], dtype, data: o.values });
    inputs.push(bytes(o.values, dtype));
    return w.addInput({ name: tensor, shape: [o.values.length], dtype });
  };
  const s1 = operand(a, 's1');
  const s2 = operand(b, 's2');
  const y = w.addTensor({ name: 'y', shape: [outLength], dtype });
  w.addOperator({ op: 'BROADCAST_ARGS', inputs: [s1, s2], outputs: [y] });
  w.markOutput(y);
  return { name, model: w.finish(), inputs, outDtype: dtype };
}

function calls(c: LiteRtCase): string[] {
  const main = importTflite(c.model, 'm.tflite').functions.get(MAIN_FUNCTION)!;
  return main.nodes.flatMap((n) => (n.kind === 'call' && n.callee.kind === 'op' ? [n.callee.op] : []));
}

/** Run-time shapes: [name, shape1, shape2, dtype]. */
const RUNTIME: readonly [string, number[], number[], Dt][] = [
  ['equal lengths', [2, 1, 3], [1, 4, 3], 'int32'],
  ['shorter left', [5], [2, 3, 1], 'int32'],
  ['shorter right', [7, 1, 6, 1], [1, 5], 'int32'],
  ['one empty', [], [4, 2], 'int32'],
  ['both 1', [1, 1], [1], 'int32'],
  ['zero-sized dimension', [0, 3], [1, 3], 'int32'],
  ['int64', [3, 1, 8], [2, 1], 'int64'],
  ['int64 large dims', [100000, 1], [1, 70000], 'int64'],
];

describe('broadcastShapeValues (TFLite reference kernel semantics)', () => {
  it('aligns at the last dimension, a missing dimension is 1, the dimension that is not 1 wins', () => {
    expect(broadcastShapeValues([2, 1, 3], [4, 1])).toEqual({ values: [2, 4, 3] });
    expect(broadcastShapeValues([], [])).toEqual({ values: [] });
    expect(broadcastShapeValues([1], [0])).toEqual({ values: [0] });
  });
  it('reports the first conflict, writing the left dimension there', () => {
    expect(broadcastShapeValues([2, 3], [3, 4])).toEqual({ values: [2, 3], conflict: { index: 0, left: 2, right: 3 } });
  });
});

describe('BROADCAST_ARGS with known shapes folds at import', () => {
  // (A constant model output is then returned through a copy the importer adds.)
  it('two int32 constants: a constant output, no broadcast_args call', () => {
    const c = model('', constant([2, 1, 3]), constant([4, 1]), 'int32');
    expect(calls(c)).not.toContain('broadcast_args');
    expect(decode(interpret(importTflite(c.model, 'm.tflite'), [])[0], 'int32')).toEqual([2, 4, 3]);
  });

  it('two int64 constants', () => {
    const c = model('', constant([6, 1]), constant([5, 1, 7]), 'int64');
    expect(calls(c)).not.toContain('broadcast_args');
    expect(decode(interpret(importTflite(c.model, 'm.tflite'), [])[0], 'int64')).toEqual([5, 6, 7]);
  });

  it('a SHAPE output (static here) and a constant: folded, only the SHAPE call remains', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [3, 1, 5], dtype: 'float32' });
    const shapeOut = w.addTensor({ name: 'x_shape', shape: [3], dtype: 'int32' });
    w.addOperator({ op: 'SHAPE', inputs: [x], outputs: [shapeOut], options: tfliteOptions.shape('int32') });
    const other = w.addConstant({ name: 'target', shape: [4], dtype: 'int32', data: [2, 1, 4, 1] });
    const y = w.addTensor({ name: 'y', shape: [4], dtype: 'int32' });
    w.addOperator({ op: 'BROADCAST_ARGS', inputs: [shapeOut, other], outputs: [y] });
    w.markOutput(y);
    const graph = importTflite(w.finish(), 'm.tflite');
    const main = graph.functions.get(MAIN_FUNCTION)!;
    expect(main.nodes.find((n) => n.name === 'y')?.kind).toBe('constant');
    expect(decode(interpret(graph, [new Uint8Array(60)])[0], 'int32')).toEqual([2, 3, 4, 5]);
  });

  it('a folded output is a constant to later operators: chained BROADCAST_ARGS, then FILL dims', () => {
    const w = new TfliteWriter();
    const i32 = (name: string, data: number[]) => w.addConstant({ name, shape: [data.length], dtype: 'int32', data });
    const ab = w.addTensor({ name: 'ab', shape: [2], dtype: 'int32' });
    w.addOperator({ op: 'BROADCAST_ARGS', inputs: [i32('a', [2, 1]), i32('b', [3])], outputs: [ab] });
    const abc = w.addTensor({ name: 'abc', shape: [3], dtype: 'int32' });
    w.addOperator({ op: 'BROADCAST_ARGS', inputs: [ab, i32('c', [1, 1, 1])], outputs: [abc] });
    const value = w.addInput({ name: 'v', shape: [], dtype: 'float32' });
    const y = w.addTensor({ name: 'y', shape: [1, 2, 3], dtype: 'float32' });
    w.addOperator({ op: 'FILL', inputs: [abc, value], outputs: [y] });
    w.markOutput(y);
    const graph = importTflite(w.finish(), 'm.tflite');
    const main = graph.functions.get(MAIN_FUNCTION)!;
    expect(main.nodes.flatMap((n) => (n.kind === 'call' && n.callee.kind === 'op' ? [n.callee.op] : []))).toEqual(['fill']);
    const out = interpret(graph, [new Uint8Array(Float32Array.of(2.5).buffer)])[0];
    expect(Array.from(new Float32Array(out.slice().buffer))).toEqual([2.5, 2.5, 2.5, 2.5, 2.5, 2.5]);
  });

  it('shapes that do not broadcast: an error naming the operator and both tensors', () => {
    expect(() => importTflite(model('', constant([2, 3]), constant([4, 3]), 'int32').model, 'm.tflite')).toThrow(
      /^corrupt TFLite file m\.tflite at byte offset \d+: shape1 's1' \[2,3\] and shape2 's2' \[4,3\] do not broadcast: output dimension 0 is 2 in one and 4 in the other \(BROADCAST_ARGS at operator #0\)$/,
    );
  });
});

describe('BROADCAST_ARGS with run-time shapes', () => {
  it.each(RUNTIME)('%s: a call, interpreted as the reference kernel, TIR byte-exact', (_name, a, b, dtype) => {
    const c = model('', input(a), input(b), dtype);
    expect(calls(c)).toEqual(['broadcast_args']);
    const graph = importTflite(c.model, 'm.tflite');
    const mine = interpret(graph, c.inputs)[0];
    expect(decode(mine, dtype)).toEqual(broadcastShapeValues(a, b).values);
    const lowered = runMain(lowerForCpu(graph), c.inputs, { externs: LOWERING_EXTERN_SIMULATIONS })[0];
    expect(Array.from(lowered)).toEqual(Array.from(mine));
  });

  it('one run-time shape and one constant: a call with the constant as its argument', () => {
    const c = model('', input([3, 1]), constant([1, 2, 1, 4]), 'int32');
    expect(calls(c)).toEqual(['broadcast_args']);
    expect(decode(interpret(importTflite(c.model, 'm.tflite'), c.inputs)[0], 'int32')).toEqual([1, 2, 3, 4]);
  });

  it('run-time shapes that do not broadcast: the interpreter names the operator and the shapes', () => {
    const c = model('', input([2, 5]), input([3, 5]), 'int32');
    expect(() => interpret(importTflite(c.model, 'm.tflite'), c.inputs)).toThrow(/broadcast_args 'y': shapes \[2,5\] and \[3,5\] do not broadcast: dimension 0 is 2 and 3/);
  });
});

describe('BROADCAST_ARGS refused with one clear line', () => {
  const rejects = (c: LiteRtCase, message: RegExp) => expect(() => importTflite(c.model, 'm.tflite')).toThrow(message);
  it('an output longer than the longer shape', () => {
    rejects(model('', input([2]), input([2]), 'int32', 3), /output shape \[3\] differs from \[1\], the longer of the two shapes \(BROADCAST_ARGS at operator #0\)$/);
  });
  it('int8 shapes', () => {
    const w = new TfliteWriter();
    const a = w.addInput({ name: 'a', shape: [2], dtype: 'int8' });
    const b = w.addInput({ name: 'b', shape: [2], dtype: 'int8' });
    const y = w.addTensor({ name: 'y', shape: [2], dtype: 'int8' });
    w.addOperator({ op: 'BROADCAST_ARGS', inputs: [a, b], outputs: [y] });
    w.markOutput(y);
    rejects({ name: '', model: w.finish(), inputs: [], outDtype: 'int8' }, /^unsupported shape1 dtype int8 \(supported: int32, int64\) on BROADCAST_ARGS at operator #0 in m\.tflite$/);
  });
  it('inspect lists it as supported', () => {
    expect(checkTflite(model('', input([2]), input([2, 1]), 'int32').model, 'm.tflite').unsupported).toEqual([]);
  });
});

// Run-time shapes only: with two constants LiteRT computes the output at prepare time into a
// tensor of its own, which the oracle's bound output buffer never receives (as for SHAPE); the
// folded values are the same function (broadcastShapeValues) checked here on run-time shapes.
describeAgainstLiteRt(
  'BROADCAST_ARGS against LiteRT',
  () => [
    ...RUNTIME.map(([name, a, b, dtype]) => model(name, input(a), input(b), dtype)),
    model('one constant', input([3, 1]), constant([1, 2, 1, 4]), 'int64'),
  ],
  { tolerance: { lsb: 0, rel: 0, abs: 0 }, varied: false },
);

describe('BROADCAST_ARGS compiled and run under gcc', () => {
  it('every run-time case byte-exact with the interpreter (one build)', () => {
    const w = new TfliteWriter();
    const inputs: Uint8Array[] = [];
    RUNTIME.forEach(([, a, b, dtype], k) => {
      const s1 = w.addInput({ name: `a${k}`, shape: [a.length], dtype });
      const s2 = w.addInput({ name: `b${k}`, shape: [b.length], dtype });
      inputs.push(bytes(a, dtype), bytes(b, dtype));
      const y = w.addTensor({ name: `y${k}`, shape: [Math.max(a.length, b.length)], dtype });
      w.addOperator({ op: 'BROADCAST_ARGS', inputs: [s1, s2], outputs: [y] });
      w.markOutput(y);
    });
    const graph = importTflite(w.finish(), 'm.tflite');
    const expected = interpret(graph, inputs);
    RUNTIME.forEach(([, a, b, dtype], k) => expect(decode(expected[k], dtype)).toEqual(broadcastShapeValues(a, b).values));
    const registry = new BackendRegistry();
    registry.register(HostOnlyBackend);
    expectRunsByteExact(compileModel(graph, { backend: 'host_only', registry }), inputs, expected);
  });
});
