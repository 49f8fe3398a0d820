/**
 * SignalFramer → signal_framer (one packed call: the frames, then output_valid), its outputs
 * sliced / flagged out of it. Stateful: each row's circular buffer (capacity frame_size rounded
 * up to frame_step; with `prefill`, frame_size - frame_step zeros at first) is a variable int32
 * queue the importer adds (`state`: per row the samples available, then the samples).
 */
import { framerCapacity } from '../../../../arith/signal';
import { tensorElements } from '../../../../ir/graph/types';
import { ConvertedOperator, Converter, formatError, unsupportedParameter } from '../common';
import { sliceCall } from '../dataMovement';
import { input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_FRAMER_CODE = 'SignalFramer';

export const signalFramer: Converter = (site) => {
  requireCounts(site, 1, 2);
  const x = input(site, 0, 'int16', '>=1', 'input');
  const out = output(site, 0, 'int16', '>=1', 'output');
  output(site, 1, 'bool', 0, 'output_valid');
  const o = signalOptions(site, ['frame_size', 'frame_step', 'prefill']);
  const size = o.int('frame_size');
  const step = o.int('frame_step');
  const prefill = o.bool('prefill');
  if (size < 1 || step < 1) unsupportedParameter(site, `frame_size ${size}, frame_step ${step}`);
  // TFLM prefills frame_size - frame_step zeros: a negative count is its circular buffer's assert.
  if (prefill && size < step) unsupportedParameter(site, `prefill with frame_size ${size} below frame_step ${step}`);
  const last = x.shape[x.shape.length - 1];
  if (last < step || last % step !== 0) formatError(site, `rows of ${last} samples, expected a positive multiple of frame_step ${step}`);
  const frames = last / step;
  const expected = [...x.shape.slice(0, -1), frames, size];
  if (out.shape.join() !== expected.join()) formatError(site, `output of shape [${out.shape}], expected [${expected}]`);
  const rows = tensorElements(x) / last;
  const capacity = framerCapacity(size, step);
  const initial = new Int32Array(rows * (capacity + 1));
  if (prefill) for (let r = 0; r < rows; r++) initial[r * (capacity + 1)] = size - step;
  const n = tensorElements(out);
  const flag: ConvertedOperator = { op: 'signal_flag', attrs: { index: n }, argPositions: [] };
  return {
    op: 'signal_framer',
    attrs: { frame_size: size, frame_step: step },
    argPositions: [0],
    state: { type: { shape: [rows * (capacity + 1)], dtype: 'int32' }, suffix: 'framer_state', initial: new Uint8Array(initial.buffer) },
    packed: { type: { shape: [n + 1], dtype: 'int16' } },
    perOutput: [sliceCall([0], [1], [n]), flag],
  };
};
