/**
 * Removes scratch a rewrite left behind: once a loop nest is replaced by a kernel call, the
 * operator-internal buffers only it read (padded input copy, accumulator, requantization
 * tables) are still allocated and filled. An Allocate/AllocateConst whose buffer nobody
 * reads any more is dropped together with the statements that only write into it.
 */
import { tir } from '../../src';

/**
 * Ids of vars `body` reads: loads, call arguments, indices (stores' targets excluded, unless
 * `storeTargets`: then every buffer still written counts too).
 */
function varIds(body: tir.Stmt, storeTargets = false): Set<number> {
  const ids = new Set<number>();
  class Reads extends tir.StmtExprVisitor {
    override visitVar(v: tir.Var): void {
      ids.add(v.id);
    }
    override visitBufferStore(s: tir.BufferStore): void {
      if (storeTargets) ids.add(s.buffer.data.id);
      for (const d of s.buffer.shape) this.visitExpr(d);
      this.visitExpr(s.value);
      for (const i of s.indices) this.visitExpr(i);
    }
    // Declaring a buffer is no read (the visitor goes on to the body).
    override visitAllocate(s: tir.Allocate): void {
      for (const x of s.extents) this.visitExpr(x);
      this.visitExpr(s.condition);
    }
    override visitAllocateConst(s: tir.AllocateConst): void {
      for (const x of s.extents) this.visitExpr(x);
    }
  }
  new Reads().visitStmt(body);
  return ids;
}

function allocatedVarIds(body: tir.Stmt): Set<number> {
  const ids = new Set<number>();
  for (const a of tir.collectAllocates(body)) ids.add(a.bufferVar.id);
  for (const a of tir.collectAllocateConsts(body)) ids.add(a.bufferVar.id);
  return ids;
}

/**
 * True when `s` has no effect but stores into `dead` buffers or into buffers it allocates
 * itself (no calls, no other stores). A whole operator nest whose result is dead (a dense
 * nobody reads, merged into a region with a conv2d) allocates its own accumulator, which it
 * reads: that buffer is not dead, yet it dies with the nest.
 */
function onlyWritesInto(s: tir.Stmt, dead: ReadonlySet<number>): boolean {
  const local = allocatedVarIds(s);
  let ok = true;
  class Check extends tir.StmtExprVisitor {
    override visitBufferStore(st: tir.BufferStore): void {
      if (!dead.has(st.buffer.data.id) && !local.has(st.buffer.data.id)) ok = false;
      super.visitBufferStore(st);
    }
    override visitCall(): void {
      ok = false;
    }
    override visitEvaluate(): void {
      ok = false;
    }
  }
  new Check().visitStmt(s);
  return ok;
}

const NOOP: tir.Stmt = { kind: 'SeqStmt', seq: [] };
const isNoop = (s: tir.Stmt): boolean => s.kind === 'SeqStmt' && s.seq.length === 0;

function removeOnce(body: tir.Stmt, dead: ReadonlySet<number>): tir.Stmt {
  class Remover extends tir.StmtExprMutator {
    override mutateStmt(s: tir.Stmt): tir.Stmt {
      // An allocation scope too: one holding nothing but an operator nest into a dead result
      // (its accumulator allocated around the nest) has no effect at all.
      if (s.kind !== 'SeqStmt' && onlyWritesInto(s, dead)) return NOOP;
      return super.mutateStmt(s);
    }
    // A dead allocation goes only once nothing in its body stores into it any more: a store
    // left behind (inside a statement with other effects) would write an undefined buffer.
    // (The body comes rewritten already: scope chains are walked innermost first.)
    override mutateAllocate(s: tir.Allocate, body: tir.Stmt): tir.Stmt {
      if (dead.has(s.bufferVar.id) && !varIds(body, true).has(s.bufferVar.id)) return body;
      return super.mutateAllocate(s, body);
    }
    override mutateAllocateConst(s: tir.AllocateConst, body: tir.Stmt): tir.Stmt {
      if (dead.has(s.bufferVar.id) && !varIds(body, true).has(s.bufferVar.id)) return body;
      return super.mutateAllocateConst(s, body);
    }
    // Inside a chain of scopes `mutateStmt` sees only the first: a let or view whose body
    // came out empty had only that effectless body, so it goes too.
    override mutateLetStmt(s: tir.LetStmt, body: tir.Stmt): tir.Stmt {
      return isNoop(body) ? NOOP : super.mutateLetStmt(s, body);
    }
    override mutateDeclBuffer(s: tir.DeclBuffer, body: tir.Stmt): tir.Stmt {
      return isNoop(body) ? NOOP : super.mutateDeclBuffer(s, body);
    }
    override mutateSeqStmt(s: tir.SeqStmt): tir.Stmt {
      const kept = s.seq.map((x) => this.mutateStmt(x)).filter((x) => !(x.kind === 'SeqStmt' && x.seq.length === 0));
      if (kept.length === s.seq.length && kept.every((x, i) => x === s.seq[i])) return s;
      return kept.length === 0 ? NOOP : tir.seq(kept);
    }
  }
  return new Remover().mutateStmt(body);
}

/** `func` without allocations that are never read (and the stores into them). */
export function removeDeadScratch(func: tir.PrimFunc): tir.PrimFunc {
  let body = func.body;
  for (;;) {
    const reads = varIds(body);
    const dead = new Set([...allocatedVarIds(body)].filter((id) => !reads.has(id)));
    if (dead.size === 0) break;
    // A dead buffer still stored into by a statement that must stay is kept: stop there.
    const next = removeOnce(body, dead);
    if (next === body) break;
    body = next;
  }
  return body === func.body ? func : { ...func, body };
}
