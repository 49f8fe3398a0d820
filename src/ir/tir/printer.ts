/**
 * TVMScript-like text for TIR. The text is for people and golden tests, not for parsing:
 * it must be stable, so names never depend on raw var ids. Each function has its own
 * namespace; a var or buffer prints as its name, and a later, different entity with the
 * same name gets `_1`, `_2`, ... in order of first appearance in the text.
 *
 * Buffers declared by `bufferMap` or `DeclBuffer` print where they are declared; any other
 * buffer (a view built directly on an Allocate's var, say) gets a `T.Buffer(...)` line right
 * before the first statement that touches it, so every access shows its dtype and shape.
 */
import {
  AnnotationValue,
  Annotations,
  BinaryOpKind,
  Buffer,
  Expr,
  FuncAttrValue,
  PrimFunc,
  PrimFuncAttrs,
  Stmt,
  TirModule,
  Var,
} from './nodes';
import { StmtExprVisitor } from './visitor';

const INDENT = '    ';

/** Python-like precedence: a child binds looser than its parent needs parentheses. */
const PRECEDENCE: Partial<Record<BinaryOpKind, number>> = {
  Or: 1,
  And: 2,
  EQ: 4,
  NE: 4,
  LT: 4,
  LE: 4,
  GT: 4,
  GE: 4,
  Add: 5,
  Sub: 5,
  Mul: 6,
  FloorDiv: 6,
  FloorMod: 6,
};
const NOT_PRECEDENCE = 3;
const ATOM_PRECEDENCE = 100;

const INFIX: Partial<Record<BinaryOpKind, string>> = {
  Or: 'or',
  And: 'and',
  EQ: '==',
  NE: '!=',
  LT: '<',
  LE: '<=',
  GT: '>',
  GE: '>=',
  Add: '+',
  Sub: '-',
  Mul: '*',
  FloorDiv: '//',
  FloorMod: '%',
};
const FUNCTIONAL: Partial<Record<BinaryOpKind, string>> = { Div: 'T.Div', Min: 'T.min', Max: 'T.max' };

/** Stable key of a buffer view: mutators may rebuild buffer objects without changing them. */
function bufferKey(b: Buffer, names: Namer): string {
  return `${b.name}|${b.data.id}|${b.dtype}|${b.shape.map((d) => printExprIn(d, names)).join(',')}|${b.elemOffset}|${b.scope}`;
}

/** Assigns printed names in order of first appearance. */
class Namer {
  private readonly used = new Set<string>();
  private readonly vars = new Map<number, string>();
  private readonly buffers = new Map<string, string>();
  readonly declaredBuffers = new Set<string>();

  /** Per stem, the suffix its last fresh name took: names are never released, so every smaller one is still taken. */
  private readonly lastSuffix = new Map<string, number>();

  private fresh(base: string): string {
    const stem = base === '' ? 'v' : base;
    let name = stem;
    if (this.used.has(name)) {
      // Counting up from 1 for each name made a function of 10,000 same-named vars quadratic.
      let n = this.lastSuffix.get(stem) ?? 1;
      for (name = `${stem}_${n}`; this.used.has(name); n++, name = `${stem}_${n}`);
      this.lastSuffix.set(stem, n);
    }
    this.used.add(name);
    return name;
  }

  hasVar(v: Var): boolean {
    return this.vars.has(v.id);
  }

  /** Names a buffer's data var `<buffer>.data`, as TVMScript does for implicit data vars. */
  aliasData(v: Var, bufferName: string): void {
    this.vars.set(v.id, `${bufferName}.data`);
  }

  varName(v: Var): string {
    let name = this.vars.get(v.id);
    if (name === undefined) {
      name = this.fresh(v.name);
      this.vars.set(v.id, name);
    }
    return name;
  }

  bufferName(b: Buffer): string {
    const key = bufferKey(b, this);
    let name = this.buffers.get(key);
    if (name === undefined) {
      name = this.fresh(b.name);
      this.buffers.set(key, name);
    }
    return name;
  }
}

function pyString(s: string): string {
  return JSON.stringify(s);
}

function pyNumber(n: number): string {
  if (Number.isNaN(n)) return '"nan"';
  if (n === Infinity) return '"inf"';
  if (n === -Infinity) return '"-inf"';
  return String(n);
}

function printValue(v: AnnotationValue | FuncAttrValue): string {
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return pyNumber(v);
  if (Array.isArray(v)) return `[${(v as readonly (string | number)[]).map((x) => printValue(x)).join(', ')}]`;
  return printDict(v as Readonly<Record<string, AnnotationValue>>);
}

function printDict(d: Readonly<Record<string, AnnotationValue | FuncAttrValue | undefined>>): string {
  const keys = Object.keys(d)
    .filter((k) => d[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${pyString(k)}: ${printValue(d[k] as AnnotationValue)}`).join(', ')}}`;
}

function printAnnotationsArg(a: Annotations): string {
  return Object.keys(a).length === 0 ? '' : `, annotations=${printDict(a)}`;
}

function typeAnnotation(v: Var): string {
  if (v.dtype === 'handle') return v.pointee === undefined ? 'T.handle()' : `T.handle(${pyString(v.pointee)})`;
  return `T.${v.dtype}`;
}

function printIntImm(value: number, dtype: string): string {
  if (dtype === 'int32') return String(value);
  if (dtype === 'bool') return value !== 0 ? 'T.bool(True)' : 'T.bool(False)';
  return `T.${dtype}(${value})`;
}

function precedenceOf(e: Expr): number {
  if (e.kind === 'BinaryOp') return PRECEDENCE[e.op] ?? ATOM_PRECEDENCE;
  if (e.kind === 'Not') return NOT_PRECEDENCE;
  if (e.kind === 'IntImm' && e.value < 0) return PRECEDENCE.Mul as number;
  return ATOM_PRECEDENCE;
}

function printExprIn(e: Expr, names: Namer): string {
  const p = (x: Expr): string => printExprIn(x, names);
  switch (e.kind) {
    case 'Var':
      return names.varName(e);
    case 'IntImm':
      return printIntImm(e.value, e.dtype);
    case 'FloatImm':
      return `T.float32(${pyNumber(e.value)})`;
    case 'StringImm':
      return pyString(e.value);
    case 'BinaryOp': {
      const fn = FUNCTIONAL[e.op];
      if (fn !== undefined) return `${fn}(${p(e.a)}, ${p(e.b)})`;
      const prec = PRECEDENCE[e.op] as number;
      const left = precedenceOf(e.a) < prec ? `(${p(e.a)})` : p(e.a);
      const right = precedenceOf(e.b) <= prec ? `(${p(e.b)})` : p(e.b);
      return `${left} ${INFIX[e.op]} ${right}`;
    }
    case 'Not':
      return precedenceOf(e.a) < NOT_PRECEDENCE ? `not (${p(e.a)})` : `not ${p(e.a)}`;
    case 'Select':
      return `T.Select(${p(e.cond)}, ${p(e.t)}, ${p(e.f)})`;
    case 'Cast':
      return `T.Cast(${pyString(e.dtype)}, ${p(e.value)})`;
    case 'BufferLoad':
      return `${names.bufferName(e.buffer)}[${e.indices.map(p).join(', ')}]`;
    case 'Call': {
      const args = e.args.map(p);
      if (e.op === 'tir.call_extern') return `T.call_extern(${[pyString(e.dtype), ...args].join(', ')})`;
      if (e.op.startsWith('tir.')) return `T.${e.op.slice(4)}(${args.join(', ')})`;
      return `T.call_intrin(${[pyString(e.dtype), pyString(e.op), ...args].join(', ')})`;
    }
  }
}

/** Buffers that `s` itself touches (not its nested statements), in order of appearance. */
function headerBuffers(s: Stmt): Buffer[] {
  const found: Buffer[] = [];
  class Collect extends StmtExprVisitor {
    override visitBuffer(b: Buffer): void {
      found.push(b);
      super.visitBuffer(b);
    }
    override visitStmt(): void {}
  }
  const c = new Collect();
  const exprs: Expr[] = [];
  switch (s.kind) {
    case 'Allocate':
      exprs.push(...s.extents, s.condition);
      break;
    case 'AllocateConst':
      exprs.push(...s.extents);
      break;
    case 'DeclBuffer':
      exprs.push(...s.buffer.shape);
      break;
    case 'For':
      exprs.push(s.min, s.extent);
      break;
    case 'LetStmt':
      exprs.push(s.value);
      break;
    case 'IfThenElse':
      exprs.push(s.condition);
      break;
    case 'BufferStore':
      found.push(s.buffer);
      exprs.push(s.value, ...s.indices);
      break;
    case 'Evaluate':
      exprs.push(s.value);
      break;
    case 'SeqStmt':
      break;
  }
  for (const e of exprs) c.visitExpr(e);
  return found;
}

function bufferDecl(b: Buffer, names: Namer, ctor: string, leading: readonly string[], data?: string): string {
  const parts = [...leading, `[${b.shape.map((d) => printExprIn(d, names)).join(', ')}]`, pyString(b.dtype)];
  if (data !== undefined) parts.push(`data=${data}`);
  if (b.elemOffset !== 0) parts.push(`elem_offset=${b.elemOffset}`);
  if (b.scope !== 'global') parts.push(`scope=${pyString(b.scope)}`);
  return `${ctor}(${parts.join(', ')})`;
}

class StmtPrinter {
  readonly lines: string[] = [];
  constructor(readonly names: Namer) {}

  private emit(depth: number, text: string): void {
    this.lines.push(INDENT.repeat(depth) + text);
  }

  private expr(e: Expr): string {
    return printExprIn(e, this.names);
  }

  private declare(b: Buffer, depth: number, how: 'implicit' | 'decl'): void {
    const key = bufferKey(b, this.names);
    if (this.names.declaredBuffers.has(key)) return;
    this.names.declaredBuffers.add(key);
    const name = this.names.bufferName(b);
    const ctor = how === 'decl' ? 'T.decl_buffer' : 'T.Buffer';
    const data = this.implicitData(b, name) ? undefined : this.names.varName(b.data);
    this.emit(depth, `${name} = ${bufferDecl(b, this.names, ctor, [], data)}`);
  }

  /** A data var first met at its buffer's declaration and named like it needs no `data=`. */
  private implicitData(b: Buffer, bufferName: string): boolean {
    if (this.names.hasVar(b.data) || b.data.name !== b.name) return false;
    this.names.aliasData(b.data, bufferName);
    return true;
  }

  declareMatched(param: Var, b: Buffer, depth: number): void {
    const key = bufferKey(b, this.names);
    this.names.declaredBuffers.add(key);
    const name = this.names.bufferName(b);
    const paramName = this.names.varName(param);
    const implicit = b.data.id === param.id || this.implicitData(b, name);
    const decl = bufferDecl(b, this.names, 'T.match_buffer', [paramName], implicit ? undefined : this.names.varName(b.data));
    this.emit(depth, `${name} = ${decl}`);
  }

  stmt(s: Stmt, depth: number): void {
    // A chain of scope statements (main has one per tensor, thousands deep) prints at one
    // depth: followed with a loop, not by recursion.
    let cur: Stmt | undefined = s;
    while (cur !== undefined) cur = this.stmtLines(cur, depth);
  }

  /** Prints `s`, but the body of a scope statement, which it returns. */
  private stmtLines(s: Stmt, depth: number): Stmt | undefined {
    for (const b of headerBuffers(s)) this.declare(b, depth, 'implicit');
    switch (s.kind) {
      case 'Allocate': {
        const cond =
          s.condition.kind === 'IntImm' && s.condition.value === 1 ? '' : `, condition=${this.expr(s.condition)}`;
        const extents = s.extents.map((x) => this.expr(x)).join(', ');
        this.emit(
          depth,
          `${this.names.varName(s.bufferVar)} = T.allocate([${extents}], ${pyString(s.dtype)}, ${pyString(s.storageScope)}${cond}${printAnnotationsArg(s.annotations)})`,
        );
        return s.body;
      }
      case 'AllocateConst': {
        const extents = s.extents.map((x) => this.expr(x)).join(', ');
        this.emit(
          depth,
          `${this.names.varName(s.bufferVar)} = T.allocate_const([${extents}], ${pyString(s.dtype)}, nbytes=${s.data.length}, checksum="${fnv1a(s.data)}"${printAnnotationsArg(s.annotations)})`,
        );
        return s.body;
      }
      case 'DeclBuffer':
        this.declare(s.buffer, depth, 'decl');
        return s.body;
      case 'For': {
        const range = forRange(s.min, s.extent, (e) => this.expr(e));
        this.emit(
          depth,
          `for ${this.names.varName(s.loopVar)} in T.${s.forKind}(${range}${printAnnotationsArg(s.annotations)}):`,
        );
        this.stmt(s.body, depth + 1);
        return;
      }
      case 'SeqStmt':
        if (s.seq.length === 0) this.emit(depth, 'pass');
        for (const x of s.seq) this.stmt(x, depth);
        return;
      case 'LetStmt':
        this.emit(depth, `${this.names.varName(s.var)}: ${typeAnnotation(s.var)} = ${this.expr(s.value)}`);
        return s.body;
      case 'IfThenElse':
        this.emit(depth, `if ${this.expr(s.condition)}:`);
        this.stmt(s.then, depth + 1);
        if (s.else !== undefined) {
          this.emit(depth, 'else:');
          this.stmt(s.else, depth + 1);
        }
        return;
      case 'BufferStore':
        this.emit(
          depth,
          `${this.names.bufferName(s.buffer)}[${s.indices.map((i) => this.expr(i)).join(', ')}] = ${this.expr(s.value)}`,
        );
        return;
      case 'Evaluate':
        this.emit(depth, s.value.kind === 'Call' ? this.expr(s.value) : `T.evaluate(${this.expr(s.value)})`);
        return;
    }
  }
}

function forRange(min: Expr, extent: Expr, p: (e: Expr) => string): string {
  if (min.kind === 'IntImm' && extent.kind === 'IntImm') return `${min.value}, ${min.value + extent.value}`;
  if (min.kind === 'IntImm' && min.value === 0) return `0, ${p(extent)}`;
  return `${p(min)}, ${p(min)} + ${precedenceOf(extent) <= (PRECEDENCE.Add as number) ? `(${p(extent)})` : p(extent)}`;
}

/** 32-bit FNV-1a: lets the text tell two constants apart without printing their bytes. */
function fnv1a(data: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) {
    h ^= data[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function printAttrs(attrs: PrimFuncAttrs): string | undefined {
  return Object.values(attrs).some((v) => v !== undefined) ? `T.func_attr(${printDict(attrs)})` : undefined;
}

/** A PrimFunc as TVMScript-like text; `name` defaults to its `global_symbol` (or `main`). */
export function printPrimFunc(f: PrimFunc, name?: string): string {
  const names = new Namer();
  const printer = new StmtPrinter(names);
  const fname = name ?? f.attrs.global_symbol ?? 'main';
  const params = f.params.map((v) => `${names.varName(v)}: ${typeAnnotation(v)}`).join(', ');
  const attrs = printAttrs(f.attrs);
  if (attrs !== undefined) printer.lines.push(INDENT + attrs);
  for (const [param, buf] of f.bufferMap) printer.declareMatched(param, buf, 1);
  printer.stmt(f.body, 1);
  return ['@T.prim_func', `def ${fname}(${params}):`, ...printer.lines].join('\n') + '\n';
}

/** Every function of the module, sorted by name so the text does not depend on build order. */
export function printModule(m: TirModule): string {
  const names = [...m.functions.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return names.map((n) => printPrimFunc(m.functions.get(n) as PrimFunc, n)).join('\n');
}

/** A statement on its own, vars named as they appear in it. */
export function printStmt(s: Stmt): string {
  const printer = new StmtPrinter(new Namer());
  printer.stmt(s, 0);
  return printer.lines.join('\n') + '\n';
}

export function printExpr(e: Expr): string {
  return printExprIn(e, new Namer());
}
