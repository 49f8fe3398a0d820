/**
 * reduce_max / reduce_min as TFLite Micro's ReduceGeneric: start at the type's lowest
 * (highest) value, take each element that compares strictly greater (less).
 */
import { floatImm, intImm, lt, select } from '../../ir/tir/builder';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { requireDType } from './convCommon';
import { FLOAT32_MAX, quantOf } from './quantParams';
import { reducedAxes, reductionNest } from './reduceCommon';

const INT_START: Readonly<Record<string, readonly [number, number]>> = { int8: [-128, 127], int16: [-32768, 32767] };

function extremeStrategy(kind: 'max' | 'min'): OperatorStrategy {
  return (input) => {
    const { call } = input;
    const dtype = call.type.dtype;
    requireDType(call, [...input.argTypes, call.type], [dtype === 'float32' ? 'float32' : dtype === 'int16' ? 'int16' : 'int8'], `reduce_${kind}`);
    if (dtype !== 'float32') {
      const qi = quantOf(call, input.argTypes[0], 'input');
      const qo = quantOf(call, call.type, 'output');
      if (qi.scale !== qo.scale || qi.zeroPoint !== qo.zeroPoint) loweringFail(call, `reduce_${kind}: input and output quantization differ`);
    }
    const [lowest, highest] = dtype === 'float32' ? [floatImm(-FLOAT32_MAX), floatImm(FLOAT32_MAX)] : INT_START[dtype].map((v) => intImm(v, dtype));
    return reductionNest(input, reducedAxes(input), {
      accDType: dtype === 'float32' ? 'float32' : dtype === 'int16' ? 'int16' : 'int8',
      init: kind === 'max' ? lowest : highest,
      step: (acc, v) => (kind === 'max' ? select(lt(acc, v), v, acc) : select(lt(v, acc), v, acc)),
      finish: (acc) => acc,
    });
  };
}

export const reduceMaxStrategy = extremeStrategy('max');
export const reduceMinStrategy = extremeStrategy('min');
