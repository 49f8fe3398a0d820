/** batch_to_space_nd / space_to_batch_nd (4-d NHWC, 3-d NHC as NH1C) as TFLite's reference kernels, in gather form. */
import { add, and, floatImm, floorDiv, floorMod, intImm, mul, sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { numberList } from './attrs';
import { gatherNest } from './indexMap';
import { quantOf } from './quantParams';
import { inRange, reshapedView, staticShape } from './tirHelpers';
import { Buffer } from '../../ir/tir/nodes';

/** TFLite's batch/space kernels take NHC as NH1C. */
function nhwc(b: Buffer): Buffer {
  const s = staticShape(b);
  return s.length === 3 ? reshapedView(b, [s[0], s[1], 1, s[2]]) : b;
}

export const batchToSpaceNdStrategy: OperatorStrategy = (input) => {
  const [bh, bw] = numberList(input.call, 'block_shape', 2);
  const [top, , left] = numberList(input.call, 'crops', 4);
  const outBatch = staticShape(input.out)[0];
  return gatherNest(nhwc(input.args[0]), nhwc(input.out), ([n, h, w, c]) => {
    const y = add(h, top);
    const x = add(w, left);
    const offset = add(mul(floorMod(y, bh), bw), floorMod(x, bw));
    return { indices: [add(mul(offset, outBatch), n), floorDiv(y, bh), floorDiv(x, bw), c] };
  });
};

export const spaceToBatchNdStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const [bh, bw] = numberList(call, 'block_shape', 2);
  const [top, , left] = numberList(call, 'paddings', 4);
  const x = nhwc(input.args[0]);
  const [inN, inH, inW] = staticShape(x);
  const dtype = call.type.dtype;
  const pad = dtype === 'float32' ? floatImm(0) : intImm(call.type.quant ? quantOf(call, call.type, 'output').zeroPoint : 0, dtype);
  return gatherNest(
    x,
    nhwc(input.out),
    ([b, h, w, c]) => {
      const shift = floorDiv(b, inN);
      const y = sub(add(mul(h, bh), floorDiv(shift, bw)), top);
      const x = sub(add(mul(w, bw), floorMod(shift, bw)), left);
      return { indices: [floorMod(b, inN), y, x, c], inBounds: and(inRange(y, inH), inRange(x, inW)) };
    },
    pad,
  );
};
