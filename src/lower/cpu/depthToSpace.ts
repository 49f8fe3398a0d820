/** depth_to_space / space_to_depth (NHWC) as TFLite's reference kernels, in gather form. */
import { add, floorDiv, floorMod, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail, numberAttr } from './attrs';
import { gatherNest } from './indexMap';
import { staticShape } from './tirHelpers';

function blockSize(input: Parameters<OperatorStrategy>[0]): number {
  const b = numberAttr(input.call, 'block_size');
  if (!Number.isInteger(b) || b < 1) loweringFail(input.call, `block_size must be a positive integer, got ${b}`);
  return b;
}

export const depthToSpaceStrategy: OperatorStrategy = (input) => {
  const b = blockSize(input);
  const outC = staticShape(input.out)[3];
  return gatherNest(input.args[0], input.out, ([n, h, w, c]) => ({
    indices: [n, floorDiv(h, b), floorDiv(w, b), add(c, mul(add(mul(floorMod(h, b), b), floorMod(w, b)), outC))],
  }));
};

export const spaceToDepthStrategy: OperatorStrategy = (input) => {
  const b = blockSize(input);
  const inC = staticShape(input.args[0])[3];
  return gatherNest(input.args[0], input.out, ([n, h, w, d]) => {
    const k = floorDiv(d, inC);
    return { indices: [n, add(mul(h, b), floorDiv(k, b)), add(mul(w, b), floorMod(k, b)), floorMod(d, inC)] };
  });
};
