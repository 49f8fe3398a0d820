/** GATHER_ND → gather_nd (int32 indices read at run time). */
import { Converter, formatError, inputType, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';

export const gatherNd: Converter = (site) => {
  const params = inputType(site, 0, 'params');
  const indices = inputType(site, 1, 'indices');
  requireDtype(site, params, ['float32', 'int8'], 'params');
  requireDtype(site, indices, ['int32'], 'indices');
  if (params.shape.length < 1 || indices.shape.length < 1) formatError(site, 'params and indices must be at least 1-d');
  const nd = indices.shape[indices.shape.length - 1];
  if (nd > params.shape.length) formatError(site, `the indices' last axis (${nd}) exceeds the params rank ${params.shape.length}`);
  if (nd > 5) unsupportedParameter(site, `index depth ${nd} (at most 5)`);
  // Constant indices outside params fail every invoke of TFLite Micro, and the generated C
  // clamps them: refused here, as GATHER's are (fuzzed: only `run` failed, naming nothing).
  if (site.constantInput(1) !== null) {
    const flat = constantInts(site, 1, 'indices');
    for (let k = 0; k < flat.length; k++) {
      const axis = k % nd;
      if (flat[k] < 0 || flat[k] >= params.shape[axis]) {
        formatError(site, `constant index ${flat[k]} is outside [0, ${params.shape[axis]}) on params axis ${axis} (TFLite Micro fails every invoke)`);
      }
    }
  }
  return { op: 'gather_nd', attrs: {}, argPositions: [0, 1] };
};
