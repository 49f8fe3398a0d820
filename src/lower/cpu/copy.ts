/** copy: an element-by-element copy loop (same shape and dtype in and out). */
import { bufferLoad, bufferStore } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { elementCount, loopNest, reshapedView } from './tirHelpers';

export const copyStrategy: OperatorStrategy = (input) => {
  const n = elementCount(input.out);
  const src = input.args[0];
  if (elementCount(src) !== n || src.dtype !== input.out.dtype) {
    loweringFail(input.call, `copy changes the tensor (${src.dtype}[${elementCount(src)}] -> ${input.out.dtype}[${n}])`);
  }
  const x = reshapedView(src, [n]);
  const y = reshapedView(input.out, [n]);
  return loopNest(['i'], [n], ([i]) => bufferStore(y, bufferLoad(x, [i]), [i]));
};
