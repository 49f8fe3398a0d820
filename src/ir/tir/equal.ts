/**
 * Structural equality of TIR modulo variable identity, as TVM's `structural_equal` with
 * free vars mapped: two vars are equal when they sit in the same binding position (params,
 * loop vars, let vars, allocate vars, buffer data vars) or, for vars not bound in the
 * compared nodes, when they are first met at the same place. The mapping is a bijection,
 * so `x + y` never equals `x + x`. Names are hints and ignored unless `compareNames` is set.
 */
import {
  AnnotationValue,
  Annotations,
  Buffer,
  Expr,
  PrimFunc,
  Stmt,
  TirModule,
  Var,
} from './nodes';
import { isScopeStmt, ScopeStmt } from './scope';

export interface StructuralEqualOptions {
  /** Also require vars and buffers to carry the same names. */
  readonly compareNames?: boolean;
}

type Comparable = Expr | Stmt | Buffer | PrimFunc | TirModule;

class VarMap {
  private readonly aToB = new Map<number, number>();
  private readonly bToA = new Map<number, number>();
  constructor(private readonly compareNames: boolean) {}

  vars(a: Var, b: Var): boolean {
    if (a.dtype !== b.dtype || a.pointee !== b.pointee) return false;
    if (this.compareNames && a.name !== b.name) return false;
    const mappedB = this.aToB.get(a.id);
    const mappedA = this.bToA.get(b.id);
    if (mappedB === undefined && mappedA === undefined) {
      this.aToB.set(a.id, b.id);
      this.bToA.set(b.id, a.id);
      return true;
    }
    return mappedB === b.id && mappedA === a.id;
  }
}

function valuesEqual(a: AnnotationValue | undefined, b: AnnotationValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === undefined || b === undefined) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    const xs = a as readonly AnnotationValue[];
    const ys = b as readonly AnnotationValue[];
    return Array.isArray(a) && Array.isArray(b) && xs.length === ys.length && xs.every((x, i) => valuesEqual(x, ys[i]));
  }
  return recordsEqual(a as Annotations, b as Annotations);
}

function recordsEqual(
  a: Readonly<Record<string, AnnotationValue | undefined>>,
  b: Readonly<Record<string, AnnotationValue | undefined>>,
): boolean {
  const keys = (r: typeof a): string[] => Object.keys(r).filter((k) => r[k] !== undefined);
  const ka = keys(a);
  return ka.length === keys(b).length && ka.every((k) => valuesEqual(a[k], b[k]));
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function numbersEqual(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

class Comparer {
  constructor(
    private readonly m: VarMap,
    private readonly compareNames: boolean,
  ) {}

  private all<T>(xs: readonly T[], ys: readonly T[], eq: (x: T, y: T) => boolean): boolean {
    return xs.length === ys.length && xs.every((x, i) => eq(x, ys[i]));
  }

  private exprs(xs: readonly Expr[], ys: readonly Expr[]): boolean {
    return this.all(xs, ys, (x, y) => this.expr(x, y));
  }

  buffer(a: Buffer, b: Buffer): boolean {
    return (
      (!this.compareNames || a.name === b.name) &&
      a.dtype === b.dtype &&
      a.elemOffset === b.elemOffset &&
      a.scope === b.scope &&
      this.m.vars(a.data, b.data) &&
      this.exprs(a.shape, b.shape)
    );
  }

  expr(a: Expr, b: Expr): boolean {
    switch (a.kind) {
      case 'Var':
        return b.kind === 'Var' && this.m.vars(a, b);
      case 'IntImm':
        return b.kind === 'IntImm' && a.dtype === b.dtype && a.value === b.value;
      case 'FloatImm':
        return b.kind === 'FloatImm' && numbersEqual(a.value, b.value);
      case 'StringImm':
        return b.kind === 'StringImm' && a.value === b.value;
      case 'BinaryOp':
        return (
          b.kind === 'BinaryOp' &&
          a.op === b.op &&
          a.dtype === b.dtype &&
          this.expr(a.a, b.a) &&
          this.expr(a.b, b.b)
        );
      case 'Not':
        return b.kind === 'Not' && this.expr(a.a, b.a);
      case 'Select':
        return (
          b.kind === 'Select' &&
          a.dtype === b.dtype &&
          this.expr(a.cond, b.cond) &&
          this.expr(a.t, b.t) &&
          this.expr(a.f, b.f)
        );
      case 'Cast':
        return b.kind === 'Cast' && a.dtype === b.dtype && this.expr(a.value, b.value);
      case 'BufferLoad':
        return b.kind === 'BufferLoad' && this.buffer(a.buffer, b.buffer) && this.exprs(a.indices, b.indices);
      case 'Call':
        return b.kind === 'Call' && a.op === b.op && a.dtype === b.dtype && this.exprs(a.args, b.args);
    }
  }

  /** Compares two statements; chains of scope statements (main has thousands) with a loop. */
  stmt(a: Stmt, b: Stmt): boolean {
    let x = a;
    let y = b;
    while (isScopeStmt(x)) {
      if (!isScopeStmt(y) || !this.scopeHeader(x, y)) return false;
      x = x.body;
      y = y.body;
    }
    return this.unscoped(x, y);
  }

  /** Whether two scope statements agree but for their bodies. */
  private scopeHeader(a: ScopeStmt, b: ScopeStmt): boolean {
    switch (a.kind) {
      case 'Allocate':
        return (
          b.kind === 'Allocate' &&
          this.m.vars(a.bufferVar, b.bufferVar) &&
          a.dtype === b.dtype &&
          a.storageScope === b.storageScope &&
          this.exprs(a.extents, b.extents) &&
          this.expr(a.condition, b.condition) &&
          recordsEqual(a.annotations, b.annotations)
        );
      case 'AllocateConst':
        return (
          b.kind === 'AllocateConst' &&
          this.m.vars(a.bufferVar, b.bufferVar) &&
          a.dtype === b.dtype &&
          this.exprs(a.extents, b.extents) &&
          bytesEqual(a.data, b.data) &&
          recordsEqual(a.annotations, b.annotations)
        );
      case 'DeclBuffer':
        return b.kind === 'DeclBuffer' && this.buffer(a.buffer, b.buffer);
      case 'LetStmt':
        return b.kind === 'LetStmt' && this.m.vars(a.var, b.var) && this.expr(a.value, b.value);
    }
  }

  private unscoped(a: Exclude<Stmt, ScopeStmt>, b: Stmt): boolean {
    switch (a.kind) {
      case 'For':
        return (
          b.kind === 'For' &&
          a.forKind === b.forKind &&
          this.m.vars(a.loopVar, b.loopVar) &&
          this.expr(a.min, b.min) &&
          this.expr(a.extent, b.extent) &&
          recordsEqual(a.annotations, b.annotations) &&
          this.stmt(a.body, b.body)
        );
      case 'SeqStmt':
        return b.kind === 'SeqStmt' && this.all(a.seq, b.seq, (x, y) => this.stmt(x, y));
      case 'IfThenElse':
        return (
          b.kind === 'IfThenElse' &&
          this.expr(a.condition, b.condition) &&
          this.stmt(a.then, b.then) &&
          (a.else === undefined ? b.else === undefined : b.else !== undefined && this.stmt(a.else, b.else))
        );
      case 'BufferStore':
        return (
          b.kind === 'BufferStore' &&
          this.buffer(a.buffer, b.buffer) &&
          this.expr(a.value, b.value) &&
          this.exprs(a.indices, b.indices)
        );
      case 'Evaluate':
        return b.kind === 'Evaluate' && this.expr(a.value, b.value);
    }
  }

  primFunc(a: PrimFunc, b: PrimFunc): boolean {
    return (
      this.all(a.params, b.params, (x, y) => this.m.vars(x, y)) &&
      this.all(a.bufferMap, b.bufferMap, (x, y) => this.m.vars(x[0], y[0]) && this.buffer(x[1], y[1])) &&
      recordsEqual(a.attrs as Annotations, b.attrs as Annotations) &&
      this.stmt(a.body, b.body)
    );
  }
}

function modulesEqual(a: TirModule, b: TirModule, options: StructuralEqualOptions): boolean {
  if (a.functions.size !== b.functions.size) return false;
  for (const [name, fa] of a.functions) {
    const fb = b.functions.get(name);
    if (fb === undefined || !structuralEqual(fa, fb, options)) return false;
  }
  return true;
}

const STMT_KINDS: ReadonlySet<string> = new Set([
  'Allocate',
  'AllocateConst',
  'DeclBuffer',
  'For',
  'SeqStmt',
  'LetStmt',
  'IfThenElse',
  'BufferStore',
  'Evaluate',
]);

/**
 * True when `a` and `b` are the same program up to renaming of variables. Modules compare
 * function by function (same names, order ignored), each with its own var mapping.
 */
export function structuralEqual(a: Comparable, b: Comparable, options: StructuralEqualOptions = {}): boolean {
  const compareNames = options.compareNames ?? false;
  const c = new Comparer(new VarMap(compareNames), compareNames);
  if ('functions' in a) return 'functions' in b && modulesEqual(a, b as TirModule, options);
  if ('functions' in b) return false;
  if (a.kind === 'PrimFunc') return b.kind === 'PrimFunc' && c.primFunc(a, b);
  if (a.kind === 'Buffer') return b.kind === 'Buffer' && c.buffer(a, b);
  if (STMT_KINDS.has(a.kind)) return STMT_KINDS.has(b.kind) && c.stmt(a as Stmt, b as Stmt);
  return !STMT_KINDS.has(b.kind) && b.kind !== 'PrimFunc' && b.kind !== 'Buffer' && c.expr(a as Expr, b as Expr);
}
