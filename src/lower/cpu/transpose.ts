/** transpose: a loop nest over the output reading the input at the permuted coordinate. */
import { bufferLoad, bufferStore } from '../../ir/tir/builder';
import { Var } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { numberList } from './attrs';
import { loopNest, staticShape } from './tirHelpers';

export const transposeStrategy: OperatorStrategy = (input) => {
  const { call, out } = input;
  const x = input.args[0];
  const perm = numberList(call, 'perm', staticShape(x).length);
  const outShape = staticShape(out);
  return loopNest(outShape.map((_, d) => `i${d}`), outShape, (vars) => {
    const index: Var[] = new Array<Var>(vars.length);
    perm.forEach((p, d) => (index[p] = vars[d]));
    return bufferStore(out, bufferLoad(x, index), vars);
  });
};
