/**
 * TIR expressions → C expressions. Every compound result is parenthesized, so operator
 * precedence never depends on the context. Arithmetic on types narrower than `int` is
 * wrapped back to its TIR type (C would silently promote it).
 */
import { CodegenError } from '../../errors';
import { exprDType } from '../../ir/tir/builder';
import { BinaryOp, Buffer, BufferLoad, Call, Expr, ScalarDType, Var } from '../../ir/tir/nodes';
import { FuncContext } from './context';
import { cElemType, cType, floatLiteral, intLiteral, isIntDType, stringLiteral } from './ctypes';

export function emitExpr(e: Expr, ctx: FuncContext): string {
  switch (e.kind) {
    case 'Var':
      return e.dtype === 'handle' ? pointerValue(e, ctx) : ctx.names.lookup(e, ctx.func);
    case 'IntImm':
      return intLiteral(e.value, e.dtype);
    case 'FloatImm':
      return floatLiteral(e.value);
    case 'StringImm':
      return stringLiteral(e.value);
    case 'BinaryOp':
      return emitBinary(e, ctx);
    case 'Not':
      return `(!${emitExpr(e.a, ctx)})`;
    case 'Select':
      // TIR evaluates both arms; a float32 choice is made on the bits (uma_select_f32),
      // since compilers keep a float ?: as a branch on the data (LEAKY_RELU, ELU).
      if (e.dtype === 'float32') return `uma_select_f32(${emitExpr(e.cond, ctx)}, ${emitExpr(e.t, ctx)}, ${emitExpr(e.f, ctx)})`;
      return `(${emitExpr(e.cond, ctx)} ? ${emitExpr(e.t, ctx)} : ${emitExpr(e.f, ctx)})`;
    case 'Cast':
      return emitCast(emitExpr(e.value, ctx), exprDType(e.value), e.dtype, ctx.func);
    case 'BufferLoad':
      return emitElementRef(e.buffer, e.indices, ctx);
    case 'Call':
      return emitCall(e, ctx);
  }
}

/**
 * A handle var as a value. Constant arrays are `static const`; callees take plain pointers,
 * so the const is cast away here (the callee never writes through weights).
 */
export function pointerValue(v: Var, ctx: FuncContext): string {
  const name = ctx.names.lookup(v, ctx.func);
  return ctx.isConst(v) ? `((${ctx.pointerType(v)})${name})` : name;
}

/** Converts C text of TIR type `from` to TIR type `to` without undefined behaviour. */
export function emitCast(value: string, from: ScalarDType, to: ScalarDType, func: string): string {
  if (from === to) return value;
  if (to === 'bool') return `(${value} != 0)`;
  if (to === 'float32') return `((float)${value})`;
  if (to === 'handle' || from === 'handle' || to === 'void' || from === 'void') {
    throw new CodegenError(`cannot cast ${from} to ${to}`, { func });
  }
  if (from === 'float32') {
    if (to === 'int64') return `uma_f32_to_i64(${value})`;
    return emitCast(`uma_f32_to_i32(${value})`, 'int32', to, func);
  }
  // uint64 past 2^63 reaches the int64 wrap helpers as gcc converts it: modulo 2^64.
  const widen = from === 'uint64' ? `(int64_t)${value}` : value;
  switch (to) {
    case 'uint32':
    case 'uint64':
      // Conversion to an unsigned type is defined modulo 2^N in C.
      return `((${to}_t)${value})`;
    case 'int64':
      // From uint64 implementation-defined in C; gcc and clang wrap, as TFLite's static_cast.
      return `((int64_t)${value})`;
    case 'int32':
      return from === 'int64' || from === 'uint32' || from === 'uint64' ? `uma_wrap_i32(${from === 'int64' ? value : `(int64_t)${value}`})` : `((int32_t)${value})`;
    case 'int16':
      return from === 'int8' || from === 'uint8' || from === 'bool' ? `((int16_t)${value})` : `uma_wrap_i16(${widen})`;
    case 'int8':
      return from === 'bool' ? `((int8_t)${value})` : `uma_wrap_i8(${widen})`;
    case 'uint8':
      // Conversion to an unsigned type is defined modulo 2^8 in C.
      return `((uint8_t)${value})`;
    default:
      throw new CodegenError(`cannot cast ${from} to ${to}`, { func });
  }
}

/** Brings C text of an `int`-promoted result back to a narrow TIR integer type. */
function wrapNarrow(value: string, dtype: ScalarDType): string {
  switch (dtype) {
    case 'int8':
      return `uma_wrap_i8(${value})`;
    case 'int16':
      return `uma_wrap_i16(${value})`;
    case 'uint8':
      return `((uint8_t)${value})`;
    default:
      return value;
  }
}

const INFIX: Partial<Record<BinaryOp['op'], string>> = {
  Add: '+',
  Sub: '-',
  Mul: '*',
  Div: '/',
  EQ: '==',
  NE: '!=',
  LT: '<',
  LE: '<=',
  GT: '>',
  GE: '>=',
  And: '&&',
  Or: '||',
};

function helperSuffix(dtype: ScalarDType): 'i32' | 'i64' | 'f32' {
  if (dtype === 'int64') return 'i64';
  if (dtype === 'float32') return 'f32';
  return 'i32';
}

function emitBinary(e: BinaryOp, ctx: FuncContext): string {
  const a = emitExpr(e.a, ctx);
  const b = emitExpr(e.b, ctx);
  const operandType = exprDType(e.a);
  switch (e.op) {
    case 'Add':
    case 'Sub':
    case 'Mul':
    case 'Div':
      return wrapNarrow(`(${a} ${INFIX[e.op]} ${b})`, e.dtype);
    case 'FloorDiv':
    case 'FloorMod': {
      // TFLite's FloorDiv<float>: floor of the double quotient, as the evaluator's float FloorDiv.
      if (e.op === 'FloorDiv' && e.dtype === 'float32') return `((float)floor((double)${a} / (double)${b}))`;
      if (!isIntDType(e.dtype)) {
        throw new CodegenError(`${e.op} on ${e.dtype} is not supported by the C emitter`, { func: ctx.func });
      }
      const helper = `uma_${e.op === 'FloorDiv' ? 'floordiv' : 'floormod'}_${helperSuffix(e.dtype)}`;
      return wrapNarrow(`${helper}(${a}, ${b})`, e.dtype);
    }
    case 'Min':
    case 'Max': {
      // The min/max of two values of a narrow type is of that type: no wrap needed.
      const name = `uma_${e.op === 'Min' ? 'min' : 'max'}_${helperSuffix(e.dtype)}`;
      // float32 against 0 (a ReLU): activations fall on either side about equally, so the
      // choice is made on the bits. Other bounds (the type's range, 6, the float range's end)
      // are rarely reached, where a branch is always predicted and costs less.
      const zero = (x: Expr) => x.kind === 'FloatImm' && x.value === 0;
      if (e.dtype === 'float32' && (zero(e.a) || zero(e.b))) return `${name}_sel(${a}, ${b})`;
      return `${name}(${a}, ${b})`;
    }
    default: {
      // Comparisons of narrow integers compare their promoted values; casting the operands
      // to int32 keeps gcc's -Wtype-limits quiet about always-true unsigned tests.
      const ca = isIntDType(operandType) && operandType !== 'int64' ? `((int32_t)${a})` : a;
      const cb = isIntDType(exprDType(e.b)) && exprDType(e.b) !== 'int64' ? `((int32_t)${b})` : b;
      return `(${ca} ${INFIX[e.op]} ${cb})`;
    }
  }
}

/** Row-major flat index of `indices` into `buffer` (plus its element offset), folded. */
export function flatIndex(buffer: Buffer, indices: readonly Expr[], ctx: FuncContext): string {
  const shape = buffer.shape;
  if (indices.length !== shape.length && indices.length !== 1) {
    throw new CodegenError(
      `buffer ${buffer.name} has ${shape.length} dimensions but is indexed with ${indices.length}`,
      { func: ctx.func, buffer: buffer.name },
    );
  }
  let constPart = buffer.elemOffset;
  let text: string | undefined;
  indices.forEach((idx, d) => {
    if (d > 0 && indices.length === shape.length) {
      const dim = shape[d];
      if (dim.kind === 'IntImm') {
        constPart *= dim.value;
        if (text !== undefined && dim.value !== 1) text = `(${text} * ${dim.value})`;
      } else {
        const dimText = emitExpr(dim, ctx);
        text = text === undefined ? undefined : `(${text} * ${dimText})`;
        if (constPart !== 0) text = text === undefined ? `(${constPart} * ${dimText})` : `(${text} + (${constPart} * ${dimText}))`;
        constPart = 0;
      }
    }
    if (idx.kind === 'IntImm') constPart += idx.value;
    else {
      const t = emitExpr(idx, ctx);
      text = text === undefined ? t : `(${text} + ${t})`;
    }
  });
  if (text === undefined) return `${constPart}`;
  return constPart === 0 ? text : `(${text} + ${constPart})`;
}

/** `data[idx]`, reinterpreting the data pointer when the buffer views it as another type. */
export function emitElementRef(buffer: Buffer, indices: readonly Expr[], ctx: FuncContext): string {
  const base = ctx.names.lookup(buffer.data, ctx.func);
  const index = flatIndex(buffer, indices, ctx);
  const elem = cElemType(buffer.dtype, buffer.name);
  if (buffer.data.dtype !== 'handle') {
    throw new CodegenError(`buffer ${buffer.name} is backed by a non-handle var`, { func: ctx.func, buffer: buffer.name });
  }
  if (ctx.elemType(buffer.data) === buffer.dtype) return `${base}[${index}]`;
  const qual = ctx.isConst(buffer.data) ? 'const ' : '';
  return `((${qual}${elem}*)${base})[${index}]`;
}

function emitArgs(args: readonly Expr[], ctx: FuncContext): string[] {
  return args.map((a) => emitExpr(a, ctx));
}

function callName(e: Call, ctx: FuncContext): string {
  const head = e.args[0];
  if (head === undefined || head.kind !== 'StringImm') {
    throw new CodegenError(`${e.op} needs the callee name as its first argument`, { func: ctx.func });
  }
  return head.value;
}

/** C type of an expression as an argument of an external function. */
export function argCType(e: Expr, ctx: FuncContext): string {
  if (e.kind === 'Var' && e.dtype === 'handle') return ctx.pointerType(e);
  if (e.kind === 'StringImm') return 'const char*';
  if (e.kind === 'Call' && e.op === 'tir.address_of') {
    const load = e.args[0];
    if (load?.kind === 'BufferLoad') return `${cElemType(load.buffer.dtype, load.buffer.name)}*`;
  }
  const dt = exprDType(e);
  return dt === 'handle' ? 'void*' : cType(dt);
}

function emitFunctionCall(e: Call, ctx: FuncContext): string {
  const name = callName(e, ctx);
  const args = e.args.slice(1);
  const callee = ctx.module.get(name);
  if (callee !== undefined) {
    if (callee.paramTypes.length !== args.length) {
      throw new CodegenError(
        `call to ${name} passes ${args.length} arguments, the function takes ${callee.paramTypes.length}`,
        { func: ctx.func },
      );
    }
    ctx.calledFuncs.add(name);
    const texts = args.map((a, i) => {
      const pt = callee.paramTypes[i];
      if (a.kind === 'Var' && a.dtype === 'handle') {
        // Same element type and writable: the pointer passes as is; otherwise convert.
        const name = ctx.names.lookup(a, ctx.func);
        return ctx.pointerType(a) === pt && !ctx.isConst(a) ? name : `(${pt})${name}`;
      }
      const t = emitExpr(a, ctx);
      return pt.endsWith('*') && exprDType(a) === 'handle' ? `(${pt})${t}` : t;
    });
    return `${callee.symbol}(${texts.join(', ')})`;
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new CodegenError(`external function name "${name}" is not a C identifier`, { func: ctx.func });
  }
  const texts = emitArgs(args, ctx);
  const custom = ctx.replaceCallExtern?.(name, texts);
  if (custom !== undefined) return custom;
  ctx.noteExtern(
    name,
    cType(e.dtype),
    args.map((a) => argCType(a, ctx)),
  );
  return `${name}(${texts.join(', ')})`;
}

function emitCall(e: Call, ctx: FuncContext): string {
  switch (e.op) {
    case 'tir.call_extern':
    case 'tir.tvm_call_cpacked':
      return emitFunctionCall(e, ctx);
    case 'tir.address_of': {
      const load = e.args[0];
      if (load?.kind !== 'BufferLoad') {
        throw new CodegenError('tir.address_of needs a BufferLoad argument', { func: ctx.func });
      }
      const ref = emitElementRef(load.buffer, load.indices, ctx);
      const elem = cElemType(load.buffer.dtype, load.buffer.name);
      return ctx.isConst(load.buffer.data) ? `((${elem}*)&${ref})` : `(&${ref})`;
    }
    case 'tir.q_multiply_shift': {
      const args = qMultiplyShiftArgs(e, ctx);
      // An int64 accumulator selects TFLite's 64-bit overload (the 16x8 kernels).
      const fn = exprDType(args[0]) === 'int64' ? 'uma_q_multiply_shift64' : 'uma_q_multiply_shift';
      return `${fn}(${emitArgs(args, ctx).join(', ')})`;
    }
    case 'tir.pool_ptr': {
      const [pool, offset] = e.args;
      if (e.args.length !== 2 || pool.kind !== 'Var' || pool.dtype !== 'handle') {
        throw new CodegenError('tir.pool_ptr needs (pool handle var, byte offset)', { func: ctx.func });
      }
      const name = ctx.names.lookup(pool, ctx.func);
      const off = emitExpr(offset, ctx);
      return ctx.elemType(pool) === 'uint8' && !ctx.isConst(pool)
        ? `(&${name}[${off}])`
        : `((uint8_t*)${name} + ${off})`;
    }
    case 'tir.if_then_else': {
      if (e.args.length !== 3) throw new CodegenError('tir.if_then_else needs 3 arguments', { func: ctx.func });
      const [c, t, f] = emitArgs(e.args, ctx);
      return `(${c} ? ${t} : ${f})`;
    }
    case 'tir.tvm_access_ptr': {
      const [dt, data, offset] = e.args;
      if (dt?.kind !== 'StringImm' || data?.kind !== 'Var' || offset === undefined) {
        throw new CodegenError('tir.tvm_access_ptr needs (dtype, data var, offset, ...)', { func: ctx.func });
      }
      const elem = cElemType(dt.value as ScalarDType, data.name);
      return `((${elem}*)${ctx.names.lookup(data, ctx.func)} + ${emitExpr(offset, ctx)})`;
    }
    default:
      return emitIntrinsic(e, ctx);
  }
}

/** (x, multiplier, shift); TVM's 4-argument form (x, m, 31, shift) is accepted too. */
function qMultiplyShiftArgs(e: Call, ctx: FuncContext): readonly Expr[] {
  if (e.args.length === 3) return e.args;
  const q = e.args[2];
  if (e.args.length === 4 && q.kind === 'IntImm' && q.value === 31) return [e.args[0], e.args[1], e.args[3]];
  throw new CodegenError('tir.q_multiply_shift needs (x, multiplier, shift)', { func: ctx.func });
}

/** C float functions (math.h) for the float intrinsics. */
const FLOAT_MATH: Readonly<Record<string, string>> = {
  'tir.sqrt': 'sqrtf',
  'tir.floor': 'floorf',
  'tir.ceil': 'ceilf',
  'tir.fabs': 'fabsf',
};

/**
 * Float intrinsics the runtime header computes (uma_runtime.h), with the same double
 * operations as the TIR evaluator (src/arith/floatMath.ts): bit for bit the interpreter's,
 * and faster than libm's double functions rounded to float.
 */
const RUNTIME_MATH: Readonly<Record<string, string>> = {
  'tir.exp': 'uma_exp_f32',
  'tir.log': 'uma_log_f32',
  'tir.tanh': 'uma_tanh_f32',
  'tir.sin': 'uma_sin_f32',
  'tir.cos': 'uma_cos_f32',
};

/**
 * Float intrinsics computed by the double libm function and rounded to float, so they agree
 * with the TIR evaluator's `Math.fn` rounded to float (glibc's expm1f is not
 * correctly rounded; the double functions rounded to float agree on all tested inputs).
 */
const DOUBLE_MATH: Readonly<Record<string, string>> = {
  'tir.expm1': 'expm1',
};

const BITWISE: Readonly<Record<string, string>> = {
  'tir.bitwise_and': '&',
  'tir.bitwise_or': '|',
  'tir.bitwise_xor': '^',
};

function emitIntrinsic(e: Call, ctx: FuncContext): string {
  const args = emitArgs(e.args, ctx);
  const arity = (n: number): void => {
    if (e.args.length !== n) throw new CodegenError(`${e.op} needs ${n} argument(s)`, { func: ctx.func });
  };
  const fn = FLOAT_MATH[e.op] ?? RUNTIME_MATH[e.op];
  if (fn !== undefined) {
    arity(1);
    return `${fn}(${emitCast(args[0], exprDType(e.args[0]), 'float32', ctx.func)})`;
  }
  const dfn = DOUBLE_MATH[e.op];
  if (dfn !== undefined) {
    arity(1);
    return `((float)${dfn}((double)${emitCast(args[0], exprDType(e.args[0]), 'float32', ctx.func)}))`;
  }
  const bit = BITWISE[e.op];
  if (bit !== undefined) {
    arity(2);
    return wrapNarrow(`(${args[0]} ${bit} ${args[1]})`, e.dtype);
  }
  switch (e.op) {
    case 'tir.bitwise_not':
      arity(1);
      return wrapNarrow(`(~${args[0]})`, e.dtype);
    case 'tir.abs':
      arity(1);
      return e.dtype === 'float32' ? `fabsf(${args[0]})` : wrapNarrow(`uma_abs_i32(${args[0]})`, e.dtype);
    case 'tir.fmod':
      arity(2);
      return `fmodf(${args[0]}, ${args[1]})`;
    case 'tir.shift_left':
      arity(2);
      return wrapNarrow(`uma_shl_i32(${args[0]}, ${args[1]})`, e.dtype);
    case 'tir.shift_right':
      arity(2);
      return wrapNarrow(`uma_asr_i32(${args[0]}, ${args[1]})`, e.dtype);
    default:
      throw new CodegenError(`unsupported TIR call ${e.op}`, { func: ctx.func });
  }
}
