/**
 * circular_buffer → loops over its int32 state (the variable's persistent buffer, in place):
 * the slots move down one (a forward copy, TFLite Micro's memmove), the input becomes the last
 * slot, the counter steps and resets at 0; the packed int8 output is the buffer, then the ready
 * flag. The same steps as src/arith/circularBuffer.ts, which the interpreter runs.
 */
import { add, bufferLoad, bufferStore, cast, intImm, le, select, seq, sub } from '../../ir/tir/builder';
import { CIRCULAR_BUFFER_COUNTER } from '../../arith/circularBuffer';
import { OperatorStrategy } from '../strategy';
import { elementsOf, intAttr } from './signal/common';
import { withState } from './signal/stateful';
import { loopNest, reshapedView } from './tirHelpers';

export const circularBufferStrategy: OperatorStrategy = (input) => {
  const slots = intAttr(input, 'num_slots');
  const depth = intAttr(input, 'depth');
  const cyclesMax = intAttr(input, 'cycles_max');
  const base = CIRCULAR_BUFFER_COUNTER;
  const values = elementsOf(input, 1) - base;
  const x = reshapedView(input.args[0], [elementsOf(input, 0)]);
  const out = reshapedView(input.out, [values + 1]);
  const last = base + (slots - 1) * depth;
  return withState(input, 1, (state) => {
    const counter = bufferLoad(state, [intImm(0)]);
    return seq([
      loopNest(['i'], [(slots - 1) * depth], ([i]) => bufferStore(state, bufferLoad(state, [add(i, base + depth)]), [add(i, base)])),
      loopNest(['j'], [depth], ([j]) => bufferStore(state, cast('int32', bufferLoad(x, [j])), [add(j, last)])),
      bufferStore(state, sub(counter, 1), [intImm(0)]),
      // Ready when the counter reaches 0 (TFLite Micro's `--cycles_until_run <= 0`), then reset.
      bufferStore(out, select(le(counter, 0), intImm(1, 'int8'), intImm(0, 'int8')), [intImm(values)]),
      bufferStore(state, select(le(counter, 0), intImm(cyclesMax), counter), [intImm(0)]),
      loopNest(['k'], [values], ([k]) => bufferStore(out, cast('int8', bufferLoad(state, [add(k, base)])), [k])),
    ]);
  });
};
