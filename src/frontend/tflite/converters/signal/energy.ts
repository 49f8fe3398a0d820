/** SignalEnergy → signal_energy: uint32 re^2 + im^2 of the complex bins [start_index, end_index). */
import { Converter, formatError } from '../common';
import { input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_ENERGY_CODE = 'SignalEnergy';

export const signalEnergy: Converter = (site) => {
  requireCounts(site, 1, 1);
  const x = input(site, 0, 'int16', 1, 'input');
  const out = output(site, 0, 'uint32', 1, 'output');
  const options = signalOptions(site, ['end_index', 'start_index']);
  const start = options.int('start_index');
  const end = options.int('end_index');
  if (x.shape[0] % 2 !== 0 || out.shape[0] !== x.shape[0] / 2) formatError(site, `input of ${x.shape[0]} int16 and output of ${out.shape[0]}: expected complex (re, im) pairs, one output per pair`);
  if (start < 0 || end < start || end > out.shape[0]) formatError(site, `bins [${start}, ${end}) outside the ${out.shape[0]} of the input`);
  return { op: 'signal_energy', attrs: { start_index: start, end_index: end }, argPositions: [0] };
};
