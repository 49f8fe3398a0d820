/**
 * SignalStacker → signal_stacker (one packed call: the stacked frame, then output_valid) and
 * its two outputs sliced / flagged out of it. Stateful: TFLite Micro's circular buffer and its
 * first-frame flag are a variable int32 queue the importer adds (`state`: available, first
 * frame seen, samples; zero at first).
 */
import { ConvertedOperator, Converter, formatError, unsupportedParameter } from '../common';
import { sliceCall } from '../dataMovement';
import { input, output, requireCounts, signalOptions } from './common';
import { stackerStateLength } from '../../../../arith/signal';

export const SIGNAL_STACKER_CODE = 'SignalStacker';

const KEYS = ['num_channels', 'stacker_left_context', 'stacker_right_context', 'stacker_step'];

export const signalStacker: Converter = (site) => {
  requireCounts(site, 1, 2);
  const x = input(site, 0, 'int16', 1, 'input');
  const out = output(site, 0, 'int16', 1, 'output');
  output(site, 1, 'bool', 0, 'output_valid');
  const o = signalOptions(site, KEYS);
  const [channels, left, right, step] = KEYS.map((k) => o.int(k));
  if (channels < 1 || left < 0 || right < 0) unsupportedParameter(site, `num_channels ${channels}, contexts ${left} and ${right}`);
  // TFLM's circular buffer overflows (an assert) with a step of 0 or one beyond the stacked frames.
  if (step < 1 || step > left + right + 1) unsupportedParameter(site, `stacker_step ${step} (1 to left + right + 1 = ${left + right + 1})`);
  const size = channels * (left + right + 1);
  if (x.shape[0] !== channels) formatError(site, `input of ${x.shape[0]} values, expected num_channels = ${channels}`);
  if (out.shape[0] !== size) formatError(site, `output of ${out.shape[0]} values, expected num_channels * (left + right + 1) = ${size}`);
  const flag: ConvertedOperator = { op: 'signal_flag', attrs: { index: size }, argPositions: [] };
  return {
    op: 'signal_stacker',
    attrs: { num_channels: channels, stacker_left_context: left, stacker_right_context: right, stacker_step: step },
    argPositions: [0],
    state: { type: { shape: [stackerStateLength(channels, left, right)], dtype: 'int32' }, suffix: 'stacker_state' },
    packed: { type: { shape: [size + 1], dtype: 'int16' } },
    perOutput: [sliceCall([0], [1], [size]), flag],
  };
};
