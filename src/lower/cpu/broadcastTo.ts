/** broadcast_to: numpy broadcasting of the input to the output shape. */
import { intImm } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { gatherNest } from './indexMap';
import { staticShape } from './tirHelpers';

export const broadcastToStrategy: OperatorStrategy = (input) => {
  const shape = staticShape(input.args[0]);
  const lead = staticShape(input.out).length - shape.length;
  if (lead < 0) loweringFail(input.call, `broadcast_to: input rank ${shape.length} exceeds the output's`);
  return gatherNest(input.args[0], input.out, (vars) => ({ indices: shape.map((d, i) => (d === 1 ? intImm(0) : vars[lead + i])) }));
};
