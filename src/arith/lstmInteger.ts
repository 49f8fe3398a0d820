/**
 * TFLite Micro's integer LSTM (lstm_eval.h; int8 activations and weights with int32 bias, or
 * 16x8: int16 activations, int8 weights, int64 bias; int16 cell state and gates either way;
 * CreateGateParams / CreateInterGateMulParams / cell state info of
 * unidirectional_sequence_lstm.cc): the prepare-time parameters, packed into one int32
 * table, and the step loop over that table. The interpreter kernel and the
 * evaluator twins of the C runtime kernels `uma_ref_lstm_int8` / `uma_ref_lstm_int16` run
 * `runLstmInteger`.
 */
import { multiplyByQuantizedMultiplier, multiplyByQuantizedMultiplier64, quantizeMultiplier } from './fixedpoint';
import { Int64BiasRequantize, int64BiasRequantize } from './int64Bias';
import { checkedLog2, logisticInt16, SigmoidInt16Params, tanhInt16 } from './sigmoidInt16';
import { TensorType } from '../ir/graph/types';
import { LSTM_ARG, LSTM_GATES, LstmGate } from './lstm';

const f32 = Math.fround;

/** Quantization of the tensors an integer LSTM's parameters come from. */
export interface LstmIntegerQuant {
  /** Activation (input, states, output) type: int8 with int32 bias, int16 with int64 bias. */
  readonly activation: 'int8' | 'int16';
  readonly inputScale: number;
  readonly inputZeroPoint: number;
  /** Output (= hidden) state. */
  readonly hiddenScale: number;
  readonly hiddenZeroPoint: number;
  readonly cellScale: number;
  /** Per gate: input-to-gate and recurrent-to-gate weight scales (per tensor). */
  readonly inputWeightScale: Readonly<Record<LstmGate, number>>;
  readonly recurrentWeightScale: Readonly<Record<LstmGate, number>>;
  readonly cellClip: number;
}

/** Gate order of TFLite Micro's step and of the packed table. */
export const INTEGER_GATE_ORDER: readonly LstmGate[] = ['forget', 'input', 'cell', 'output'];

/** Indices into the packed int32 parameter table (`uma_ref_lstm_int8` reads the same). */
export const LSTM_PARAM = {
  time: 0,
  batch: 1,
  inputSize: 2,
  units: 3,
  timeMajor: 4,
  inputZeroPoint: 5,
  hiddenZeroPoint: 6,
  /** 4 gates (INTEGER_GATE_ORDER) x [input mult, input shift, recurrent mult, recurrent shift]. */
  gates: 7,
  forgetCellMul: 23,
  inputMul: 25,
  outputMul: 27,
  /** Quantized cell clip; -1 = no clipping. */
  cellClip: 29,
  tanhMultiplier: 30,
  tanhShift: 31,
  /** 8 or 16: activation bits (16 = int64 accumulators, 64-bit requantize). */
  activationBits: 32,
  size: 33,
} as const;

/**
 * TFLite CheckedLog2's rounded log2 of the cell state scale. TFLite Micro ignores whether the
 * scale really is a power of two, and so does this.
 */
export function cellScalePower(scale: number): number {
  return checkedLog2(scale).log2;
}

/** The gates' activations take Q3.12 inputs: the table's power-of-two form without shift. */
const GATE_ACTIVATION: SigmoidInt16Params = { inputMultiplier: 0, inputLeftShift: 0 };

/** Prepare-time parameters of an integer LSTM, packed as `LSTM_PARAM` lays them out. */
export function lstmIntegerParams(
  q: LstmIntegerQuant,
  shape: { time: number; batch: number; inputSize: number; units: number; timeMajor: boolean },
): Int32Array {
  const cellPower = cellScalePower(q.cellScale);
  const p = new Int32Array(LSTM_PARAM.size);
  p[LSTM_PARAM.time] = shape.time;
  p[LSTM_PARAM.batch] = shape.batch;
  p[LSTM_PARAM.inputSize] = shape.inputSize;
  p[LSTM_PARAM.units] = shape.units;
  p[LSTM_PARAM.timeMajor] = shape.timeMajor ? 1 : 0;
  p[LSTM_PARAM.inputZeroPoint] = q.inputZeroPoint;
  p[LSTM_PARAM.hiddenZeroPoint] = q.hiddenZeroPoint;
  // Gate FCs produce Q3.12 (2^-12) gate inputs; the scale product is formed in float.
  const nonlinearInputScale = 2 ** -12;
  const fc = (inScale: number, wScale: number): [number, number] => {
    const m = quantizeMultiplier(f32(f32(inScale) * f32(wScale)) / nonlinearInputScale);
    return [m.multiplier, m.shift];
  };
  INTEGER_GATE_ORDER.forEach((g, k) => {
    const base = LSTM_PARAM.gates + 4 * k;
    [p[base], p[base + 1]] = fc(q.inputScale, q.inputWeightScale[g]);
    [p[base + 2], p[base + 3]] = fc(q.hiddenScale, q.recurrentWeightScale[g]);
  });
  // Gate outputs are Q0.15 (2^-15).
  const nonlinearOutputScale = 2 ** -15;
  const mul = (a: number, b: number, out: number): [number, number] => {
    const m = quantizeMultiplier(f32(f32(a) * f32(b)) / f32(out));
    return [m.multiplier, m.shift];
  };
  [p[LSTM_PARAM.forgetCellMul], p[LSTM_PARAM.forgetCellMul + 1]] = mul(nonlinearOutputScale, q.cellScale, q.cellScale);
  [p[LSTM_PARAM.inputMul], p[LSTM_PARAM.inputMul + 1]] = mul(nonlinearOutputScale, nonlinearOutputScale, q.cellScale);
  [p[LSTM_PARAM.outputMul], p[LSTM_PARAM.outputMul + 1]] = mul(nonlinearOutputScale, nonlinearOutputScale, q.hiddenScale);
  p[LSTM_PARAM.cellClip] = -1;
  if (q.cellClip > 0) {
    p[LSTM_PARAM.cellClip] = Math.trunc(Math.min(Math.max(f32(q.cellClip) / f32(q.cellScale), -32768), 32767));
  }
  // lstm_internal::Tanh(cell_state_scale_power, ...): left shift (15 + power) - 3, a negative
  // one becomes a right shift with multiplier 3.
  let tanhShift = 15 + cellPower - 3;
  let tanhMultiplier = 0;
  if (tanhShift < 0) {
    tanhShift = -tanhShift;
    tanhMultiplier = 3;
  }
  p[LSTM_PARAM.tanhMultiplier] = tanhMultiplier;
  p[LSTM_PARAM.tanhShift] = tanhShift;
  p[LSTM_PARAM.activationBits] = q.activation === 'int16' ? 16 : 8;
  return p;
}

/** Tensor data of one integer LSTM invocation; states are updated in place. */
export interface LstmIntegerData {
  readonly input: ArrayLike<number>;
  /** Per gate (INTEGER_GATE_ORDER): input and recurrent weights [units, in] / [units, units], bias [units] (int32, or int64 for 16x8). */
  readonly inputWeights: readonly ArrayLike<number>[];
  readonly recurrentWeights: readonly ArrayLike<number>[];
  readonly biases: readonly (ArrayLike<number> | BigInt64Array)[];
  readonly hidden: { [i: number]: number; readonly length: number };
  readonly cell: { [i: number]: number; readonly length: number };
  readonly output: { [i: number]: number };
}

const sat16 = (v: number): number => Math.min(Math.max(v, -32768), 32767);

/** The time/batch loop of TFLite Micro's integer LSTM over the packed parameters. */
export function runLstmInteger(p: ArrayLike<number>, d: LstmIntegerData): void {
  const time = p[LSTM_PARAM.time];
  const batch = p[LSTM_PARAM.batch];
  const n = p[LSTM_PARAM.inputSize];
  const units = p[LSTM_PARAM.units];
  const timeMajor = p[LSTM_PARAM.timeMajor] !== 0;
  const inOffset = -p[LSTM_PARAM.inputZeroPoint];
  const hiddenZp = p[LSTM_PARAM.hiddenZeroPoint];
  const wide = p[LSTM_PARAM.activationBits] === 16;
  // int8: int32 accumulators (wrapping) and the 32-bit requantize; int16: TFLite's int64
  // accumulators (the products exact in a double here, the int64 bias add wrapping modulo
  // 2^64 on bigints: int64Bias.ts) and the 64-bit requantize.
  const accumulate = wide ? (acc: number, v: number): number => acc + v : (acc: number, v: number): number => (acc + v) | 0;
  const requantize = wide ? multiplyByQuantizedMultiplier64 : multiplyByQuantizedMultiplier;
  const withBias = d.biases.map((bias): Int64BiasRequantize => {
    if (wide) return int64BiasRequantize(bias);
    const b = bias as ArrayLike<number>;
    return (acc, u, multiplier, shift) => multiplyByQuantizedMultiplier((acc + b[u]) | 0, multiplier, shift);
  });
  const [hiddenMin, hiddenMax] = wide ? [-32768, 32767] : [-128, 127];
  const gates = INTEGER_GATE_ORDER.map(() => new Int16Array(units));
  const seqOffset = (t: number, row: number, width: number): number => (timeMajor ? t * batch + row : row * time + t) * width;
  const mulElementwise = (a: number, b: number, at: number, zp: number, lo: number, hi: number): number =>
    Math.min(hi, Math.max(lo, zp + multiplyByQuantizedMultiplier(Math.imul(a, b), p[at], p[at + 1])));
  for (let t = 0; t < time; t++)
    for (let row = 0; row < batch; row++) {
      const xo = seqOffset(t, row, n);
      const ho = row * units;
      INTEGER_GATE_ORDER.forEach((g, k) => {
        const base = LSTM_PARAM.gates + 4 * k;
        const wx = d.inputWeights[k];
        const wh = d.recurrentWeights[k];
        for (let u = 0; u < units; u++) {
          let acc = 0;
          for (let i = 0; i < n; i++) acc = accumulate(acc, wx[u * n + i] * (d.input[xo + i] + inOffset));
          const fromInput = sat16(withBias[k](acc, u, p[base], p[base + 1]));
          let rec = 0;
          for (let k2 = 0; k2 < units; k2++) rec = accumulate(rec, wh[u * units + k2] * (d.hidden[ho + k2] - hiddenZp));
          const fromHidden = sat16(requantize(rec, p[base + 2], p[base + 3]));
          const pre = sat16(fromInput + fromHidden);
          gates[k][u] = g === 'cell' ? tanhInt16(GATE_ACTIVATION, pre) : logisticInt16(GATE_ACTIVATION, pre);
        }
      });
      const [forget, inputGate, cellGate, outputGate] = gates;
      const clip = p[LSTM_PARAM.cellClip];
      for (let u = 0; u < units; u++) {
        const kept = mulElementwise(forget[u], d.cell[ho + u], LSTM_PARAM.forgetCellMul, 0, -32768, 32767);
        const added = mulElementwise(inputGate[u], cellGate[u], LSTM_PARAM.inputMul, 0, -32768, 32767);
        let c = sat16(kept + added);
        if (clip >= 0) c = Math.max(Math.min(clip, c), -clip);
        d.cell[ho + u] = c;
      }
      const cellTanh: SigmoidInt16Params = { inputMultiplier: p[LSTM_PARAM.tanhMultiplier], inputLeftShift: p[LSTM_PARAM.tanhShift] };
      for (let u = 0; u < units; u++) {
        const tc = tanhInt16(cellTanh, d.cell[ho + u]);
        const h = mulElementwise(tc, outputGate[u], LSTM_PARAM.outputMul, hiddenZp, hiddenMin, hiddenMax);
        d.hidden[ho + u] = h;
        d.output[seqOffset(t, row, units) + u] = h;
      }
    }
}

/** The argument types of an integer unidirectional_sequence_lstm call (op argument order). */
export function lstmIntegerQuant(argTypes: readonly TensorType[], cellClip: number): LstmIntegerQuant | string {
  const [input] = argTypes;
  const hidden = argTypes[LSTM_ARG.outputState];
  const cell = argTypes[LSTM_ARG.cellState];
  const activation = input.dtype;
  if ((activation !== 'int8' && activation !== 'int16') || hidden.dtype !== activation) {
    return `input / output state dtypes ${input.dtype} / ${hidden.dtype} (int8 or int16 expected, the same for both)`;
  }
  const biasDtype = activation === 'int8' ? 'int32' : 'int64';
  if (cell.dtype !== 'int16') return `cell state dtype ${cell.dtype} (TFLite Micro's integer LSTM keeps an int16 cell state)`;
  for (const g of LSTM_GATES) {
    for (const i of [LSTM_ARG.inputWeights[g], LSTM_ARG.recurrentWeights[g]]) {
      if (argTypes[i].dtype !== 'int8') return `weight dtype ${argTypes[i].dtype} (int8 expected)`;
      if ((argTypes[i].quant?.scale.length ?? 0) !== 1) return 'per-channel LSTM weights (TFLite Micro uses one scale per weight tensor)';
    }
    if (argTypes[LSTM_ARG.bias[g]].dtype !== biasDtype) return `bias dtype ${argTypes[LSTM_ARG.bias[g]].dtype} (${biasDtype} expected with ${activation} activations)`;
  }
  const scale = (t: TensorType, what: string): number | string => t.quant?.scale[0] ?? `${what} has no quantization`;
  const zp = (t: TensorType): number => t.quant?.zeroPoint[0] ?? 0;
  const values = [scale(input, 'input'), scale(hidden, 'output state'), scale(cell, 'cell state')];
  const bad = values.find((v) => typeof v === 'string');
  if (bad !== undefined) return bad as string;
  const weightScales = (which: 'inputWeights' | 'recurrentWeights'): Record<LstmGate, number> =>
    Object.fromEntries(LSTM_GATES.map((g) => [g, argTypes[LSTM_ARG[which][g]].quant!.scale[0]])) as Record<LstmGate, number>;
  return {
    activation,
    inputScale: values[0] as number,
    inputZeroPoint: zp(input),
    hiddenScale: values[1] as number,
    hiddenZeroPoint: zp(hidden),
    cellScale: values[2] as number,
    inputWeightScale: weightScales('inputWeights'),
    recurrentWeightScale: weightScales('recurrentWeights'),
    cellClip,
  };
}
