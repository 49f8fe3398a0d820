/** batch_to_space_nd / space_to_batch_nd (4-d NHWC) as TFLite's reference kernels, in gather form. */
import { add, and, floatImm, floorDiv, floorMod, intImm, mul, sub } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { numberList } from './attrs';
import { gatherNest } from './indexMap';
import { quantOf } from './quantParams';
import { inRange, staticShape } from './tirHelpers';

export const batchToSpaceNdStrategy: OperatorStrategy = (input) => {
  const [bh, bw] = numberList(input.call, 'block_shape', 2);
  const [top, , left] = numberList(input.call, 'crops', 4);
  const outBatch = staticShape(input.out)[0];
  return gatherNest(input.args[0], input.out, ([n, h, w, c]) => {
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
  const [inN, inH, inW] = staticShape(input.args[0]);
  const dtype = call.type.dtype;
  const pad = dtype === 'float32' ? floatImm(0) : intImm(call.type.quant ? quantOf(call, call.type, 'output').zeroPoint : 0, dtype);
  return gatherNest(
    input.args[0],
    input.out,
    ([b, h, w, c]) => {
      const shift = floorDiv(b, inN);
      const y = sub(add(mul(h, bh), floorDiv(shift, bw)), top);
      const x = sub(add(mul(w, bw), floorMod(shift, bw)), left);
      return { indices: [floorMod(b, inN), y, x, c], inBounds: and(inRange(y, inH), inRange(x, inW)) };
    },
    pad,
  );
};
