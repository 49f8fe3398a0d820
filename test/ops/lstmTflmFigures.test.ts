/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM on TFLite Micro's own kernel-test case
 * (tensorflow/lite/micro/kernels/testdata/lstm_test_data.cc, 2 batches x 3 steps x 2 inputs,
 * 2 units, cell clip 6): the float model and its int8 and 16x8 quantizations (int16 cell
 * state) with the test's quantization settings, written as .tflite, imported and interpreted; outputs within
 * TFLite Micro's tolerances of its golden figures.
 */
import { roundHalfAwayFromZero } from '../../src/arith/fixedpoint';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';

// Gate parameters in TFLite's input/forget/cell/output order: W (2x2), R (2x2), bias.
const GATES = {
  input: { w: [10, 10, 20, 20], b: [-1, -2] },
  forget: { w: [-10, -10, -20, -20], b: [1, 2] },
  cell: { w: [1, 1, 1, 1], b: [0, 0] },
  output: { w: [1, 1, 1, 1], b: [0, 0] },
};
const ORDER = ['input', 'forget', 'cell', 'output'] as const;
const INPUT = [0.2, 0.3, 0.2, 0.3, 0.2, 0.3, -0.98, 0.62, 0.01, 0.99, 0.49, -0.32];
const GOLDEN = [0.26455893, 0.26870455, 0.47935803, 0.47937014, 0.58013272, 0.58013278, -1.41184672e-3, -1.43329117e-5, 0.46887168, 0.46891281, 0.50054074, 0.50054148];

// Get2X2Int8LstmQuantizationSettings: weight (= recurrent weight) and bias scales per gate.
const INT8 = {
  input: { scale: 0.00784313725490196, zp: 0 },
  hidden: { scale: 0.004705882165580988, zp: -21 },
  cellScale: 0.00024414062,
  gate: {
    input: { w: 0.15748031496062992, b: 0.0012351397251814111 },
    forget: { w: 0.15748031496062992, b: 0.0012351397251814111 },
    cell: { w: 0.007874015748031496, b: 6.175698625907056e-5 },
    output: { w: 0.007874015748031496, b: 6.175698625907056e-5 },
  },
};

// Get2X2Int16LstmQuantizationSettings (16x8: int16 activations, int64 bias).
const INT16 = {
  input: { scale: 3.0518044e-5, zp: 0 },
  hidden: { scale: 2.1362956633198035e-5, zp: 0 },
  cellScale: 0.00024414062,
  gate: {
    input: { w: 0.15748031496062992, b: 4.8059911474468205e-6 },
    forget: { w: 0.15748031496062992, b: 4.8059911474468205e-6 },
    cell: { w: 0.007874015748031496, b: 2.40299557372341e-7 },
    output: { w: 0.007874015748031496, b: 2.40299557372341e-7 },
  },
};

const q = (v: number, scale: number, zp = 0, lo = -128, hi = 127): number => Math.min(hi, Math.max(lo, roundHalfAwayFromZero(v / Math.fround(scale)) + zp));

type Kind = 'float32' | 'int8' | 'int16';

function model(kind: Kind): Uint8Array {
  const w = new TfliteWriter();
  const quantized = kind !== 'float32';
  const Q = kind === 'int16' ? INT16 : INT8;
  const biasType = kind === 'int16' ? 'int64' : 'int32';
  const x = quantized
    ? w.addInput({ name: 'x', shape: [2, 3, 2], dtype: kind, quant: { scale: [Q.input.scale], zeroPoint: [Q.input.zp] } })
    : w.addInput({ name: 'x', shape: [2, 3, 2], dtype: 'float32' });
  const weight = (g: (typeof ORDER)[number]): number =>
    quantized
      ? w.addConstant({ shape: [2, 2], dtype: 'int8', quant: { scale: [Q.gate[g].w], zeroPoint: [0] }, data: GATES[g].w.map((v) => q(v, Q.gate[g].w, 0, -127, 127)) })
      : w.addConstant({ shape: [2, 2], dtype: 'float32', data: GATES[g].w });
  const wx = ORDER.map(weight);
  const wh = ORDER.map(weight);
  const biases = ORDER.map((g) =>
    quantized
      ? w.addConstant({ shape: [2], dtype: biasType, quant: { scale: [Q.gate[g].b], zeroPoint: [0] }, data: GATES[g].b.map((v) => q(v, Q.gate[g].b, 0, -(2 ** 31), 2 ** 31 - 1)) })
      : w.addConstant({ shape: [2], dtype: 'float32', data: GATES[g].b }),
  );
  const hq = { scale: [Q.hidden.scale], zeroPoint: [Q.hidden.zp] };
  const hidden = w.addTensor({ name: 'h', shape: [2, 2], dtype: kind, ...(quantized ? { quant: hq } : {}), isVariable: true });
  const cell = w.addTensor({ name: 'c', shape: [2, 2], dtype: quantized ? 'int16' : 'float32', ...(quantized ? { quant: { scale: [Q.cellScale], zeroPoint: [0] } } : {}), isVariable: true });
  const y = w.addTensor({ name: 'y', shape: [2, 3, 2], dtype: kind, ...(quantized ? { quant: hq } : {}) });
  w.addOperator({
    op: 'UNIDIRECTIONAL_SEQUENCE_LSTM',
    inputs: [x, ...wx, ...wh, -1, -1, -1, ...biases, -1, -1, hidden, cell, -1, -1, -1, -1],
    outputs: [y],
    // TFLite Micro's kDefaultBuiltinData: tanh, cell clip 6, proj clip 3 (no projection), batch major.
    options: tfliteOptions.unidirectionalSequenceLstm({ cellClip: 6, projClip: 3 }),
  });
  w.markOutput(y);
  return w.finish();
}

describe("TFLite Micro's LSTM kernel-test figures", () => {
  it('float: matches the golden output (TFLite Micro tolerance 1e-5 relative)', () => {
    const out = new Float32Array(interpret(importTflite(model('float32')), [new Uint8Array(Float32Array.from(INPUT).buffer)])[0].slice().buffer);
    out.forEach((v, i) => expect(Math.abs(v - GOLDEN[i])).toBeLessThan(1e-5 + 1e-5 * Math.abs(GOLDEN[i])));
  });

  it('int8 with int16 cell state: dequantized output within 1e-2 of the golden output', () => {
    const input = new Uint8Array(Int8Array.from(INPUT.map((v) => q(v, INT8.input.scale, INT8.input.zp))).buffer);
    const out = Array.from(new Int8Array(interpret(importTflite(model('int8')), [input])[0].slice().buffer));
    out.forEach((v, i) => expect(Math.abs((v - INT8.hidden.zp) * INT8.hidden.scale - GOLDEN[i])).toBeLessThan(1e-2));
  });

  it('16x8 (int16 activations, int64 bias): dequantized output within 1e-3 of the golden output', () => {
    const input = new Uint8Array(Int16Array.from(INPUT.map((v) => q(v, INT16.input.scale, 0, -32768, 32767))).buffer);
    const graph = importTflite(model('int16'));
    const out = Array.from(new Int16Array(interpret(graph, [input])[0].slice().buffer));
    out.forEach((v, i) => expect(Math.abs(v * INT16.hidden.scale - GOLDEN[i])).toBeLessThan(1e-3));
    // The lowering (uma_ref_lstm_int16's evaluator twin) gives the same bytes.
    const lowered = runMain(lowerForCpu(graph), [input], { externs: LOWERING_EXTERN_SIMULATIONS })[0];
    expect(Array.from(new Int16Array(lowered.slice().buffer))).toEqual(out);
  });
});
