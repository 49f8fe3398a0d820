/**
 * basic_classifier → one loop over the targets: the input (read flat) at the target index,
 * or whether it reaches the threshold. The importer admits only constant indices it checked,
 * so the load stays inside the input.
 */
import { bufferLoad, bufferStore, ge } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { elementsOf, intAttr } from './signal/common';
import { loopNest, reshapedView } from './tirHelpers';

export const basicClassifierStrategy: OperatorStrategy = (input) => {
  const targets = elementsOf(input, 1);
  const x = reshapedView(input.args[0], [elementsOf(input, 0)]);
  const [indices, thresholds] = [1, 2].map((k) => reshapedView(input.args[k], [targets]));
  const out = reshapedView(input.out, [targets]);
  const detected = intAttr(input, 'output') === 0;
  return loopNest(['i'], [targets], ([i]) => {
    const value = bufferLoad(x, [bufferLoad(indices, [i])]);
    return bufferStore(out, detected ? ge(value, bufferLoad(thresholds, [i])) : value, [i]);
  });
};
