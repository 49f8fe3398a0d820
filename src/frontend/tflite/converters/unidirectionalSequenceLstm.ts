/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM → unidirectional_sequence_lstm, the standard LSTM TFLite Micro
 * runs: all four gates (no CIFG), no peephole, projection or layer norm, tanh cell
 * activation; output and cell state (inputs 18, 19) are variable tensors.
 */
import { ACTIVATION_NAMES, BuiltinOptionsType, UnidirectionalSequenceLSTMOptions } from '../schema';
import { Converter, formatError, inputType, requiredOptions, unsupportedParameter } from './common';

/** TFLite input positions that become the call's arguments, in the op's argument order. */
const REQUIRED: readonly [number, string][] = [
  [0, 'input'],
  [1, 'input_to_input_weights'],
  [2, 'input_to_forget_weights'],
  [3, 'input_to_cell_weights'],
  [4, 'input_to_output_weights'],
  [5, 'recurrent_to_input_weights'],
  [6, 'recurrent_to_forget_weights'],
  [7, 'recurrent_to_cell_weights'],
  [8, 'recurrent_to_output_weights'],
  [12, 'input_gate_bias'],
  [13, 'forget_gate_bias'],
  [14, 'cell_gate_bias'],
  [15, 'output_gate_bias'],
  [18, 'output_state'],
  [19, 'cell_state'],
];

/** LSTM variants TFLite Micro rejects: the tensors that would enable them. */
const VARIANTS: readonly [number, string][] = [
  [9, 'peephole (cell_to_input_weights)'],
  [10, 'peephole (cell_to_forget_weights)'],
  [11, 'peephole (cell_to_output_weights)'],
  [16, 'projection (projection_weights)'],
  [17, 'projection (projection_bias)'],
  [20, 'layer norm (input_layer_norm_coefficients)'],
  [21, 'layer norm (forget_layer_norm_coefficients)'],
  [22, 'layer norm (cell_layer_norm_coefficients)'],
  [23, 'layer norm (output_layer_norm_coefficients)'],
];

export const unidirectionalSequenceLstm: Converter = (site) => {
  const opts = requiredOptions(site, BuiltinOptionsType.UnidirectionalSequenceLSTMOptions, UnidirectionalSequenceLSTMOptions);
  if (site.inputTypes.length < 20) formatError(site, `UNIDIRECTIONAL_SEQUENCE_LSTM needs 20 or 24 inputs, got ${site.inputTypes.length}`);
  for (const [position, what] of VARIANTS) {
    if (site.inputTypes[position]) unsupportedParameter(site, `LSTM variant ${what} at input ${position}`);
  }
  if (!site.inputTypes[1]) unsupportedParameter(site, 'LSTM variant CIFG (no input gate, input 1 omitted)');
  for (const [position, what] of REQUIRED) inputType(site, position, what);
  const activation = ACTIVATION_NAMES[opts.fusedActivation] ?? `${opts.fusedActivation}`;
  if (activation !== 'TANH') unsupportedParameter(site, `LSTM activation ${activation} (TFLite Micro uses TANH)`);
  if (opts.diagonalRecurrentTensors) unsupportedParameter(site, 'LSTM diagonal_recurrent_tensors');
  if (!(opts.cellClip >= 0)) formatError(site, `cell_clip must be >= 0, got ${opts.cellClip}`);
  return {
    op: 'unidirectional_sequence_lstm',
    attrs: { activation: 'TANH', cell_clip: opts.cellClip, time_major: opts.timeMajor },
    argPositions: REQUIRED.map(([p]) => p),
  };
};
