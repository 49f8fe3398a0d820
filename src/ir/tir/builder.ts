/**
 * Constructors for TIR nodes. They fill defaults (scope `global`, empty annotations,
 * dtype inference for arithmetic) so passes stay short and nodes stay well formed.
 */
import {
  Allocate,
  AllocateConst,
  Annotations,
  BinaryOp,
  BinaryOpKind,
  Buffer,
  BufferLoad,
  BufferStore,
  Call,
  Cast,
  DeclBuffer,
  Evaluate,
  Expr,
  FloatImm,
  For,
  ForKind,
  IfThenElse,
  IntImm,
  LetStmt,
  Not,
  PrimFunc,
  PrimFuncAttrs,
  ScalarDType,
  Select,
  SeqStmt,
  Stmt,
  StringImm,
  TirModule,
  Var,
} from './nodes';

let nextVarId = 1;

/** A fresh variable; every call yields a distinct identity. */
export function makeVar(name: string, dtype: ScalarDType = 'int32', pointee?: ScalarDType): Var {
  return pointee === undefined
    ? { kind: 'Var', name, dtype, id: nextVarId++ }
    : { kind: 'Var', name, dtype, id: nextVarId++, pointee };
}

/** Keeps ids unique after nodes were created elsewhere (e.g. parsed from JSON). */
export function reserveVarIds(maxSeenId: number): void {
  if (maxSeenId >= nextVarId) nextVarId = maxSeenId + 1;
}

export function intImm(value: number, dtype: ScalarDType = 'int32'): IntImm {
  return { kind: 'IntImm', dtype, value };
}

export function floatImm(value: number): FloatImm {
  return { kind: 'FloatImm', dtype: 'float32', value };
}

export function stringImm(value: string): StringImm {
  return { kind: 'StringImm', value };
}

export type ExprLike = Expr | number;

export function toExpr(e: ExprLike): Expr {
  return typeof e === 'number' ? intImm(e) : e;
}

const COMPARISONS: ReadonlySet<BinaryOpKind> = new Set(['EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'And', 'Or']);

export function exprDType(e: Expr): ScalarDType {
  switch (e.kind) {
    case 'Var':
    case 'IntImm':
    case 'FloatImm':
    case 'BinaryOp':
    case 'Select':
    case 'Cast':
    case 'Call':
      return e.dtype;
    case 'StringImm':
      return 'handle';
    case 'Not':
      return 'bool';
    case 'BufferLoad':
      return e.buffer.dtype;
  }
}

export function binary(op: BinaryOpKind, a: ExprLike, b: ExprLike): BinaryOp {
  const ea = toExpr(a);
  const eb = toExpr(b);
  const dtype = COMPARISONS.has(op) ? 'bool' : exprDType(ea);
  return { kind: 'BinaryOp', op, dtype, a: ea, b: eb };
}

export const add = (a: ExprLike, b: ExprLike): BinaryOp => binary('Add', a, b);
export const sub = (a: ExprLike, b: ExprLike): BinaryOp => binary('Sub', a, b);
export const mul = (a: ExprLike, b: ExprLike): BinaryOp => binary('Mul', a, b);
export const floorDiv = (a: ExprLike, b: ExprLike): BinaryOp => binary('FloorDiv', a, b);
export const floorMod = (a: ExprLike, b: ExprLike): BinaryOp => binary('FloorMod', a, b);
export const min = (a: ExprLike, b: ExprLike): BinaryOp => binary('Min', a, b);
export const max = (a: ExprLike, b: ExprLike): BinaryOp => binary('Max', a, b);
export const lt = (a: ExprLike, b: ExprLike): BinaryOp => binary('LT', a, b);
export const le = (a: ExprLike, b: ExprLike): BinaryOp => binary('LE', a, b);
export const ge = (a: ExprLike, b: ExprLike): BinaryOp => binary('GE', a, b);
export const eq = (a: ExprLike, b: ExprLike): BinaryOp => binary('EQ', a, b);
export const and = (a: ExprLike, b: ExprLike): BinaryOp => binary('And', a, b);

export function not(a: Expr): Not {
  return { kind: 'Not', a };
}

export function select(cond: Expr, t: ExprLike, f: ExprLike): Select {
  const et = toExpr(t);
  return { kind: 'Select', dtype: exprDType(et), cond, t: et, f: toExpr(f) };
}

export function cast(dtype: ScalarDType, value: ExprLike): Cast {
  return { kind: 'Cast', dtype, value: toExpr(value) };
}

export function call(op: string, dtype: ScalarDType, args: readonly ExprLike[]): Call {
  return { kind: 'Call', op, dtype, args: args.map(toExpr) };
}

/** `call_extern("name", args...)` returning int32, as UMA codegen emits for kernels. */
export function callExtern(name: string, args: readonly ExprLike[], dtype: ScalarDType = 'int32'): Call {
  return call('tir.call_extern', dtype, [stringImm(name), ...args]);
}

export function callCpacked(name: string, args: readonly ExprLike[]): Call {
  return call('tir.tvm_call_cpacked', 'int32', [stringImm(name), ...args]);
}

export function addressOf(load: BufferLoad): Call {
  return call('tir.address_of', 'handle', [load]);
}

export function makeBuffer(
  name: string,
  dtype: ScalarDType,
  shape: readonly ExprLike[],
  data?: Var,
  scope = 'global',
): Buffer {
  return {
    kind: 'Buffer',
    name,
    data: data ?? makeVar(name, 'handle', dtype),
    dtype,
    shape: shape.map(toExpr),
    elemOffset: 0,
    scope,
  };
}

export function bufferLoad(buffer: Buffer, indices: readonly ExprLike[]): BufferLoad {
  return { kind: 'BufferLoad', buffer, indices: indices.map(toExpr) };
}

export function bufferStore(buffer: Buffer, value: ExprLike, indices: readonly ExprLike[]): BufferStore {
  return { kind: 'BufferStore', buffer, value: toExpr(value), indices: indices.map(toExpr) };
}

export function allocate(args: {
  bufferVar: Var;
  dtype: ScalarDType;
  extents: readonly ExprLike[];
  body: Stmt;
  storageScope?: string;
  annotations?: Annotations;
  condition?: Expr;
}): Allocate {
  return {
    kind: 'Allocate',
    bufferVar: args.bufferVar,
    dtype: args.dtype,
    extents: args.extents.map(toExpr),
    condition: args.condition ?? intImm(1, 'bool'),
    storageScope: args.storageScope ?? 'global',
    annotations: args.annotations ?? {},
    body: args.body,
  };
}

export function allocateConst(args: {
  bufferVar: Var;
  dtype: ScalarDType;
  extents: readonly ExprLike[];
  data: Uint8Array;
  body: Stmt;
  annotations?: Annotations;
}): AllocateConst {
  return {
    kind: 'AllocateConst',
    bufferVar: args.bufferVar,
    dtype: args.dtype,
    extents: args.extents.map(toExpr),
    data: args.data,
    annotations: args.annotations ?? {},
    body: args.body,
  };
}

export function declBuffer(buffer: Buffer, body: Stmt): DeclBuffer {
  return { kind: 'DeclBuffer', buffer, body };
}

export function forLoop(
  loopVar: Var,
  min: ExprLike,
  extent: ExprLike,
  body: Stmt,
  forKind: ForKind = 'serial',
  annotations: Annotations = {},
): For {
  return { kind: 'For', loopVar, min: toExpr(min), extent: toExpr(extent), forKind, annotations, body };
}

/** Flattens nested sequences and drops a one-element sequence to its only statement. */
export function seq(stmts: readonly Stmt[]): Stmt {
  const flat: Stmt[] = [];
  for (const s of stmts) {
    if (s.kind === 'SeqStmt') flat.push(...s.seq);
    else flat.push(s);
  }
  if (flat.length === 1) return flat[0];
  const node: SeqStmt = { kind: 'SeqStmt', seq: flat };
  return node;
}

export function letStmt(v: Var, value: ExprLike, body: Stmt): LetStmt {
  return { kind: 'LetStmt', var: v, value: toExpr(value), body };
}

export function ifThenElse(condition: Expr, then: Stmt, otherwise?: Stmt): IfThenElse {
  return otherwise === undefined
    ? { kind: 'IfThenElse', condition, then }
    : { kind: 'IfThenElse', condition, then, else: otherwise };
}

export function evaluate(value: ExprLike): Evaluate {
  return { kind: 'Evaluate', value: toExpr(value) };
}

export function primFunc(args: {
  params: readonly Var[];
  bufferMap?: ReadonlyArray<readonly [Var, Buffer]>;
  body: Stmt;
  attrs?: PrimFuncAttrs;
}): PrimFunc {
  return {
    kind: 'PrimFunc',
    params: args.params,
    bufferMap: args.bufferMap ?? [],
    body: args.body,
    attrs: args.attrs ?? {},
  };
}

export function tirModule(functions: Iterable<readonly [string, PrimFunc]>): TirModule {
  return { functions: new Map(functions) };
}
