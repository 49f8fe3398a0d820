/** RESHAPE → reshape. */
import { Converter, inputType } from './common';

// The optional second input of RESHAPE (the shape tensor) is dropped: the output type
// already carries the new shape.
export const reshape: Converter = (site) => {
  inputType(site, 0, 'input');
  return { op: 'reshape', attrs: {}, argPositions: [0] };
};
