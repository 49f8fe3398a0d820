/**
 * One PrimFunc → one C function `TVM_DLL int32_t <symbol>(<typed params>)` returning 0 on
 * success and -1 when a called kernel fails.
 */
import {
  Allocate,
  AllocateConst,
  Buffer,
  PrimFunc,
  ScalarDType,
  Var,
} from '../../ir/tir/nodes';
import { StmtExprVisitor } from '../../ir/tir/visitor';
import { CalleeSignature, ExternUse, FuncContext } from './context';
import { cElemType, cType } from './ctypes';
import { StmtEmitter, StorageStats } from './emitStmt';
import { NameScope } from './names';
import { usedVarIds } from './usedVars';

export interface EmittedFunc {
  /** TIR name. */
  readonly name: string;
  readonly symbol: string;
  /** `TVM_DLL int32_t sym(...);` */
  readonly prototype: string;
  readonly definition: string;
  /** Module functions called (TIR names). */
  readonly calledFuncs: ReadonlySet<string>;
  readonly externs: ReadonlyMap<string, ExternUse>;
  readonly stats: StorageStats;
}

function paramElemType(p: Var, f: PrimFunc): ScalarDType {
  if (p.pointee !== undefined) return p.pointee;
  const entry = f.bufferMap.find(([v]) => v.id === p.id);
  return entry?.[1].dtype ?? 'uint8';
}

/** C types of a PrimFunc's parameters, in order. */
export function paramCTypes(f: PrimFunc): string[] {
  return f.params.map((p) => (p.dtype === 'handle' ? `${cElemType(paramElemType(p, f), p.name)}*` : cType(p.dtype)));
}

export function signatureOf(f: PrimFunc, symbol: string): CalleeSignature {
  return { symbol, paramTypes: paramCTypes(f) };
}

/** Element types behind handle vars: allocations first, then any buffer viewing the var. */
class ElemTypeScan extends StmtExprVisitor {
  readonly fromAlloc = new Map<number, ScalarDType>();
  readonly fromBuffer = new Map<number, ScalarDType>();

  override visitAllocate(s: Allocate): void {
    this.fromAlloc.set(s.bufferVar.id, s.dtype);
    super.visitAllocate(s);
  }

  override visitAllocateConst(s: AllocateConst): void {
    this.fromAlloc.set(s.bufferVar.id, s.dtype);
    super.visitAllocateConst(s);
  }

  override visitBuffer(b: Buffer): void {
    if (!this.fromBuffer.has(b.data.id)) this.fromBuffer.set(b.data.id, b.dtype);
    super.visitBuffer(b);
  }
}

export function emitPrimFunc(
  name: string,
  f: PrimFunc,
  symbol: string,
  module: ReadonlyMap<string, CalleeSignature>,
  globals: NameScope,
  replaceCallExtern?: (name: string, args: readonly string[]) => string | undefined,
): EmittedFunc {
  const ctx = new FuncContext(name, module, globals, replaceCallExtern);
  const scan = new ElemTypeScan();
  scan.visitStmt(f.body);
  for (const p of f.params) {
    if (p.dtype === 'handle') ctx.setElemType(p, paramElemType(p, f));
  }
  for (const [id, dt] of scan.fromAlloc) ctx.setElemType({ id }, dt);
  for (const [id, dt] of scan.fromBuffer) ctx.setElemType({ id }, dt);

  const types = paramCTypes(f);
  const used = usedVarIds(f);
  const paramDecls = f.params.map((p, i) => `${types[i]} ${ctx.names.bind(p)}`);
  const signature = `TVM_DLL int32_t ${symbol}(${paramDecls.length > 0 ? paramDecls.join(', ') : 'void'})`;

  const body = new StmtEmitter(ctx, used);
  for (const p of f.params) {
    if (!used.has(p.id)) body.line(`(void)${ctx.names.lookup(p, name)};`);
  }
  body.emit(f.body);
  body.line('return 0;');

  const prototypeParams = types.length > 0 ? types.join(', ') : 'void';
  return {
    name,
    symbol,
    prototype: `TVM_DLL int32_t ${symbol}(${prototypeParams});`,
    definition: `${signature} {\n${body.text()}\n}`,
    calledFuncs: ctx.calledFuncs,
    externs: ctx.externs,
    stats: body.stats,
  };
}
