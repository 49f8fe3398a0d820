/**
 * Helpers for the usual backend TIR pass: find a loop nest that computes an operator and put
 * a call to a hand-written kernel in its place (UMA's "replace loop nest by call_extern").
 */
import { Buffer, Call, Expr, For, PrimFunc, Stmt } from '../ir/tir/nodes';
import { evaluate } from '../ir/tir/builder';
import { StmtExprMutator } from '../ir/tir/mutator';
import { StmtExprVisitor } from '../ir/tir/visitor';

/**
 * Rewrites `func`, replacing each outermost `For` for which `match` returns a value (not
 * undefined/false) with `buildCall(nest, value)`; a returned Call is wrapped in Evaluate.
 * Nests inside a replaced nest are not visited. Returns `func` itself when nothing matched.
 */
export function replaceLoopNestWithCallExtern<M>(
  func: PrimFunc,
  match: (nest: For, func: PrimFunc) => M | undefined | false,
  buildCall: (nest: For, matched: M, func: PrimFunc) => Call | Stmt,
): PrimFunc {
  class Replacer extends StmtExprMutator {
    override mutateFor(s: For): Stmt {
      const m = match(s, func);
      if (m === undefined || m === false) return super.mutateFor(s);
      const out = buildCall(s, m, func);
      return out.kind === 'Call' ? evaluate(out) : out;
    }
  }
  return new Replacer().mutatePrimFunc(func);
}

export interface NestBuffers {
  /** Buffers loaded inside the nest, in first-use order. */
  readonly reads: readonly Buffer[];
  /** Buffers stored to inside the nest, in first-use order. */
  readonly writes: readonly Buffer[];
}

/** The buffers a statement reads and writes (by data var), e.g. to pass them to a kernel. */
export function nestBuffers(stmt: Stmt): NestBuffers {
  const reads: Buffer[] = [];
  const writes: Buffer[] = [];
  const add = (list: Buffer[], b: Buffer): void => {
    if (!list.some((x) => x.data.id === b.data.id)) list.push(b);
  };
  class Collector extends StmtExprVisitor {
    override visitExpr(e: Expr): void {
      if (e.kind === 'BufferLoad') add(reads, e.buffer);
      super.visitExpr(e);
    }
    override enterStmt(s: Stmt): void {
      if (s.kind === 'BufferStore') add(writes, s.buffer);
    }
  }
  new Collector().visitStmt(stmt);
  return { reads, writes };
}

/** The loop variables of a perfect-or-not nest, outermost first, following single bodies. */
export function nestLoops(nest: For): For[] {
  const loops: For[] = [nest];
  let body: Stmt = nest.body;
  while (body.kind === 'For') {
    loops.push(body);
    body = body.body;
  }
  return loops;
}
