/**
 * Removes scratch a rewrite left behind: once a loop nest is replaced by a kernel call, the
 * operator-internal buffers only it read (padded input copy, accumulator, requantization
 * tables) are still allocated and filled. An Allocate/AllocateConst whose buffer nobody
 * reads any more is dropped together with the statements that only write into it.
 */
import { tir } from '../../src';

/** Ids of vars read somewhere: loads, call arguments, indices (stores' targets excluded). */
function readVarIds(body: tir.Stmt): Set<number> {
  const ids = new Set<number>();
  class Reads extends tir.StmtExprVisitor {
    override visitVar(v: tir.Var): void {
      ids.add(v.id);
    }
    override visitBufferStore(s: tir.BufferStore): void {
      for (const d of s.buffer.shape) this.visitExpr(d);
      this.visitExpr(s.value);
      for (const i of s.indices) this.visitExpr(i);
    }
    override visitAllocate(s: tir.Allocate): void {
      for (const x of s.extents) this.visitExpr(x);
      this.visitExpr(s.condition);
      this.visitStmt(s.body);
    }
    override visitAllocateConst(s: tir.AllocateConst): void {
      for (const x of s.extents) this.visitExpr(x);
      this.visitStmt(s.body);
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

/** True when `s` has no effect but stores into `dead` buffers (no calls, no other stores). */
function onlyWritesInto(s: tir.Stmt, dead: ReadonlySet<number>): boolean {
  let ok = true;
  class Check extends tir.StmtExprVisitor {
    override visitBufferStore(st: tir.BufferStore): void {
      if (!dead.has(st.buffer.data.id)) ok = false;
      super.visitBufferStore(st);
    }
    override visitCall(): void {
      ok = false;
    }
    override visitEvaluate(): void {
      ok = false;
    }
    override visitAllocate(a: tir.Allocate): void {
      if (!dead.has(a.bufferVar.id)) ok = false;
      super.visitAllocate(a);
    }
  }
  new Check().visitStmt(s);
  return ok;
}

const NOOP: tir.Stmt = { kind: 'SeqStmt', seq: [] };

function removeOnce(body: tir.Stmt, dead: ReadonlySet<number>): tir.Stmt {
  class Remover extends tir.StmtExprMutator {
    override mutateStmt(s: tir.Stmt): tir.Stmt {
      if (s.kind !== 'SeqStmt' && s.kind !== 'Allocate' && s.kind !== 'AllocateConst' && onlyWritesInto(s, dead)) return NOOP;
      return super.mutateStmt(s);
    }
    override mutateAllocate(s: tir.Allocate): tir.Stmt {
      return dead.has(s.bufferVar.id) ? this.mutateStmt(s.body) : super.mutateAllocate(s);
    }
    override mutateAllocateConst(s: tir.AllocateConst): tir.Stmt {
      return dead.has(s.bufferVar.id) ? this.mutateStmt(s.body) : super.mutateAllocateConst(s);
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
    const reads = readVarIds(body);
    const dead = new Set([...allocatedVarIds(body)].filter((id) => !reads.has(id)));
    if (dead.size === 0) break;
    body = removeOnce(body, dead);
  }
  return body === func.body ? func : { ...func, body };
}
