/**
 * quantize (float32 -> int8/uint8/int16, or integer requantize, int32 included as TFLite
 * Micro's Requantize has it) and dequantize (integer -> float32), elementwise, with the
 * numerics of TFLite Micro's AffineQuantize, Requantize and Dequantize.
 */
import { quantizeSignatureProblem, requantizeMultiplier } from '../../arith/quant-params';
import { add, binary, bufferLoad, bufferStore, cast, floatImm, intImm, letStmt, makeVar, mul, sub } from '../../ir/tir/builder';
import { Expr } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { loweringFail } from './attrs';
import { dtypeRange, quantOf } from './quantParams';
import { clamp, elementCount, i32, loopNest, qMultiplyShift, reshapedView } from './tirHelpers';

const INTEGER_DTYPES = ['int8', 'uint8', 'int16'];

/**
 * C's lround-style `static_cast<int32_t>(std::round(q))` for a float32 `q` already clamped to
 * integer bounds (clamping first is exact because rounding is monotone and fixes integers):
 * truncate, then step away from zero when the exact remainder reaches one half.
 */
export function roundHalfAwayFromZeroToInt(q: Expr): Expr {
  const t = cast('int32', q);
  const frac = sub(q, cast('float32', t));
  // The steps as 0/1 comparisons, not selects: gcc compiled the nested selects to branches on
  // the data (float-to-int8 QUANTIZE at 2.4x TFLite Micro's time; 0.6x this way).
  return sub(add(t, cast('int32', binary('GE', frac, floatImm(0.5)))), cast('int32', binary('LE', frac, floatImm(-0.5))));
}

export const quantizeStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const inType = input.argTypes[0];
  const outType = call.type;
  const problem = quantizeSignatureProblem(inType.dtype, outType.dtype);
  if (problem) loweringFail(call, problem);
  const n = elementCount(input.out);
  const x = reshapedView(input.args[0], [n]);
  const y = reshapedView(input.out, [n]);
  const qo = quantOf(call, outType, 'output');
  const [lo, hi] = dtypeRange(call, outType.dtype);

  if (inType.dtype === 'float32') {
    const scale = floatImm(Math.fround(qo.scale));
    return loopNest(['i'], [n], ([i]) => {
      const q = binary('Div', bufferLoad(x, [i]), scale);
      // Bound once: the rounding reads it three times, and the C emitter does not share subexpressions.
      const bounded = makeVar('q', 'float32');
      return letStmt(
        bounded,
        clamp(q, floatImm(lo - qo.zeroPoint), floatImm(hi - qo.zeroPoint)),
        bufferStore(y, cast(outType.dtype, add(roundHalfAwayFromZeroToInt(bounded), qo.zeroPoint)), [i]),
      );
    });
  }

  const qi = quantOf(call, inType, 'input');
  const { multiplier, shift } = requantizeMultiplier(qi.scale, qo.scale);
  return loopNest(['i'], [n], ([i]) => {
    const v = add(qMultiplyShift(sub(i32(bufferLoad(x, [i])), qi.zeroPoint), intImm(multiplier), intImm(shift)), qo.zeroPoint);
    // An int32 result is already in range: TFLite's clamp to int32 bounds changes nothing.
    return bufferStore(y, outType.dtype === 'int32' ? v : cast(outType.dtype, clamp(v, lo, hi)), [i]);
  });
};

export const dequantizeStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const inType = input.argTypes[0];
  if (!INTEGER_DTYPES.includes(inType.dtype)) loweringFail(call, `dequantize from ${inType.dtype} is not supported`);
  if (call.type.dtype !== 'float32') loweringFail(call, `dequantize to ${call.type.dtype} is not supported`);
  const n = elementCount(input.out);
  const x = reshapedView(input.args[0], [n]);
  const y = reshapedView(input.out, [n]);
  const qi = quantOf(call, inType, 'input');
  // scale * (q - zp) is exact in double and rounded once to float, as a float32 product is.
  const scale = floatImm(Math.fround(qi.scale));
  return loopNest(['i'], [n], ([i]) => bufferStore(y, mul(cast('float32', sub(i32(bufferLoad(x, [i])), qi.zeroPoint)), scale), [i]));
};
