/**
 * Constants of TFLite Micro's float LSTM (lstm_eval.cc: reference_ops::Logistic for the
 * sigmoid gates, std::tanh for the cell gate and the cell output), shared by the interpreter
 * kernel and the CPU lowering so both evaluate the same float expressions.
 */

/** reference_ops::Logistic: above this the sigmoid is 1. */
export const LOGISTIC_CUTOFF_UPPER = Math.fround(16.619047164916992);
/** reference_ops::Logistic: below this the sigmoid is exp(x). */
export const LOGISTIC_CUTOFF_LOWER = -9;

/** Gate order of the op's weight/bias arguments (TFLite's). */
export const LSTM_GATES = ['input', 'forget', 'cell', 'output'] as const;
export type LstmGate = (typeof LSTM_GATES)[number];

/** Argument indices of the graph op unidirectional_sequence_lstm. */
export const LSTM_ARG = {
  input: 0,
  inputWeights: { input: 1, forget: 2, cell: 3, output: 4 },
  recurrentWeights: { input: 5, forget: 6, cell: 7, output: 8 },
  bias: { input: 9, forget: 10, cell: 11, output: 12 },
  outputState: 13,
  cellState: 14,
} as const;

/** Sizes of one unidirectional_sequence_lstm call. */
export interface LstmShape {
  readonly timeMajor: boolean;
  readonly time: number;
  readonly batch: number;
  readonly inputSize: number;
  readonly units: number;
}

/** Flat offset of element (t, b, i) of an input/output of the op's layout with last dim `width`. */
export function lstmSequenceOffset(s: LstmShape, t: number, b: number, width: number): number {
  return (s.timeMajor ? t * s.batch + b : b * s.time + t) * width;
}
