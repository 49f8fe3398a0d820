/**
 * arg_max / arg_min as TFLite's reference ArgMinMax: along the axis, keep the first index
 * whose value compares strictly greater (less) than the best so far.
 */
import { bufferLoad, bufferStore, cast, forLoop, ifThenElse, intImm, lt, makeVar, seq } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail, numberAttr } from './attrs';
import { requireDType } from './convCommon';
import { accLoad, accStore, loopNest, reshapedView, staticShape, withAccumulator } from './tirHelpers';

function argStrategy(kind: 'max' | 'min'): OperatorStrategy {
  return (input) => {
    const { call } = input;
    const inType = input.argTypes[0];
    requireDType(call, [inType], ['float32', 'int8', 'int16'], `arg_${kind}`);
    const outDType = call.type.dtype;
    if (outDType !== 'int32' && outDType !== 'int64') loweringFail(call, `arg_${kind}: output dtype ${outDType} (expected int32 or int64)`);
    const shape = staticShape(input.args[0]);
    const axis = numberAttr(call, 'axis');
    if (!Number.isInteger(axis) || axis < 0 || axis >= shape.length) loweringFail(call, `arg_${kind}: axis ${axis} is out of range`);
    const outer = shape.slice(0, axis).reduce((a, b) => a * b, 1);
    const inner = shape.slice(axis + 1).reduce((a, b) => a * b, 1);
    const size = shape[axis];
    const x = reshapedView(input.args[0], [outer, size, inner]);
    const out = reshapedView(input.out, [outer, inner]);
    return loopNest(['o', 'i'], [outer, inner], ([o, i]) =>
      withAccumulator('best', inType.dtype as 'float32' | 'int8' | 'int16', (best) =>
        withAccumulator('index', 'int32', (index) => {
          const k = makeVar('k', 'int32');
          const v = bufferLoad(x, [o, k, i]);
          const better = kind === 'max' ? lt(accLoad(best), v) : lt(v, accLoad(best));
          return seq([
            accStore(best, bufferLoad(x, [o, 0, i])),
            accStore(index, intImm(0)),
            forLoop(k, 1, size - 1, ifThenElse(better, seq([accStore(best, v), accStore(index, k)]))),
            bufferStore(out, cast(outDType, accLoad(index)), [o, i]),
          ]);
        }),
      ),
    );
  };
}

export const argMaxStrategy = argStrategy('max');
export const argMinStrategy = argStrategy('min');
