/**
 * ARG_MAX, ARG_MIN → arg_max / arg_min. The axis input must be a constant scalar; the
 * output index type (int32 or int64) is the output tensor's.
 */
import { Converter, inputType, unsupportedParameter, requireDtype } from './common';
import { constantInts, resolveAxes } from './constants';

export const argMinMax =
  (op: 'arg_max' | 'arg_min'): Converter =>
  (site) => {
    const input = inputType(site, 0, 'input');
    requireDtype(site, input, ['float32', 'int8', 'int16'], 'input');
    const out = site.outputType.dtype;
    if (out !== 'int32' && out !== 'int64') unsupportedParameter(site, `output dtype ${out} (expected int32 or int64)`);
    const values = constantInts(site, 1, 'axis');
    if (values.length !== 1) unsupportedParameter(site, `axis with ${values.length} values (expected one)`);
    const [axis] = resolveAxes(site, values, input.shape.length, 'axis');
    return { op, attrs: { axis }, argPositions: [0] };
  };
