/**
 * The state argument of a stateful signal operator: its variable's persistent buffer (main's
 * `state_<n>`), updated in place so the next run continues from it; a plain constant state is
 * copied into operator scratch `<tensor>_state` first and stays as it is.
 */
import { bufferLoad, bufferStore, seq } from '../../../ir/tir/builder';
import { Buffer, Stmt } from '../../../ir/tir/nodes';
import { sanitizeName } from '../../names';
import { OpLoweringInput } from '../../strategy';
import { loopNest, reshapedView, withScratch } from '../tirHelpers';

export function withState(input: OpLoweringInput, k: number, body: (state: Buffer) => Stmt): Stmt {
  const type = input.argTypes[k];
  const n = type.shape.reduce((a, b) => a * b, 1);
  const arg = reshapedView(input.args[k], [n]);
  if (input.constants.get(k)?.variable === true) return body(arg);
  return withScratch(`${sanitizeName(input.call.name)}_state`, type.dtype, [n], 'global', (state) =>
    seq([loopNest(['i'], [n], ([i]) => bufferStore(state, bufferLoad(arg, [i]), [i])), body(state)]),
  );
}
