/**
 * dynamic_update_slice → the operand copied into the output, then one loop nest over the update
 * writing at the start indices, read at run time and clamped (int64 indices in 64 bits, as
 * TFLite Micro clamps them before narrowing) into [0, operand dim - update dim].
 */
import { add, bufferLoad, bufferStore, cast, intImm, seq } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { clamp, elementCount, loopNest, reshapedView, staticShape } from './tirHelpers';

export const dynamicUpdateSliceStrategy: OperatorStrategy = (input) => {
  const [operand, update, indices] = input.args;
  const n = elementCount(operand);
  const copy = loopNest(['i'], [n], ([i]) => bufferStore(reshapedView(input.out, [n]), bufferLoad(reshapedView(operand, [n]), [i]), [i]));
  const shape = staticShape(operand);
  const ushape = staticShape(update);
  // A scalar operand is a one-element update of a one-element tensor.
  if (shape.length === 0) return seq([copy, bufferStore(reshapedView(input.out, [1]), bufferLoad(reshapedView(update, [1]), [0]), [0])]);
  const wide = indices.dtype === 'int64' ? 'int64' : 'int32';
  const start = (d: number): Expr => cast('int32', clamp(bufferLoad(indices, [intImm(d)]), intImm(0, wide), intImm(shape[d] - ushape[d], wide)));
  const names = shape.map((_, d) => `u${d}`);
  const place = loopNest(names, ushape, (u) => bufferStore(input.out, bufferLoad(update, u), u.map((v, d) => add(start(d), v))));
  return seq([copy, place]);
};
