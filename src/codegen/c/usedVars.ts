/**
 * Variables a statement reads. Declarations (params, lets, allocations, loop vars) are not
 * uses; gcc -Wall warns about declared-but-unused names, so the emitter voids those.
 */
import { Allocate, AllocateConst, DeclBuffer, For, LetStmt, PrimFunc, Var } from '../../ir/tir/nodes';
import { StmtExprVisitor } from '../../ir/tir/visitor';

// Scope statements: only what they read (their bodies are visited next), not what they declare.
class UseCollector extends StmtExprVisitor {
  readonly used = new Set<number>();

  override visitVar(v: Var): void {
    this.used.add(v.id);
  }

  override visitLetStmt(s: LetStmt): void {
    this.visitExpr(s.value);
  }

  override visitAllocate(s: Allocate): void {
    for (const x of s.extents) this.visitExpr(x);
  }

  override visitAllocateConst(s: AllocateConst): void {
    for (const x of s.extents) this.visitExpr(x);
  }

  override visitDeclBuffer(_s: DeclBuffer): void {}

  override visitFor(s: For): void {
    // The loop condition reads the loop var, so it is always used.
    this.used.add(s.loopVar.id);
    this.visitExpr(s.min);
    this.visitExpr(s.extent);
    this.visitStmt(s.body);
  }
}

export function usedVarIds(f: PrimFunc): ReadonlySet<number> {
  const c = new UseCollector();
  c.visitStmt(f.body);
  return c.used;
}
