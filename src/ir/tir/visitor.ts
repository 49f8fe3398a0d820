/**
 * Read-only traversal of TIR, as TVM's StmtExprVisitor: override the `visit*` method of the
 * node kinds you care about and call `super` to keep descending.
 *
 * Scope statements (Allocate, AllocateConst, DeclBuffer, LetStmt: `scope.ts`) differ from TVM:
 * `visitAllocate` and the like visit the statement's own fields only, and `visitStmt` visits
 * the body afterwards, walking a chain of nested scopes with a loop. A large model's `main`
 * nests one Allocate per tensor, thousands deep; recursing into each body overflowed the
 * stack. So an override of those four never visits `s.body` itself, and work that must follow
 * the body (closing a scope) goes in `leaveStmt`. Per-statement work goes in `enterStmt` /
 * `leaveStmt`, which every statement passes through, not in an override of `visitStmt`, which
 * a chain's inner statements do not.
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
import { isScopeStmt, ScopeStmt } from './scope';

export class StmtExprVisitor {
  visitPrimFunc(f: PrimFunc): void {
    for (const p of f.params) this.visitExpr(p);
    for (const [, b] of f.bufferMap) this.visitBuffer(b);
    this.visitStmt(f.body);
  }

  /** Visits `s` and everything below it; the bodies of a chain of scope statements by a loop. */
  visitStmt(s: Stmt): void {
    const scopes: ScopeStmt[] = [];
    let cur = s;
    for (;;) {
      this.enterStmt(cur);
      this.visitNode(cur);
      if (!isScopeStmt(cur)) break;
      scopes.push(cur);
      cur = cur.body;
    }
    this.leaveStmt(cur);
    for (let i = scopes.length - 1; i >= 0; i--) this.leaveStmt(scopes[i]);
  }

  /** Called for every statement before its fields and body are visited. */
  enterStmt(_s: Stmt): void {}

  /** Called for every statement after its body was visited (inner scopes first). */
  leaveStmt(_s: Stmt): void {}

  /** The statement's own visit: the `visit*` of its kind. */
  private visitNode(s: Stmt): void {
    switch (s.kind) {
      case 'Allocate':
        return this.visitAllocate(s);
      case 'AllocateConst':
        return this.visitAllocateConst(s);
      case 'DeclBuffer':
        return this.visitDeclBuffer(s);
      case 'For':
        return this.visitFor(s);
      case 'SeqStmt':
        return this.visitSeqStmt(s);
      case 'LetStmt':
        return this.visitLetStmt(s);
      case 'IfThenElse':
        return this.visitIfThenElse(s);
      case 'BufferStore':
        return this.visitBufferStore(s);
      case 'Evaluate':
        return this.visitEvaluate(s);
    }
  }

  visitExpr(e: Expr): void {
    switch (e.kind) {
      case 'Var':
        return this.visitVar(e);
      case 'IntImm':
      case 'FloatImm':
      case 'StringImm':
        return;
      case 'BinaryOp':
        return this.visitBinaryOp(e);
      case 'Not':
        return this.visitNot(e);
      case 'Select':
        return this.visitSelect(e);
      case 'Cast':
        return this.visitCast(e);
      case 'BufferLoad':
        return this.visitBufferLoad(e);
      case 'Call':
        return this.visitCall(e);
    }
  }

  visitBuffer(b: Buffer): void {
    this.visitExpr(b.data);
    for (const d of b.shape) this.visitExpr(d);
  }

  visitVar(_v: Var): void {}

  visitBinaryOp(e: BinaryOp): void {
    this.visitExpr(e.a);
    this.visitExpr(e.b);
  }

  visitNot(e: Not): void {
    this.visitExpr(e.a);
  }

  visitSelect(e: Select): void {
    this.visitExpr(e.cond);
    this.visitExpr(e.t);
    this.visitExpr(e.f);
  }

  visitCast(e: Cast): void {
    this.visitExpr(e.value);
  }

  visitBufferLoad(e: BufferLoad): void {
    this.visitBuffer(e.buffer);
    for (const i of e.indices) this.visitExpr(i);
  }

  visitCall(e: Call): void {
    for (const a of e.args) this.visitExpr(a);
  }

  // The four scope statements: their own fields; `visitStmt` visits the body next.
  visitAllocate(s: Allocate): void {
    this.visitExpr(s.bufferVar);
    for (const x of s.extents) this.visitExpr(x);
    this.visitExpr(s.condition);
  }

  visitAllocateConst(s: AllocateConst): void {
    this.visitExpr(s.bufferVar);
    for (const x of s.extents) this.visitExpr(x);
  }

  visitDeclBuffer(s: DeclBuffer): void {
    this.visitBuffer(s.buffer);
  }

  visitFor(s: For): void {
    this.visitExpr(s.loopVar);
    this.visitExpr(s.min);
    this.visitExpr(s.extent);
    this.visitStmt(s.body);
  }

  visitSeqStmt(s: SeqStmt): void {
    for (const x of s.seq) this.visitStmt(x);
  }

  visitLetStmt(s: LetStmt): void {
    this.visitExpr(s.var);
    this.visitExpr(s.value);
  }

  visitIfThenElse(s: IfThenElse): void {
    this.visitExpr(s.condition);
    this.visitStmt(s.then);
    if (s.else) this.visitStmt(s.else);
  }

  visitBufferStore(s: BufferStore): void {
    this.visitBuffer(s.buffer);
    this.visitExpr(s.value);
    for (const i of s.indices) this.visitExpr(i);
  }

  visitEvaluate(s: Evaluate): void {
    this.visitExpr(s.value);
  }
}

/** Calls `fn` on every statement and expression in post-order (children first). */
export function postOrderVisit(node: Stmt | PrimFunc, fn: (n: Stmt | Expr) => void): void {
  class Collector extends StmtExprVisitor {
    override leaveStmt(s: Stmt): void {
      fn(s);
    }
    override visitExpr(e: Expr): void {
      super.visitExpr(e);
      fn(e);
    }
  }
  const c = new Collector();
  if (node.kind === 'PrimFunc') c.visitPrimFunc(node);
  else c.visitStmt(node);
}
