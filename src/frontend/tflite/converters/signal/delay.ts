/**
 * SignalDelay → signal_delay: stateful. TFLite Micro's per-row circular buffers (frame +
 * delay_length samples, delay_length zeros at first) are, between invocations, each row's last
 * delay_length samples: a variable int16 [rows * delay_length] the importer adds (`state`).
 */
import { tensorElements } from '../../../../ir/graph/types';
import { Converter, formatError, unsupportedParameter } from '../common';
import { input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_DELAY_CODE = 'SignalDelay';

export const signalDelay: Converter = (site) => {
  requireCounts(site, 1, 1);
  const x = input(site, 0, 'int16', '>=1', 'input');
  const out = output(site, 0, 'int16', '>=1', 'output');
  if (out.shape.join() !== x.shape.join()) formatError(site, `output of shape [${out.shape}], expected the input's [${x.shape}]`);
  const length = signalOptions(site, ['delay_length']).int('delay_length');
  if (length < 0) unsupportedParameter(site, `delay_length ${length}`);
  const frame = x.shape[x.shape.length - 1];
  const rows = frame === 0 ? 0 : tensorElements(x) / frame;
  return {
    op: 'signal_delay',
    attrs: { delay_length: length },
    argPositions: [0],
    state: { type: { shape: [Math.max(1, rows * length)], dtype: 'int16' }, suffix: 'delay_state' },
  };
};
