/**
 * TIR statements → C statements. Unplanned allocations become arrays (stack for `local`,
 * function-static otherwise), planned ones arrive as `LetStmt(var, tir.pool_ptr(...))`.
 * Calls that return int32 and fail (non-zero) make the function return -1.
 */
import { CodegenError } from '../../errors';
import { exprDType } from '../../ir/tir/builder';
import { dtypeBytes } from '../../ir/tir/dtype';
import {
  Allocate,
  ANN_FILL_BYTE,
  ANN_INITIAL_BYTES,
  initialBytesOf,
  AllocateConst,
  Evaluate,
  Expr,
  For,
  LetStmt,
  ScalarDType,
  Stmt,
  Var,
} from '../../ir/tir/nodes';
import { isScopeStmt, ScopeStmt } from '../../ir/tir/scope';
import { DEFAULT_ALIGNMENT } from '../../usmp/types';
import { FuncContext } from './context';
import { arrayInitializer, cElemType, cType } from './ctypes';
import { contiguousCopy } from './copyLoops';
import { emitCast, emitElementRef, emitExpr } from './emitExpr';
import { alignUp } from '../../util/align';

/** Bytes a function holds itself, by kind (reported in metadata). */
export interface StorageStats {
  /** Function-static arrays of unplanned non-local allocations. */
  staticBytes: number;
  /** Stack arrays of `local` allocations. */
  stackBytes: number;
  /** Constant arrays (AllocateConst). */
  constantBytes: number;
}

const FAILING_CALLS: ReadonlySet<string> = new Set(['tir.call_extern', 'tir.tvm_call_cpacked']);

/**
 * Array elements a function may write as C initializer literals (its static arrays with an
 * initial value or fill byte, its constant arrays), 2^24: up to about 150 MB of C. A state
 * tensor's size comes from its shape, not from bytes in the model file, so a 29 KB model
 * whose SVDF batch was 46341 asked for 166M elements of state: building them took 16 s and
 * failed in a JavaScript string join ("Invalid string length").
 */
export const MAX_INITIALIZER_ELEMENTS = 2 ** 24;

export class StmtEmitter {
  private readonly lines: string[] = [];
  private depth = 1;
  private initializerElements = 0;
  readonly stats: StorageStats = { staticBytes: 0, stackBytes: 0, constantBytes: 0 };

  constructor(
    private readonly ctx: FuncContext,
    private readonly used: ReadonlySet<number>,
  ) {}

  text(): string {
    return this.lines.join('\n');
  }

  line(s: string): void {
    this.lines.push(`${'  '.repeat(this.depth)}${s}`);
  }

  /** Declares `v` and voids it when nothing reads it (keeps -Wunused quiet). */
  declare(v: Var, decl: (name: string) => string): string {
    const name = this.ctx.names.bind(v);
    this.line(decl(name));
    if (!this.used.has(v.id)) this.line(`(void)${name};`);
    return name;
  }

  emit(s: Stmt): void {
    // A scope statement declares at the current depth and its body follows at the same depth:
    // a chain of them (main has one per tensor, thousands deep) is followed with a loop.
    let cur = s;
    while (isScopeStmt(cur)) {
      this.emitDeclaration(cur);
      cur = cur.body;
    }
    this.emitUnscoped(cur);
  }

  private emitDeclaration(s: ScopeStmt): void {
    switch (s.kind) {
      case 'Allocate':
        return this.emitAllocate(s);
      case 'AllocateConst':
        return this.emitAllocateConst(s);
      case 'DeclBuffer':
        // Buffers are views; their data var is declared by the allocation or parameter.
        return this.ctx.setElemType(s.buffer.data, s.buffer.dtype);
      case 'LetStmt':
        return this.emitLet(s);
    }
  }

  private emitUnscoped(s: Exclude<Stmt, ScopeStmt>): void {
    switch (s.kind) {
      case 'SeqStmt':
        for (const x of s.seq) this.emit(x);
        return;
      case 'For':
        return this.emitFor(s);
      case 'IfThenElse':
        this.line(`if (${emitExpr(s.condition, this.ctx)}) {`);
        this.block(s.then);
        if (s.else !== undefined) {
          this.line('} else {');
          this.block(s.else);
        }
        this.line('}');
        return;
      case 'BufferStore': {
        const target = emitElementRef(s.buffer, s.indices, this.ctx);
        const value = emitCast(emitExpr(s.value, this.ctx), exprDType(s.value), s.buffer.dtype, this.ctx.func);
        this.line(`${target} = ${value};`);
        return;
      }
      case 'Evaluate':
        return this.emitEvaluate(s);
    }
  }

  private block(s: Stmt): void {
    this.depth++;
    this.emit(s);
    this.depth--;
  }

  private elementCount(extents: readonly Expr[], what: string): number {
    let n = 1;
    for (const e of extents) {
      if (e.kind !== 'IntImm') {
        throw new CodegenError(`allocation ${what} has a non-constant extent`, { func: this.ctx.func, buffer: what });
      }
      n *= e.value;
    }
    return n;
  }

  /** Counts `count` more initializer elements for `what`, refusing past MAX_INITIALIZER_ELEMENTS. */
  private initializer(what: string, count: number): void {
    this.initializerElements += count;
    if (this.initializerElements <= MAX_INITIALIZER_ELEMENTS) return;
    throw new CodegenError(
      `${this.ctx.func}: the initial value of ${what} (${count} elements) would take its C initializers past ` +
        `${MAX_INITIALIZER_ELEMENTS} elements (2^24), more than uma-ts writes as C source: the tensor's shape is too large for generated code`,
      { func: this.ctx.func, buffer: what },
    );
  }

  private emitAllocate(s: Allocate): void {
    const v = s.bufferVar;
    const elem = cElemType(s.dtype, v.name);
    const count = this.elementCount(s.extents, v.name);
    const bytes = count * dtypeBytes(s.dtype);
    this.ctx.setElemType(v, s.dtype);
    // C has no zero-length arrays; one element keeps the declaration valid.
    const length = Math.max(1, count);
    if (s.storageScope === 'local') {
      this.stats.stackBytes += bytes;
      this.declare(v, (n) => `${elem} ${n}[${length}];`);
    } else {
      this.stats.staticBytes += alignUp(bytes, DEFAULT_ALIGNMENT);
      if (hasInitializer(s)) this.initializer(v.name, length);
      const init = fillInitializer(s, length);
      this.declare(v, (n) => `static ${elem} ${n}[${length}] __attribute__((aligned(${DEFAULT_ALIGNMENT})))${init};`);
    }
  }

  private emitAllocateConst(s: AllocateConst): void {
    const v = s.bufferVar;
    const elem = cElemType(s.dtype, v.name);
    const count = this.elementCount(s.extents, v.name);
    const bytes = count * dtypeBytes(s.dtype);
    if (s.data.length !== bytes) {
      throw new CodegenError(
        `constant ${v.name} holds ${s.data.length} bytes but ${count} x ${s.dtype} needs ${bytes}`,
        { func: this.ctx.func, buffer: v.name },
      );
    }
    this.ctx.setElemType(v, s.dtype);
    this.ctx.markConst(v);
    this.stats.constantBytes += bytes;
    this.initializer(v.name, Math.max(1, count));
    const init = arrayInitializer(s.data, s.dtype, v.name).replace(/\n/g, `\n${'  '.repeat(this.depth)}`);
    this.declare(
      v,
      (n) => `static const ${elem} ${n}[${Math.max(1, count)}] __attribute__((aligned(${DEFAULT_ALIGNMENT}))) = ${init};`,
    );
  }

  private emitFor(s: For): void {
    const copy = contiguousCopy(s);
    if (copy) {
      const elem = cElemType(copy.dst.buffer.dtype, copy.dst.buffer.name);
      const dst = emitElementRef(copy.dst.buffer, copy.dst.indices, this.ctx);
      const src = emitElementRef(copy.src.buffer, copy.src.indices, this.ctx);
      this.line(`memmove(&${dst}, &${src}, ${copy.count.value} * sizeof(${elem}));`);
      return;
    }
    const loopType = cType(s.loopVar.dtype);
    const min = emitExpr(s.min, this.ctx);
    const end =
      s.min.kind === 'IntImm' && s.extent.kind === 'IntImm'
        ? `${s.min.value + s.extent.value}`
        : `(${min} + ${emitExpr(s.extent, this.ctx)})`;
    if (s.forKind !== 'serial') this.line(`/* ${s.forKind} loop, emitted as a serial loop */`);
    const name = this.ctx.names.bind(s.loopVar);
    this.line(`for (${loopType} ${name} = ${min}; ${name} < ${end}; ++${name}) {`);
    this.block(s.body);
    this.line('}');
  }

  private emitLet(s: LetStmt): void {
    const v = s.var;
    if (v.dtype === 'handle') {
      const pointee = v.pointee ?? pointeeOfValue(s.value, this.ctx);
      if (pointee !== undefined) this.ctx.setElemType(v, pointee);
      const ptrType = this.ctx.pointerType(v);
      const value = emitExpr(s.value, this.ctx);
      this.declare(v, (n) => `${ptrType} ${n} = (${ptrType})${value};`);
    } else {
      const value = emitCast(emitExpr(s.value, this.ctx), exprDType(s.value), v.dtype, this.ctx.func);
      this.declare(v, (n) => `${cType(v.dtype)} ${n} = ${value};`);
    }
  }

  private emitEvaluate(s: Evaluate): void {
    const e = s.value;
    if (e.kind === 'Call' && FAILING_CALLS.has(e.op) && e.dtype === 'int32') {
      this.line(`if (${emitExpr(e, this.ctx)} != 0) {`);
      this.line('  return -1;');
      this.line('}');
      return;
    }
    if (e.kind === 'Call' && FAILING_CALLS.has(e.op)) {
      this.line(`${emitExpr(e, this.ctx)};`);
      return;
    }
    if (e.kind === 'IntImm') return;
    this.line(`(void)${emitExpr(e, this.ctx)};`);
  }
}

/** Element type a handle let inherits from its value (a pointer var or address_of). */
function pointeeOfValue(value: Expr, ctx: FuncContext): ScalarDType | undefined {
  if (value.kind === 'Var' && value.dtype === 'handle') return ctx.elemType(value);
  if (value.kind === 'Call' && value.op === 'tir.address_of' && value.args[0]?.kind === 'BufferLoad') {
    return value.args[0].buffer.dtype;
  }
  return undefined;
}

/** Whether fillInitializer writes an initializer for `s`. */
function hasInitializer(s: Allocate): boolean {
  const fill = s.annotations[ANN_FILL_BYTE];
  return s.annotations[ANN_INITIAL_BYTES] !== undefined || (typeof fill === 'number' && fill !== 0);
}

/**
 * ` = { v, v, ... }` for a static array whose bytes all start as `uma.fill_byte` (persistent
 * int8 state reset to its zero point); empty when it starts at zero, as static storage does.
 */
function fillInitializer(s: Allocate, length: number): string {
  const initial = initialBytesOf(s, length * dtypeBytes(s.dtype));
  if (initial) return ` = ${arrayInitializer(initial, s.dtype, s.bufferVar.name)}`;
  const fill = s.annotations[ANN_FILL_BYTE];
  if (typeof fill !== 'number' || fill === 0) return '';
  if (dtypeBytes(s.dtype) !== 1) {
    throw new CodegenError(`allocation ${s.bufferVar.name}: a fill byte is supported for 1-byte elements only`, { buffer: s.bufferVar.name });
  }
  const value = s.dtype === 'int8' ? (fill << 24) >> 24 : fill;
  return ` = {${Array.from({ length }, () => value).join(', ')}}`;
}
