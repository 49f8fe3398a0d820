/**
 * Broadcasting add for int8 and float32. int8 follows TFLite Micro's reference Add: both
 * inputs are offset, shifted left by 20, rescaled to twice the larger input scale, summed,
 * rescaled to the output, + zero point, clamped. float32: clamp(a + b).
 */
import { addQuantParams } from '../../arith/quant-params';
import { add, bufferLoad, bufferStore, cast, intImm, mul } from '../../ir/tir/builder';
import { Buffer, Expr, Var } from '../../ir/tir/nodes';
import { OperatorStrategy } from '../strategy';
import { activationAttr, loweringFail } from './attrs';
import { floatOutputStage, requireDType } from './convCommon';
import { quantizedActivationRange, quantOf } from './quantParams';
import { clamp, i32, loopNest, qMultiplyShift, staticShape } from './tirHelpers';

/** Indices into `buffer` for output position `vars` under numpy broadcasting (right-aligned). */
function broadcastIndices(call: Parameters<OperatorStrategy>[0]['call'], buffer: Buffer, outShape: readonly number[], vars: readonly Var[]): Expr[] {
  const shape = staticShape(buffer);
  const lead = outShape.length - shape.length;
  if (lead < 0) loweringFail(call, `add operand of rank ${shape.length} exceeds output rank ${outShape.length}`);
  return shape.map((d, i) => {
    const o = outShape[lead + i];
    if (d === o) return vars[lead + i];
    if (d === 1) return intImm(0);
    return loweringFail(call, `add operand shape [${shape}] does not broadcast to [${outShape}]`);
  });
}

export const addStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const outShape = staticShape(out);
  const names = outShape.map((_, i) => `i${i}`);
  const load = (b: Buffer, vars: Var[]): Expr => bufferLoad(b, broadcastIndices(call, b, outShape, vars));
  const activation = activationAttr(call);

  if (call.type.dtype === 'float32') {
    requireDType(call, input.argTypes, ['float32'], 'add');
    const finish = floatOutputStage(activation);
    return loopNest(names, outShape, (vars) => bufferStore(out, finish(add(load(args[0], vars), load(args[1], vars))), vars));
  }

  requireDType(call, [...input.argTypes, call.type], ['int8'], 'add');
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  const p = addQuantParams(q1.scale, q2.scale, qo.scale, 'int8');
  const m1 = { multiplier: p.input1Multiplier, shift: p.input1Shift };
  const m2 = { multiplier: p.input2Multiplier, shift: p.input2Shift };
  const mo = { multiplier: p.outputMultiplier, shift: p.outputShift };
  const [lo, hi] = quantizedActivationRange(call, activation, call.type);
  const scaled = (b: Buffer, vars: Var[], zp: number, m: { multiplier: number; shift: number }): Expr =>
    qMultiplyShift(mul(add(i32(load(b, vars)), -zp), 1 << p.leftShift), intImm(m.multiplier), intImm(m.shift));
  return loopNest(names, outShape, (vars) => {
    const sum = add(scaled(args[0], vars, q1.zeroPoint, m1), scaled(args[1], vars, q2.zeroPoint, m2));
    const result = add(qMultiplyShift(sum, intImm(mo.multiplier), intImm(mo.shift)), qo.zeroPoint);
    return bufferStore(out, cast(call.type.dtype, clamp(result, lo, hi)), vars);
  });
};
