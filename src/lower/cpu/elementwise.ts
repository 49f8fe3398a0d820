/**
 * What the elementwise CPU strategies share: one loop nest over the output with every
 * operand read through numpy broadcasting, dtype checks, TFLite's quantized add/sub
 * arithmetic, and int8 lookup tables (an int8 unary operator has only 256 inputs, so its
 * reference function is evaluated at compile time into a constant table; the loop is a load).
 */
import { AddQuantParams, addQuantParams } from '../../arith/quant-params';
import * as qp from '../../arith/quant-params';
import { FusedActivation } from '../../ir/graph/ops';
import { DType } from '../../ir/graph/types';
import { add, bufferLoad, bufferStore, cast, exprDType, intImm, letStmt, makeVar, mul, sub } from '../../ir/tir/builder';
import { Buffer, Expr, ScalarDType, Stmt, Var } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OpLoweringInput } from '../strategy';
import { activationAttr, loweringFail } from './attrs';
import { broadcastIndices } from './broadcast';
import { floatOutputStage } from './convCommon';
import { quantizedActivationRange, quantOf } from './quantParams';
import { clamp, i32, loopNest, qMultiplyShift, staticShape, withConstTable } from './tirHelpers';

/** Rejects operand or output dtypes outside `allowed`, naming the operator. */
export function requireDtypes(input: OpLoweringInput, allowed: readonly DType[], what: string): DType {
  const { call } = input;
  const dtype = call.type.dtype;
  if (!allowed.includes(dtype)) loweringFail(call, `${what}: unsupported dtype ${dtype} (supported: ${allowed.join(', ')})`);
  return dtype;
}

/** Names a value once per element: the expression reads the returned var instead. */
export type BindValue = (name: string, value: Expr) => Var;

/**
 * out[...] = value(loads of every argument at the broadcast position); `value` yields the
 * output dtype. A value the expression reads several times can be bound (`bind`) and is then
 * computed once per element: the C emitter does not share subexpressions, and repeating one
 * (a table index, a rescaled input) made int16 LOGISTIC three times slower than TFLite Micro.
 */
export function elementwiseNest(input: OpLoweringInput, value: (loads: Expr[], bind: BindValue) => Expr, args: readonly Buffer[] = input.args): Stmt {
  const { call, out } = input;
  const outShape = staticShape(out);
  // Without broadcasting every operand is read at the output's own position: one loop over
  // the flat index. A nest's inner loop is often short (a channel count), and its exit and
  // index arithmetic cost as much as a cheap body (float HARD_SWISH ran 20% slower nested).
  const sameShape = (b: Buffer): boolean => {
    const shape = staticShape(b);
    return shape.length === outShape.length && shape.every((d, i) => d === outShape[i]);
  };
  const flat = outShape.length > 1 && args.every(sameShape);
  const extents = flat ? [outShape.reduce((a, d) => a * d, 1)] : outShape;
  const names = flat ? ['i'] : outShape.map((_, i) => `i${i}`);
  return loopNest(names, extents, (vars) => {
    const loads = args.map((b) => bufferLoad(b, flat ? vars : broadcastIndices(call, b, outShape, vars)));
    const lets: [Var, Expr][] = [];
    const bind: BindValue = (name, e) => {
      const v = makeVar(name, exprDType(e) as ScalarDType);
      lets.push([v, e]);
      return v;
    };
    let body: Stmt = bufferStore(out, value(loads, bind), vars);
    for (let k = lets.length - 1; k >= 0; k--) body = letStmt(lets[k][0], lets[k][1], body);
    return body;
  });
}

/** TFLite `CalculateActivationRange<int32_t>` as a clamp (NONE: no clamp). */
export function int32ActivationStage(activation: FusedActivation): (x: Expr) => Expr {
  const r = qp.floatActivationRange(activation);
  if (activation === 'NONE') return (x) => x;
  return (x) => clamp(x, Math.max(r.min, -2147483648), Math.min(r.max, 2147483647));
}

/**
 * The float32 and int32 nests add, sub and mul share: `op(a, b)` clamped to the fused
 * activation (int32: CalculateActivationRange<int32_t>). Undefined for a quantized dtype,
 * whose rescaling is each operator's own.
 */
export function unquantizedBinaryNest(input: OpLoweringInput, dtype: DType, op: (a: Expr, b: Expr) => Expr): Stmt | undefined {
  if (dtype !== 'float32' && dtype !== 'int32') return undefined;
  const activation = activationAttr(input.call);
  const finish = dtype === 'float32' ? floatOutputStage(activation) : int32ActivationStage(activation);
  return elementwiseNest(input, ([a, b]) => finish(op(a, b)));
}

/** Narrow an int32 result to the output dtype after clamping. */
export function narrow(dtype: DType, value: Expr, lo: number, hi: number): Expr {
  return cast(dtype as ScalarDType, clamp(value, lo, hi));
}

/** TFLite's general quantized add (sign 1) / sub (sign -1) for int8 and int16, as the interpreter's `addSubQuantized`. */
export function addSubQuantizedNest(input: OpLoweringInput, sign: 1 | -1): Stmt {
  const { call } = input;
  const dtype = call.type.dtype;
  const q1 = quantOf(call, input.argTypes[0], 'lhs');
  const q2 = quantOf(call, input.argTypes[1], 'rhs');
  const qo = quantOf(call, call.type, 'output');
  const p: AddQuantParams = addQuantParams(q1.scale, q2.scale, qo.scale, dtype, sign === 1 ? 'add' : 'sub');
  const [lo, hi] = quantizedActivationRange(call, activationAttr(call), call.type);
  const scaled = (x: Expr, zp: number, m: number, s: number): Expr =>
    qMultiplyShift(mul(add(i32(x), -zp), 1 << p.leftShift), intImm(m), intImm(s));
  return elementwiseNest(input, ([a, b]) => {
    const s1 = scaled(a, q1.zeroPoint, p.input1Multiplier, p.input1Shift);
    const s2 = scaled(b, q2.zeroPoint, p.input2Multiplier, p.input2Shift);
    const combined = sign === 1 ? add(s1, s2) : sub(s1, s2);
    const result = add(qMultiplyShift(combined, intImm(p.outputMultiplier), intImm(p.outputShift)), qo.zeroPoint);
    return narrow(dtype, result, lo, hi);
  });
}

/**
 * An int8 unary operator as a 256-entry constant table indexed by input + 128, each entry
 * `fn(input)` computed by the same function the interpreter runs.
 */
export function int8LookupNest(input: OpLoweringInput, fn: (x: number) => number): Stmt {
  const values = Array.from({ length: 256 }, (_, i) => fn(i - 128));
  return withConstTable(`${sanitizeName(input.call.name)}_lut`, 'int8', values, (table) =>
    elementwiseNest(input, ([x]) => bufferLoad(table, [add(i32(x), 128)])),
  );
}
