/** reshape: an elementwise copy in row-major order (the data do not move, only the shape). */
import { bufferLoad, bufferStore } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { elementCount, loopNest, reshapedView } from './tirHelpers';

export const reshapeStrategy: OperatorStrategy = (input) => {
  const n = elementCount(input.out);
  if (elementCount(input.args[0]) !== n) loweringFail(input.call, `reshape changes the element count (${elementCount(input.args[0])} -> ${n})`);
  const x = reshapedView(input.args[0], [n]);
  const y = reshapedView(input.out, [n]);
  return loopNest(['i'], [n], ([i]) => bufferStore(y, bufferLoad(x, [i]), [i]));
};
