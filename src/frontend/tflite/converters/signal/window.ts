/** SignalWindow → signal_window: int16 input times int16 weights over runs of its length, >> shift. */
import { tensorElements } from '../../../../ir/graph/types';
import { Converter, formatError } from '../common';
import { input, output, requireCounts, requireShift, signalOptions } from './common';

export const SIGNAL_WINDOW_CODE = 'SignalWindow';

export const signalWindow: Converter = (site) => {
  requireCounts(site, 2, 1);
  const x = input(site, 0, 'int16', '>=1', 'input');
  const weights = input(site, 1, 'int16', 1, 'weights');
  const out = output(site, 0, 'int16', '>=1', 'output');
  if (out.shape.join() !== x.shape.join()) formatError(site, `output of shape [${out.shape}], expected the input's [${x.shape}]`);
  if (weights.shape[0] === 0 || tensorElements(x) % weights.shape[0] !== 0) {
    formatError(site, `input of ${tensorElements(x)} samples is not whole runs of the ${weights.shape[0]} weights`);
  }
  const shift = requireShift(site, 'shift', signalOptions(site, ['shift']).int('shift'), 31);
  return { op: 'signal_window', attrs: { shift }, argPositions: [0, 1] };
};
