/**
 * strided_slice: a loop nest over the sliced extents (`sizes`); the output is viewed with
 * that shape (same row-major order as its declared one).
 */
import { add, bufferLoad, bufferStore, mul } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { numberList } from './attrs';
import { loopNest, reshapedView, staticShape } from './tirHelpers';

export const stridedSliceStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const x = input.args[0];
  const rank = staticShape(x).length;
  const begin = numberList(call, 'begin', rank);
  const strides = numberList(call, 'strides', rank);
  const sizes = numberList(call, 'sizes', rank);
  const out = reshapedView(input.out, sizes);
  return loopNest(sizes.map((_, d) => `i${d}`), sizes, (vars) =>
    bufferStore(out, bufferLoad(x, vars.map((v, d) => (strides[d] === 1 ? add(v, begin[d]) : add(mul(v, strides[d]), begin[d])))), vars),
  );
};
