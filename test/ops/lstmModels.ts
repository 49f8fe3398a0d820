/** Float UNIDIRECTIONAL_SEQUENCE_LSTM test models, written as .tflite with the TFLite writer. */
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';

export interface LstmModelSpec {
  readonly time: number;
  readonly batch: number;
  readonly inputSize: number;
  readonly units: number;
  readonly timeMajor?: boolean;
  readonly cellClip?: number;
  readonly seed: number;
  /** A dense layer + softmax after the last step's hidden state (a keyword-spotter tail). */
  readonly classes?: number;
}

export function floats(seed: number, n: number, amplitude: number): number[] {
  const r = seededRandom(seed);
  return Array.from({ length: n }, () => Math.fround((r() * 2 - 1) * amplitude));
}

/** The 24-input LSTM with variable output/cell state, optionally followed by FC + softmax. */
export function lstmModel(spec: LstmModelSpec): Uint8Array {
  const { time, batch, inputSize, units } = spec;
  const w = new TfliteWriter();
  const seqShape = spec.timeMajor ? [time, batch] : [batch, time];
  const x = w.addInput({ name: 'features', shape: [...seqShape, inputSize], dtype: 'float32' });
  let seed = spec.seed;
  const constant = (name: string, shape: number[], amplitude: number): number =>
    w.addConstant({ name, shape, dtype: 'float32', data: floats(seed++, shape.reduce((a, b) => a * b, 1), amplitude) });
  const gates = ['input', 'forget', 'cell', 'output'];
  const inputWeights = gates.map((g) => constant(`input_to_${g}`, [units, inputSize], 0.6));
  const recurrentWeights = gates.map((g) => constant(`recurrent_to_${g}`, [units, units], 0.5));
  const biases = gates.map((g) => constant(`${g}_bias`, [units], 0.3));
  const outputState = w.addTensor({ name: 'output_state', shape: [batch, units], dtype: 'float32', isVariable: true });
  const cellState = w.addTensor({ name: 'cell_state', shape: [batch, units], dtype: 'float32', isVariable: true });
  const y = w.addTensor({ name: 'lstm_out', shape: [...seqShape, units], dtype: 'float32' });
  w.addOperator({
    op: 'UNIDIRECTIONAL_SEQUENCE_LSTM',
    inputs: [x, ...inputWeights, ...recurrentWeights, -1, -1, -1, ...biases, -1, -1, outputState, cellState, -1, -1, -1, -1],
    outputs: [y],
    options: tfliteOptions.unidirectionalSequenceLstm({ timeMajor: spec.timeMajor ?? false, cellClip: spec.cellClip ?? 0 }),
  });
  if (spec.classes === undefined) {
    w.markOutput(y);
    return w.finish();
  }
  const flat = w.addTensor({ name: 'flat', shape: [batch, time * units], dtype: 'float32' });
  w.addOperator({ op: 'RESHAPE', inputs: [y], outputs: [flat], options: tfliteOptions.reshape([batch, time * units]) });
  const fcW = constant('fc_weights', [spec.classes, time * units], 0.4);
  const fcB = constant('fc_bias', [spec.classes], 0.1);
  const logits = w.addTensor({ name: 'logits', shape: [batch, spec.classes], dtype: 'float32' });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [flat, fcW, fcB], outputs: [logits], options: tfliteOptions.fullyConnected() });
  const probs = w.addTensor({ name: 'probs', shape: [batch, spec.classes], dtype: 'float32' });
  w.addOperator({ op: 'SOFTMAX', inputs: [logits], outputs: [probs], options: tfliteOptions.softmax(1) });
  w.markOutput(probs);
  return w.finish();
}

export function lstmInput(spec: LstmModelSpec, seed: number): Uint8Array {
  return new Uint8Array(Float32Array.from(floats(seed, spec.time * spec.batch * spec.inputSize, 2)).buffer);
}
