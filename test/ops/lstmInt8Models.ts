/**
 * int8 UNIDIRECTIONAL_SEQUENCE_LSTM test models (int8 activations and weights, int32 bias,
 * int16 cell state) written with the TFLite writer, from float weights quantized per tensor.
 */
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { floats, LstmModelSpec } from './lstmModels';

export interface Int8LstmSpec extends LstmModelSpec {
  readonly inputScale: number;
  readonly inputZeroPoint: number;
  readonly hiddenScale: number;
  readonly hiddenZeroPoint: number;
  /** A power of two (TFLite's integer LSTM). */
  readonly cellScale: number;
  /** int16 = 16x8: int16 activations and states, int64 bias. Default int8. */
  readonly activation?: 'int8' | 'int16';
  /** Every gate bias element this value instead of random ones (an int64 near its ends for 16x8). */
  readonly biasValue?: bigint;
}

export interface Int8LstmModel {
  readonly bytes: Uint8Array;
  /** The dequantized weights, per gate (input, forget, cell, output): W [units x in], R [units x units], b. */
  readonly W: number[][];
  readonly R: number[][];
  readonly B: number[][];
}

function quantizeSymmetric(values: number[]): { q: number[]; scale: number } {
  const scale = Math.fround(Math.max(...values.map(Math.abs)) / 127);
  return { q: values.map((v) => Math.max(-127, Math.min(127, Math.round(v / scale)))), scale };
}

export function int8LstmModel(spec: Int8LstmSpec): Int8LstmModel {
  const { time, batch, inputSize, units } = spec;
  const w = new TfliteWriter();
  const seqShape = spec.timeMajor ? [time, batch] : [batch, time];
  const actQuant = { scale: [spec.inputScale], zeroPoint: [spec.inputZeroPoint] };
  const act = spec.activation ?? 'int8';
  const x = w.addInput({ name: 'x', shape: [...seqShape, inputSize], dtype: act, quant: actQuant });
  let seed = spec.seed;
  const W: number[][] = [];
  const R: number[][] = [];
  const B: number[][] = [];
  const weight = (shape: number[], amplitude: number, into: number[][]): { index: number; scale: number } => {
    const { q, scale } = quantizeSymmetric(floats(seed++, shape[0] * shape[1], amplitude));
    into.push(q.map((v) => v * scale));
    return { index: w.addConstant({ shape, dtype: 'int8', quant: { scale: [scale], zeroPoint: [0] }, data: q }), scale };
  };
  const gates = [0, 1, 2, 3];
  const wx = gates.map(() => weight([units, inputSize], 0.6, W));
  const wh = gates.map(() => weight([units, units], 0.5, R));
  const biases = gates.map((g) => {
    const scale = Math.fround(spec.inputScale * wx[g].scale);
    const q = floats(seed++, units, 0.3).map((v) => Math.round(v / scale));
    const data = spec.biasValue === undefined ? q : new Array<bigint>(units).fill(spec.biasValue);
    B.push(data.map((v) => Number(v) * scale));
    return w.addConstant({ shape: [units], dtype: act === 'int16' ? 'int64' : 'int32', quant: { scale: [scale], zeroPoint: [0] }, data });
  });
  const hidden = w.addTensor({ name: 'output_state', shape: [batch, units], dtype: act, quant: { scale: [spec.hiddenScale], zeroPoint: [spec.hiddenZeroPoint] }, isVariable: true });
  const cell = w.addTensor({ name: 'cell_state', shape: [batch, units], dtype: 'int16', quant: { scale: [spec.cellScale], zeroPoint: [0] }, isVariable: true });
  const y = w.addTensor({ name: 'y', shape: [...seqShape, units], dtype: act, quant: { scale: [spec.hiddenScale], zeroPoint: [spec.hiddenZeroPoint] } });
  w.addOperator({
    op: 'UNIDIRECTIONAL_SEQUENCE_LSTM',
    inputs: [x, ...wx.map((t) => t.index), ...wh.map((t) => t.index), -1, -1, -1, ...biases, -1, -1, hidden, cell, -1, -1, -1, -1],
    outputs: [y],
    options: tfliteOptions.unidirectionalSequenceLstm({ timeMajor: spec.timeMajor ?? false, cellClip: spec.cellClip ?? 0 }),
  });
  if (spec.classes === undefined) {
    w.markOutput(y);
    return { bytes: w.finish(), W, R, B };
  }
  // Keyword-spotter tail: the last step's hidden state -> FULLY_CONNECTED -> SOFTMAX (int8).
  const flat = w.addTensor({ name: 'flat', shape: [batch, time * units], dtype: 'int8', quant: { scale: [spec.hiddenScale], zeroPoint: [spec.hiddenZeroPoint] } });
  w.addOperator({ op: 'RESHAPE', inputs: [y], outputs: [flat], options: tfliteOptions.reshape([batch, time * units]) });
  const fc = quantizeSymmetric(floats(seed++, spec.classes * time * units, 0.5));
  const fcW = w.addConstant({ shape: [spec.classes, time * units], dtype: 'int8', quant: { scale: [fc.scale], zeroPoint: [0] }, data: fc.q });
  const fcBiasScale = Math.fround(spec.hiddenScale * fc.scale);
  const fcB = w.addConstant({ shape: [spec.classes], dtype: 'int32', quant: { scale: [fcBiasScale], zeroPoint: [0] }, data: floats(seed++, spec.classes, 0.2).map((v) => Math.round(v / fcBiasScale)) });
  const logits = w.addTensor({ name: 'logits', shape: [batch, spec.classes], dtype: 'int8', quant: { scale: [0.05], zeroPoint: [2] } });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [flat, fcW, fcB], outputs: [logits], options: tfliteOptions.fullyConnected() });
  const probs = w.addTensor({ name: 'probs', shape: [batch, spec.classes], dtype: 'int8', quant: { scale: [1 / 256], zeroPoint: [-128] } });
  w.addOperator({ op: 'SOFTMAX', inputs: [logits], outputs: [probs], options: tfliteOptions.softmax(1) });
  w.markOutput(probs);
  return { bytes: w.finish(), W, R, B };
}

export function int8LstmInput(spec: Int8LstmSpec, seed: number): Uint8Array {
  const f = floats(seed, spec.time * spec.batch * spec.inputSize, 1);
  if (spec.activation === 'int16') return new Uint8Array(Int16Array.from(f.map((v) => Math.round(v * 32767))).buffer);
  return new Uint8Array(Int8Array.from(f.map((v) => Math.max(-128, Math.min(127, Math.round(v * 127))))).buffer);
}

/** Shapes and quantizations the int8 LSTM tests cover. */
export const INT8_SPECS: [string, Int8LstmSpec][] = [
  ['batch-major, 2 rows', { time: 3, batch: 2, inputSize: 5, units: 4, seed: 110, inputScale: 1 / 127, inputZeroPoint: 0, hiddenScale: 1 / 128, hiddenZeroPoint: 0, cellScale: 2 ** -11 }],
  ['time-major, asymmetric hidden, cell clip', { time: 4, batch: 2, inputSize: 3, units: 6, timeMajor: true, cellClip: 1.5, seed: 120, inputScale: 1 / 127, inputZeroPoint: 0, hiddenScale: 0.009, hiddenZeroPoint: -5, cellScale: 2 ** -12 }],
  ['one row, cell scale 2^-15', { time: 5, batch: 1, inputSize: 7, units: 3, seed: 130, inputScale: 1 / 127, inputZeroPoint: 0, hiddenScale: 1 / 128, hiddenZeroPoint: 0, cellScale: 2 ** -15 }],
];
