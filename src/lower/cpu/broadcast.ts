/** NumPy/TFLite broadcasting in loop nests: the indices an operand is read at for an output position. */
import { CallNode } from '../../ir/graph/types';
import { intImm } from '../../ir/tir/builder';
import { Buffer, Expr, Var } from '../../ir/tir/nodes';
import { loweringFail } from './attrs';
import { staticShape } from './tirHelpers';

/**
 * Indices into `buffer` for output position `vars` (shapes aligned from the right): a dim
 * equal to the output's follows the loop variable, a dim of 1 stays at 0.
 */
export function broadcastIndices(call: CallNode, buffer: Buffer, outShape: readonly number[], vars: readonly Var[]): Expr[] {
  const shape = staticShape(buffer);
  const lead = outShape.length - shape.length;
  if (lead < 0) loweringFail(call, `operand of rank ${shape.length} exceeds output rank ${outShape.length}`);
  return shape.map((d, i) => {
    const o = outShape[lead + i];
    if (d === o) return vars[lead + i];
    if (d === 1) return intImm(0);
    return loweringFail(call, `operand shape [${shape.join(', ')}] does not broadcast to [${outShape.join(', ')}]`);
  });
}
