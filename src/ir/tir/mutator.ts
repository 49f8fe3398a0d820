/**
 * Copy-on-write rewriting of TIR, as TVM's StmtExprMutator: each `mutate*` returns the same
 * object when nothing below it changed, so untouched subtrees are shared, not copied.
 * Override the methods of the node kinds to rewrite; call `super` to rewrite children.
 *
 * Scope statements (Allocate, AllocateConst, DeclBuffer, LetStmt: `scope.ts`) differ from TVM:
 * `mutateStmt` rewrites a chain of them with a loop, innermost body first, and then calls
 * `mutateAllocate(s, body)` and the like from the inside out with `body` already rewritten.
 * A large model's `main` nests one Allocate per tensor, thousands deep; recursing into each
 * body overflowed the stack. An override of those four returns its statement rebuilt around
 * `body` (`super.mutateAllocate(s, body)`), or `body` alone to drop the scope.
 */
import {
  Allocate,
  AllocateConst,
  BinaryOp,
  Buffer,
  BufferLoad,
  BufferStore,
  Call,
  Cast,
  DeclBuffer,
  Evaluate,
  Expr,
  For,
  IfThenElse,
  LetStmt,
  Not,
  PrimFunc,
  Select,
  SeqStmt,
  Stmt,
  Var,
} from './nodes';
import { isScopeStmt, scopeChain, ScopeStmt } from './scope';

function mapSame<T>(items: readonly T[], fn: (x: T) => T): readonly T[] {
  let changed = false;
  const out = items.map((x) => {
    const y = fn(x);
    if (y !== x) changed = true;
    return y;
  });
  return changed ? out : items;
}

export class StmtExprMutator {
  mutatePrimFunc(f: PrimFunc): PrimFunc {
    const params = mapSame(f.params, (p) => this.mutateParam(p));
    const bufferMap = mapSame(f.bufferMap, (entry) => {
      const v = this.mutateParam(entry[0]);
      const b = this.mutateBuffer(entry[1]);
      return v === entry[0] && b === entry[1] ? entry : ([v, b] as const);
    });
    const body = this.mutateStmt(f.body);
    if (params === f.params && bufferMap === f.bufferMap && body === f.body) return f;
    return { ...f, params, bufferMap, body };
  }

  /** Parameters are vars that must stay vars. */
  mutateParam(v: Var): Var {
    return v;
  }

  /** `s` rewritten; a chain of scope statements by a loop, their bodies first. */
  mutateStmt(s: Stmt): Stmt {
    if (!isScopeStmt(s)) return this.mutateNode(s);
    const { scopes, inner } = scopeChain(s);
    let body = this.mutateStmt(inner);
    for (let i = scopes.length - 1; i >= 0; i--) body = this.mutateScope(scopes[i], body);
    return body;
  }

  private mutateScope(s: ScopeStmt, body: Stmt): Stmt {
    switch (s.kind) {
      case 'Allocate':
        return this.mutateAllocate(s, body);
      case 'AllocateConst':
        return this.mutateAllocateConst(s, body);
      case 'DeclBuffer':
        return this.mutateDeclBuffer(s, body);
      case 'LetStmt':
        return this.mutateLetStmt(s, body);
    }
  }

  /** A statement that is not a scope statement: the `mutate*` of its kind. */
  private mutateNode(s: Exclude<Stmt, ScopeStmt>): Stmt {
    switch (s.kind) {
      case 'For':
        return this.mutateFor(s);
      case 'SeqStmt':
        return this.mutateSeqStmt(s);
      case 'IfThenElse':
        return this.mutateIfThenElse(s);
      case 'BufferStore':
        return this.mutateBufferStore(s);
      case 'Evaluate':
        return this.mutateEvaluate(s);
    }
  }

  mutateExpr(e: Expr): Expr {
    switch (e.kind) {
      case 'Var':
        return this.mutateVar(e);
      case 'IntImm':
      case 'FloatImm':
      case 'StringImm':
        return e;
      case 'BinaryOp':
        return this.mutateBinaryOp(e);
      case 'Not':
        return this.mutateNot(e);
      case 'Select':
        return this.mutateSelect(e);
      case 'Cast':
        return this.mutateCast(e);
      case 'BufferLoad':
        return this.mutateBufferLoad(e);
      case 'Call':
        return this.mutateCall(e);
    }
  }

  mutateVar(v: Var): Expr {
    return v;
  }

  mutateBuffer(b: Buffer): Buffer {
    const shape = mapSame(b.shape, (d) => this.mutateExpr(d));
    return shape === b.shape ? b : { ...b, shape };
  }

  mutateBinaryOp(e: BinaryOp): Expr {
    const a = this.mutateExpr(e.a);
    const b = this.mutateExpr(e.b);
    return a === e.a && b === e.b ? e : { ...e, a, b };
  }

  mutateNot(e: Not): Expr {
    const a = this.mutateExpr(e.a);
    return a === e.a ? e : { ...e, a };
  }

  mutateSelect(e: Select): Expr {
    const cond = this.mutateExpr(e.cond);
    const t = this.mutateExpr(e.t);
    const f = this.mutateExpr(e.f);
    return cond === e.cond && t === e.t && f === e.f ? e : { ...e, cond, t, f };
  }

  mutateCast(e: Cast): Expr {
    const value = this.mutateExpr(e.value);
    return value === e.value ? e : { ...e, value };
  }

  mutateBufferLoad(e: BufferLoad): Expr {
    const buffer = this.mutateBuffer(e.buffer);
    const indices = mapSame(e.indices, (i) => this.mutateExpr(i));
    return buffer === e.buffer && indices === e.indices ? e : { ...e, buffer, indices };
  }

  mutateCall(e: Call): Expr {
    const args = mapSame(e.args, (a) => this.mutateExpr(a));
    return args === e.args ? e : { ...e, args };
  }

  // The four scope statements: `body` is `s.body` already rewritten (by `mutateStmt`).
  mutateAllocate(s: Allocate, body: Stmt): Stmt {
    const extents = mapSame(s.extents, (x) => this.mutateExpr(x));
    const condition = this.mutateExpr(s.condition);
    return extents === s.extents && condition === s.condition && body === s.body
      ? s
      : { ...s, extents, condition, body };
  }

  mutateAllocateConst(s: AllocateConst, body: Stmt): Stmt {
    return body === s.body ? s : { ...s, body };
  }

  mutateDeclBuffer(s: DeclBuffer, body: Stmt): Stmt {
    const buffer = this.mutateBuffer(s.buffer);
    return buffer === s.buffer && body === s.body ? s : { ...s, buffer, body };
  }

  mutateFor(s: For): Stmt {
    const min = this.mutateExpr(s.min);
    const extent = this.mutateExpr(s.extent);
    const body = this.mutateStmt(s.body);
    return min === s.min && extent === s.extent && body === s.body ? s : { ...s, min, extent, body };
  }

  mutateSeqStmt(s: SeqStmt): Stmt {
    const seq = mapSame(s.seq, (x) => this.mutateStmt(x));
    return seq === s.seq ? s : { ...s, seq };
  }

  mutateLetStmt(s: LetStmt, body: Stmt): Stmt {
    const value = this.mutateExpr(s.value);
    return value === s.value && body === s.body ? s : { ...s, value, body };
  }

  mutateIfThenElse(s: IfThenElse): Stmt {
    const condition = this.mutateExpr(s.condition);
    const then = this.mutateStmt(s.then);
    const otherwise = s.else ? this.mutateStmt(s.else) : undefined;
    if (condition === s.condition && then === s.then && otherwise === s.else) return s;
    return otherwise === undefined
      ? { kind: 'IfThenElse', condition, then }
      : { kind: 'IfThenElse', condition, then, else: otherwise };
  }

  mutateBufferStore(s: BufferStore): Stmt {
    const buffer = this.mutateBuffer(s.buffer);
    const value = this.mutateExpr(s.value);
    const indices = mapSame(s.indices, (i) => this.mutateExpr(i));
    return buffer === s.buffer && value === s.value && indices === s.indices
      ? s
      : { ...s, buffer, value, indices };
  }

  mutateEvaluate(s: Evaluate): Stmt {
    const value = this.mutateExpr(s.value);
    return value === s.value ? s : { ...s, value };
  }
}
