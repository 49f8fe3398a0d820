/**
 * SignalOverlapAdd → signal_overlap_add (int16 or float32, option T): stateful. Each row's
 * persistent frame_size buffer (zeros at first) is a variable [rows * frame_size] the importer
 * adds (`state`).
 */
import { DType, tensorElements } from '../../../../ir/graph/types';
import { TensorTypeCode } from '../../schema';
import { Converter, formatError, inputType, unsupportedParameter } from '../common';
import { input, output, requireCounts, signalOptions } from './common';

export const SIGNAL_OVERLAP_ADD_CODE = 'SignalOverlapAdd';

export const signalOverlapAdd: Converter = (site) => {
  requireCounts(site, 1, 1);
  const options = signalOptions(site, ['T', 'frame_step']);
  const t = options.int('T');
  const dtype: DType | undefined = t === TensorTypeCode.INT16 ? 'int16' : t === TensorTypeCode.FLOAT32 ? 'float32' : undefined;
  if (dtype === undefined) unsupportedParameter(site, `tensor type T = ${t} (TFLite Micro's SignalOverlapAdd takes int16 or float32)`);
  if (inputType(site, 0, 'input').shape.length < 2) formatError(site, 'input must have at least 2 dimensions ([..., frames, frame_size])');
  const x = input(site, 0, dtype, '>=1', 'input');
  const out = output(site, 0, dtype, '>=1', 'output');
  const step = options.int('frame_step');
  const [frames, size] = x.shape.slice(-2);
  if (step < 0 || step > size) unsupportedParameter(site, `frame_step ${step} (0 to the frame size ${size})`);
  const expected = [...x.shape.slice(0, -2), frames * step];
  if (out.shape.join() !== expected.join()) formatError(site, `output of shape [${out.shape}], expected [${expected}]`);
  const rows = frames * size === 0 ? 0 : tensorElements(x) / (frames * size);
  return {
    op: 'signal_overlap_add',
    attrs: { frame_step: step },
    argPositions: [0],
    state: { type: { shape: [Math.max(1, rows * size)], dtype }, suffix: 'overlap_add_state' },
  };
};
