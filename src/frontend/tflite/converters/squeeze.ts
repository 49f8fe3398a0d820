/**
 * SQUEEZE and EXPAND_DIMS → reshape: both only relabel the shape (the output type carries
 * it), so the axes parameter is dropped like RESHAPE's shape input.
 */
import { Converter, inputType } from './common';

export const squeezeOrExpandDims: Converter = (site) => {
  inputType(site, 0, 'input');
  return { op: 'reshape', attrs: {}, argPositions: [0] };
};
