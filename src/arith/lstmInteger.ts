/**
 * TFLite Micro's integer LSTM (lstm_eval.h with int8 activations and weights, int16 cell
 * state and gates, int32 bias; CreateGateParams / CreateInterGateMulParams / cell state
 * info of unidirectional_sequence_lstm.cc): the prepare-time parameters, packed into one
 * int32 table, and the step loop over that table. The interpreter kernel and the
 * evaluator twin of the C runtime kernel `uma_ref_lstm_int8` both run `runLstmInteger`.
 */
import { multiplyByQuantizedMultiplier, quantizeMultiplier } from './fixedpoint';
import { TensorType } from '../ir/graph/types';
import { LSTM_ARG, LSTM_GATES, LstmGate } from './lstm';

const f32 = Math.fround;

/**
 * TFLite's `sigmoid_table_uint16`: sigmoid(i / 24) in unsigned Q0.16 (its own rounding, the
 * last entry saturated), shared by the int16 logistic and tanh. Data, so it is listed.
 */
export const SIGMOID_TABLE_UINT16: readonly number[] = [
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
  40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
  47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
  53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
  57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
  60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
  62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
  63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
  64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
  64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
  65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
  65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
  65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
  65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
  65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
  65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
  65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
  65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
  65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
  65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
  65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
  65534, 65534, 65534, 65535,
];

/** reference_integer_ops::Logistic (int16 in, int16 Q0.15 out). */
export function logisticInt16(x: number, inputMultiplier: number, inputLeftShift: number): number {
  let multiplier = inputMultiplier;
  let shift = inputLeftShift;
  if (multiplier === 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  const input = (x * multiplier + round) >> shift;
  const abs = Math.abs(input);
  const uh = abs >>> 9;
  let result: number;
  if (uh >= 255) result = 0x7fff << 10;
  else {
    const ua = SIGMOID_TABLE_UINT16[uh];
    const ub = SIGMOID_TABLE_UINT16[uh + 1];
    result = ua * 512 + (abs & 0x1ff) * (ub - ua);
  }
  result = input >= 0 ? result + 512 : (1 << 25) - result + 512 - 1;
  return (result >>> 10) << 16 >> 16;
}

/** reference_integer_ops::Tanh (int16 in, int16 Q0.15 out). */
export function tanhInt16(x: number, inputMultiplier: number, inputLeftShift: number): number {
  let multiplier = inputMultiplier;
  let shift = inputLeftShift;
  if (multiplier === 0) {
    multiplier = 3 << shift;
    shift = 0;
  }
  const round = shift > 0 ? 1 << (shift - 1) : 0;
  const input = (x * multiplier + round) >> shift;
  const abs = Math.abs(input);
  const uh = abs >>> 8;
  let result: number;
  if (uh >= 255) result = 0xffff << 8;
  else {
    const ua = SIGMOID_TABLE_UINT16[uh];
    const ub = SIGMOID_TABLE_UINT16[uh + 1];
    result = ((ua << 8) + (abs & 0xff) * (ub - ua)) | 0;
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return (result >> 8) << 16 >> 16;
}

/** Quantization of the tensors an integer LSTM's parameters come from. */
export interface LstmIntegerQuant {
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
  size: 32,
} as const;

/**
 * TFLite CheckedLog2's rounded log2 of the cell state scale. TFLite Micro ignores whether the
 * scale really is a power of two, and so does this.
 */
export function cellScalePower(scale: number): number {
  return Math.round(Math.log2(f32(scale)));
}

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
  return p;
}

/** Tensor data of one integer LSTM invocation; states are updated in place. */
export interface LstmIntegerData {
  readonly input: ArrayLike<number>;
  /** Per gate (INTEGER_GATE_ORDER): input and recurrent weights [units, in] / [units, units], bias [units]. */
  readonly inputWeights: readonly ArrayLike<number>[];
  readonly recurrentWeights: readonly ArrayLike<number>[];
  readonly biases: readonly ArrayLike<number>[];
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
        const bias = d.biases[k];
        for (let u = 0; u < units; u++) {
          let acc = 0;
          for (let i = 0; i < n; i++) acc = (acc + wx[u * n + i] * (d.input[xo + i] + inOffset)) | 0;
          acc = (acc + bias[u]) | 0;
          const fromInput = sat16(multiplyByQuantizedMultiplier(acc, p[base], p[base + 1]));
          let rec = 0;
          for (let k2 = 0; k2 < units; k2++) rec = (rec + wh[u * units + k2] * (d.hidden[ho + k2] - hiddenZp)) | 0;
          const fromHidden = sat16(multiplyByQuantizedMultiplier(rec, p[base + 2], p[base + 3]));
          const pre = sat16(fromInput + fromHidden);
          gates[k][u] = g === 'cell' ? tanhInt16(pre, 0, 0) : logisticInt16(pre, 0, 0);
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
      for (let u = 0; u < units; u++) {
        const tc = tanhInt16(d.cell[ho + u], p[LSTM_PARAM.tanhMultiplier], p[LSTM_PARAM.tanhShift]);
        const h = mulElementwise(tc, outputGate[u], LSTM_PARAM.outputMul, hiddenZp, -128, 127);
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
  if (input.dtype !== 'int8' || hidden.dtype !== 'int8') return `int8 input and output state expected, got ${input.dtype} / ${hidden.dtype}`;
  if (cell.dtype !== 'int16') return `cell state dtype ${cell.dtype} (TFLite Micro's integer LSTM keeps an int16 cell state)`;
  for (const g of LSTM_GATES) {
    for (const i of [LSTM_ARG.inputWeights[g], LSTM_ARG.recurrentWeights[g]]) {
      if (argTypes[i].dtype !== 'int8') return `weight dtype ${argTypes[i].dtype} (int8 expected)`;
      if ((argTypes[i].quant?.scale.length ?? 0) !== 1) return 'per-channel LSTM weights (TFLite Micro uses one scale per weight tensor)';
    }
    if (argTypes[LSTM_ARG.bias[g]].dtype !== 'int32') return `bias dtype ${argTypes[LSTM_ARG.bias[g]].dtype} (int32 expected)`;
  }
  const scale = (t: TensorType, what: string): number | string => t.quant?.scale[0] ?? `${what} has no quantization`;
  const zp = (t: TensorType): number => t.quant?.zeroPoint[0] ?? 0;
  const values = [scale(input, 'input'), scale(hidden, 'output state'), scale(cell, 'cell state')];
  const bad = values.find((v) => typeof v === 'string');
  if (bad !== undefined) return bad as string;
  const weightScales = (which: 'inputWeights' | 'recurrentWeights'): Record<LstmGate, number> =>
    Object.fromEntries(LSTM_GATES.map((g) => [g, argTypes[LSTM_ARG[which][g]].quant!.scale[0]])) as Record<LstmGate, number>;
  return {
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
