/**
 * reduce_all / reduce_any as TFLite's ReduceGeneric on bool: start at true (all) or false
 * (any) and fold each element in with and / or, so a reduction over no elements keeps it.
 */
import { and, binary, intImm } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { requireDType } from './convCommon';
import { reducedAxes, reductionNest } from './reduceCommon';

function logicalStrategy(kind: 'all' | 'any'): OperatorStrategy {
  return (input) => {
    const { call } = input;
    requireDType(call, [...input.argTypes, call.type], ['bool'], `reduce_${kind}`);
    return reductionNest(input, reducedAxes(input), {
      accDType: 'bool',
      init: intImm(kind === 'all' ? 1 : 0, 'bool'),
      step: (acc, v) => (kind === 'all' ? and(acc, v) : binary('Or', acc, v)),
      finish: (acc) => acc,
    });
  };
}

export const reduceAllStrategy = logicalStrategy('all');
export const reduceAnyStrategy = logicalStrategy('any');
