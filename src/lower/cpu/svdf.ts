/**
 * svdf as loop nests, with the numerics of TFLite Micro's reference SVDF for one invocation:
 * the state is shifted left by one element, each filter's feature projection fills its
 * newest slot (requantized to the state for int8), the state is contracted with
 * weights_time, summed over rank, biased, then activated (float) or requantized (int8).
 *
 * A variable-tensor state (the imported model's, `ConstantNode.variable`) is a persistent
 * buffer of main: it is shifted and updated in place, so the next run continues from it as
 * TFLite Micro's next `Invoke()` does. A plain constant state stays read-only: the operator
 * works on an internal copy (`<tensor>_state`) and every run starts from the constant.
 */
import { svdfIntegerParams } from '../../arith/quant-params';
import { add, bufferLoad, bufferStore, cast, floatImm, intImm, mul, seq, sub } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy, OpLoweringInput } from '../strategy';
import { activationAttr, loweringFail, numberAttr } from './attrs';
import { floatOutputStage, requireDType } from './convCommon';
import { dtypeRange, quantOf } from './quantParams';
import { accAdd, accLoad, accStore, clamp, elementCount, i32, loopNest, qMultiplyShift, reshapedView, staticShape, withAccumulator, withScratch, wrappedSum, WRAPPING_SUM_DTYPE, wrappingTerm } from './tirHelpers';

/** The integer path's accumulator read as the int32 its sum wraps to (tirHelpers.ts, wrappedSum). */
const accI32 = (acc: Buffer): Expr => wrappedSum(accLoad(acc));

interface SvdfOperands {
  readonly data: Buffer;
  readonly weightsFeature: Buffer;
  readonly weightsTime: Buffer;
  readonly bias?: Buffer;
  readonly state: Buffer;
  readonly stateIndex: number;
  readonly batches: number;
  readonly inputSize: number;
  readonly filters: number;
  readonly memory: number;
  readonly rank: number;
  readonly units: number;
}

function operands(input: OpLoweringInput): SvdfOperands {
  const { call, args } = input;
  // With a bias the args are (input, wf, wt, bias, state); without, (input, wf, wt, state).
  if (args.length !== 4 && args.length !== 5) loweringFail(call, `svdf expects 4 or 5 arguments, got ${args.length}`);
  const stateIndex = args.length - 1;
  const [batches, inputSize] = staticShape(args[0]);
  const [filters, wfIn] = staticShape(args[1]);
  const [wtFilters, memory] = staticShape(args[2]);
  const rank = numberAttr(call, 'rank');
  if (wfIn !== inputSize || wtFilters !== filters || rank <= 0 || filters % rank !== 0) {
    loweringFail(call, `svdf shapes do not fit: input [${batches},${inputSize}], weights_feature [${filters},${wfIn}], weights_time [${wtFilters},${memory}], rank ${rank}`);
  }
  if (elementCount(args[stateIndex]) !== batches * filters * memory) loweringFail(call, `svdf state must hold ${batches * filters * memory} elements`);
  return {
    data: args[0],
    weightsFeature: args[1],
    weightsTime: args[2],
    bias: args.length === 5 ? args[3] : undefined,
    state: args[stateIndex],
    stateIndex,
    batches,
    inputSize,
    filters,
    memory,
    rank,
    units: filters / rank,
  };
}

/** Copies the state shifted left by one element (the newest slots are overwritten next). */
function shiftedStateCopy(o: SvdfOperands, state: Buffer): Stmt {
  const total = o.batches * o.filters * o.memory;
  const src = reshapedView(o.state, [total]);
  const dst = reshapedView(state, [total]);
  return seq([
    loopNest(['i'], [total - 1], ([i]) => bufferStore(dst, bufferLoad(src, [add(i, 1)]), [i])),
    bufferStore(dst, bufferLoad(src, [total - 1]), [total - 1]),
  ]);
}

/** Shifts the state left by one element in place (ascending order reads before it writes). */
function shiftStateInPlace(o: SvdfOperands): Stmt {
  const total = o.batches * o.filters * o.memory;
  const flat = reshapedView(o.state, [total]);
  return loopNest(['i'], [total - 1], ([i]) => bufferStore(flat, bufferLoad(flat, [add(i, 1)]), [i]));
}

export const svdfStrategy: OperatorStrategy = (input) => {
  const { call } = input;
  const o = operands(input);
  const prefix = sanitizeName(call.name);
  const out = reshapedView(input.out, [o.batches, o.units]);
  const isFloat = call.type.dtype === 'float32';
  if (isFloat) requireDType(call, [...input.argTypes.filter((t) => t !== undefined)], ['float32'], 'svdf');

  const body = (state: Buffer, first: Stmt): Stmt =>
    withScratch(`${prefix}_scratch`, isFloat ? 'float32' : 'int32', [o.batches, o.units, o.rank], 'global', (scratch) =>
      // The integer sums wrap modulo 2^32, as the interpreter's `| 0` and TFLite Micro's C do in
      // practice: int16 state x int16 weights_time over the memory, and the bias plus that sum,
      // pass int32 on ordinary inputs (keyword_scrambled on `uma-ts run`'s random inputs).
      withAccumulator('acc', isFloat ? 'float32' : WRAPPING_SUM_DTYPE, (acc) =>
        seq([first, ...(isFloat ? floatBody(input, o, state, scratch, acc, out) : integerBody(input, o, state, scratch, acc, out))]),
      ),
    );
  const persistent = input.constants.get(o.stateIndex)?.variable === true;
  if (persistent) return body(reshapedView(o.state, [o.batches, o.filters, o.memory]), shiftStateInPlace(o));
  return withScratch(`${prefix}_state`, o.state.dtype, [o.batches, o.filters, o.memory], 'global', (state) => body(state, shiftedStateCopy(o, state)));
};

function floatBody(input: OpLoweringInput, o: SvdfOperands, state: Buffer, scratch: Buffer, acc: Buffer, out: Buffer): Stmt[] {
  const finish = floatOutputStage(activationAttr(input.call));
  const newest = o.memory - 1;
  return [
    loopNest(['n', 'f'], [o.batches, o.filters], ([n, f]) =>
      seq([
        accStore(acc, floatImm(0)),
        loopNest(['i'], [o.inputSize], ([i]) => accAdd(acc, mul(bufferLoad(o.weightsFeature, [f, i]), bufferLoad(o.data, [n, i])))),
        bufferStore(state, accLoad(acc), [n, f, newest]),
      ]),
    ),
    timeContraction(o, state, scratch, acc, floatImm(0), (v) => v),
    loopNest(['n', 'u'], [o.batches, o.units], ([n, u]) =>
      seq([
        accStore(acc, o.bias ? bufferLoad(o.bias, [u]) : floatImm(0)),
        loopNest(['r'], [o.rank], ([r]) => accAdd(acc, bufferLoad(scratch, [n, u, r]))),
        bufferStore(out, finish(accLoad(acc)), [n, u]),
      ]),
    ),
  ];
}

function integerBody(input: OpLoweringInput, o: SvdfOperands, state: Buffer, scratch: Buffer, acc: Buffer, out: Buffer): Stmt[] {
  const { call, argTypes } = input;
  const stateType = argTypes[o.stateIndex];
  requireDType(call, [argTypes[0], argTypes[1], call.type], ['int8'], 'svdf');
  requireDType(call, [stateType, argTypes[2]], [stateType.dtype === 'int8' ? 'int8' : 'int16'], 'svdf state/weights_time');
  const qIn = quantOf(call, argTypes[0], 'input');
  const qState = quantOf(call, stateType, 'state');
  const qOut = quantOf(call, call.type, 'output');
  const p = svdfIntegerParams(qIn.scale, quantOf(call, argTypes[1], 'weights_feature').scale, qState.scale, quantOf(call, argTypes[2], 'weights_time').scale, qOut.scale);
  const [stateMin, stateMax] = dtypeRange(call, stateType.dtype);
  const [outMin, outMax] = dtypeRange(call, call.type.dtype);
  const newest = o.memory - 1;
  return [
    loopNest(['n', 'f'], [o.batches, o.filters], ([n, f]) =>
      seq([
        accStore(acc, intImm(0, WRAPPING_SUM_DTYPE)),
        loopNest(['i'], [o.inputSize], ([i]) =>
          accAdd(acc, wrappingTerm(mul(i32(bufferLoad(o.weightsFeature, [f, i])), sub(i32(bufferLoad(o.data, [n, i])), qIn.zeroPoint)))),
        ),
        bufferStore(
          state,
          cast(state.dtype, clamp(add(qMultiplyShift(accI32(acc), intImm(p.scale1.multiplier), intImm(p.scale1.shift)), qState.zeroPoint), stateMin, stateMax)),
          [n, f, newest],
        ),
      ]),
    ),
    timeContraction(o, state, scratch, acc, intImm(0, WRAPPING_SUM_DTYPE), (v) => sub(i32(v), qState.zeroPoint)),
    loopNest(['n', 'u'], [o.batches, o.units], ([n, u]) =>
      seq([
        accStore(acc, o.bias ? wrappingTerm(bufferLoad(o.bias, [u])) : intImm(0, WRAPPING_SUM_DTYPE)),
        loopNest(['r'], [o.rank], ([r]) => accAdd(acc, wrappingTerm(bufferLoad(scratch, [n, u, r])))),
        bufferStore(
          out,
          cast(call.type.dtype, clamp(add(qMultiplyShift(accI32(acc), intImm(p.scale2.multiplier), intImm(p.scale2.shift)), qOut.zeroPoint), outMin, outMax)),
          [n, u],
        ),
      ]),
    ),
  ];
}

/** scratch[n, f] = sum over memory of weights_time[f, m] * state[n, f, m] (state offset for int8). */
function timeContraction(o: SvdfOperands, state: Buffer, scratch: Buffer, acc: Buffer, zero: Expr, stateValue: (v: Expr) => Expr): Stmt {
  const flatScratch = reshapedView(scratch, [o.batches, o.filters]);
  const isFloat = zero.kind === 'FloatImm';
  return loopNest(['n', 'f'], [o.batches, o.filters], ([n, f]) =>
    seq([
      accStore(acc, zero),
      loopNest(['m'], [o.memory], ([m]) => {
        const w = bufferLoad(o.weightsTime, [f, m]);
        return isFloat ? accAdd(acc, mul(w, stateValue(bufferLoad(state, [n, f, m])))) : accAdd(acc, wrappingTerm(mul(i32(w), stateValue(bufferLoad(state, [n, f, m])))));
      }),
      bufferStore(flatScratch, isFloat ? accLoad(acc) : accI32(acc), [n, f]),
    ]),
  );
}
