/**
 * The loop nest every reduction shares: one loop per kept axis, a one-element local
 * accumulator, and inside it one loop per reduced axis in row-major order, which is the order
 * TFLite's Reduce folds the elements of one output (so float sums agree bit for bit).
 */
import { QuantizedMultiplier } from '../../arith/fixedpoint';
import { add, bufferLoad, bufferStore, cast, ExprLike, intImm, seq, sub } from '../../ir/tir/builder';
import { Expr, ScalarDType, Stmt, Var } from '../../ir/tir/nodes';
import { OpLoweringInput } from '../strategy';
import { loweringFail } from './attrs';
import { requireDType } from './convCommon';
import { accLoad, accStore, clamp, i32, loopNest, qMultiplyShift, reshapedView, staticShape, withAccumulator } from './tirHelpers';

export interface ReductionNest {
  /** Accumulator dtype and its start value. */
  readonly accDType: ScalarDType;
  readonly init: ExprLike;
  /** New accumulator value from the current one and an input element. */
  readonly step: (acc: Expr, value: Expr) => ExprLike;
  /** Output element from the final accumulator and the number of reduced elements. */
  readonly finish: (acc: Expr, count: number) => ExprLike;
}

/** The reduced axes of the call (`axes` list attribute), checked against the input rank. */
export function reducedAxes(input: OpLoweringInput): number[] {
  const { call } = input;
  const v = call.attrs.axes;
  const rank = input.argTypes[0].shape.length;
  if (!Array.isArray(v) || v.some((a) => typeof a !== 'number' || !Number.isInteger(a) || a < 0 || a >= rank)) {
    loweringFail(call, `attribute 'axes' must list axes in [0, ${rank}), got ${JSON.stringify(v)}`);
  }
  return v as number[];
}

export function reductionCount(input: OpLoweringInput, axes: readonly number[]): number {
  const shape = input.argTypes[0].shape;
  return axes.reduce((n, a) => n * shape[a], 1);
}

export function reductionNest(input: OpLoweringInput, axes: readonly number[], nest: ReductionNest): Stmt {
  const x = input.args[0];
  const shape = staticShape(x);
  const kept = shape.map((_, d) => d).filter((d) => !axes.includes(d));
  const reduced = shape.map((_, d) => d).filter((d) => axes.includes(d));
  const count = reduced.reduce((n, d) => n * shape[d], 1);
  const keptExtents = kept.map((d) => shape[d]);
  // The output may be declared in another layout of the same elements: index it by kept axes.
  const out = reshapedView(input.out, keptExtents.length > 0 ? keptExtents : [1]);
  const inputIndex = (keptVars: readonly Var[], reducedVars: readonly Var[]): Var[] =>
    shape.map((_, d) => (axes.includes(d) ? reducedVars[reduced.indexOf(d)] : keptVars[kept.indexOf(d)]));
  return loopNest(
    kept.map((d) => `i${d}`),
    keptExtents,
    (keptVars) =>
      withAccumulator('acc', nest.accDType, (acc) =>
        seq([
          accStore(acc, nest.init),
          loopNest(
            reduced.map((d) => `r${d}`),
            reduced.map((d) => shape[d]),
            (reducedVars) => accStore(acc, nest.step(accLoad(acc), bufferLoad(x, inputIndex(keptVars, reducedVars)))),
          ),
          bufferStore(out, nest.finish(accLoad(acc), count), keptVars.length > 0 ? keptVars : [0]),
        ]),
      ),
  );
}

/** Quantized mean and sum take int8 or int16 and keep it (checked before their quantization is read). */
export function requireQuantizedReduce(input: OpLoweringInput, op: string): 'int8' | 'int16' {
  const { call } = input;
  const dtype = call.type.dtype === 'int16' ? 'int16' : 'int8';
  requireDType(call, [...input.argTypes, call.type], [dtype], op);
  return dtype;
}

/** The accumulation of quantized mean and sum: an int32 sum of the raw values, `finish`ed into the output. */
export function int32SumNest(input: OpLoweringInput, axes: readonly number[], finish: ReductionNest['finish']): Stmt {
  return reductionNest(input, axes, { accDType: 'int32', init: intImm(0), step: (acc, v) => add(acc, i32(v)), finish });
}

/**
 * A quantized MEAN's or SUM's output from its int32 sum (QuantizedMeanOrSum, integer; see
 * src/arith/reduce-params.ts): requantize the sum less `count` input zero points (formed in
 * 64 bits and wrapped to 32, as the kernel casts it), add the output zero point, clamp.
 */
export function requantizedSum(acc: Expr, count: number, qi: { zeroPoint: number }, qo: { zeroPoint: number }, m: QuantizedMultiplier, range: readonly [number, number], dtype: ScalarDType): Expr {
  const shifted = cast('int32', sub(cast('int64', acc), intImm(qi.zeroPoint * count, 'int64')));
  return cast(dtype, clamp(add(qMultiplyShift(shifted, m.multiplier, m.shift), qo.zeroPoint), range[0], range[1]));
}
