/**
 * Small read-only queries over TIR that passes and tests keep needing.
 */
import { Allocate, AllocateConst, Call, Expr, For, LetStmt, PrimFunc, Stmt, Var } from './nodes';
import { StmtExprVisitor } from './visitor';

type Root = Stmt | PrimFunc;

function visitRoot(v: StmtExprVisitor, root: Root): void {
  if (root.kind === 'PrimFunc') v.visitPrimFunc(root);
  else v.visitStmt(root);
}

/** Every Allocate, outermost first (pre-order). */
export function collectAllocates(root: Root): Allocate[] {
  const out: Allocate[] = [];
  visitRoot(
    new (class extends StmtExprVisitor {
      override visitAllocate(s: Allocate): void {
        out.push(s);
        super.visitAllocate(s);
      }
    })(),
    root,
  );
  return out;
}

/** Every AllocateConst, outermost first (pre-order). */
export function collectAllocateConsts(root: Root): AllocateConst[] {
  const out: AllocateConst[] = [];
  visitRoot(
    new (class extends StmtExprVisitor {
      override visitAllocateConst(s: AllocateConst): void {
        out.push(s);
        super.visitAllocateConst(s);
      }
    })(),
    root,
  );
  return out;
}

export const EXTERN_CALL_OPS: ReadonlySet<string> = new Set(['tir.call_extern', 'tir.tvm_call_cpacked']);

export interface ExternCall {
  /** `tir.call_extern` or `tir.tvm_call_cpacked`. */
  readonly op: string;
  /** The callee: a C symbol or a PrimFunc of the module. */
  readonly name: string;
  /** Arguments after the callee name. */
  readonly args: readonly Expr[];
}

/** `call_extern` / `tvm_call_cpacked` calls in evaluation order. */
export function collectCallExterns(root: Root): ExternCall[] {
  const out: ExternCall[] = [];
  visitRoot(
    new (class extends StmtExprVisitor {
      override visitCall(e: Call): void {
        const callee = e.args[0];
        if (EXTERN_CALL_OPS.has(e.op) && callee !== undefined && callee.kind === 'StringImm') {
          out.push({ op: e.op, name: callee.value, args: e.args.slice(1) });
        }
        super.visitCall(e);
      }
    })(),
    root,
  );
  return out;
}

/**
 * Vars used but not bound inside `root`, in order of first use. A PrimFunc binds its params
 * and its buffer-map data vars; statements bind loop, let and allocate vars for their bodies.
 */
export function freeVars(root: Root): Var[] {
  const bound = new Map<number, number>();
  const seen = new Set<number>();
  const out: Var[] = [];
  const bind = (v: Var): void => {
    bound.set(v.id, (bound.get(v.id) ?? 0) + 1);
  };
  const unbind = (v: Var): void => {
    const n = (bound.get(v.id) ?? 1) - 1;
    if (n === 0) bound.delete(v.id);
    else bound.set(v.id, n);
  };
  class Free extends StmtExprVisitor {
    override visitVar(v: Var): void {
      if (!bound.has(v.id) && !seen.has(v.id)) {
        seen.add(v.id);
        out.push(v);
      }
    }
    override visitFor(s: For): void {
      this.visitExpr(s.min);
      this.visitExpr(s.extent);
      bind(s.loopVar);
      this.visitStmt(s.body);
      unbind(s.loopVar);
    }
    // Scopes bind for their body (visited next) and unbind when it is done.
    override visitLetStmt(s: LetStmt): void {
      this.visitExpr(s.value);
      bind(s.var);
    }
    override visitAllocate(s: Allocate): void {
      for (const x of s.extents) this.visitExpr(x);
      this.visitExpr(s.condition);
      bind(s.bufferVar);
    }
    override visitAllocateConst(s: AllocateConst): void {
      for (const x of s.extents) this.visitExpr(x);
      bind(s.bufferVar);
    }
    override leaveStmt(s: Stmt): void {
      if (s.kind === 'LetStmt') unbind(s.var);
      else if (s.kind === 'Allocate' || s.kind === 'AllocateConst') unbind(s.bufferVar);
    }
    override visitPrimFunc(f: PrimFunc): void {
      for (const p of f.params) bind(p);
      for (const [, b] of f.bufferMap) bind(b.data);
      for (const [, b] of f.bufferMap) for (const d of b.shape) this.visitExpr(d);
      this.visitStmt(f.body);
    }
  }
  visitRoot(new Free(), root);
  return out;
}

/** Statements other than SeqStmt containers: a size measure that ignores how code is grouped. */
export function countStatements(root: Root): number {
  let n = 0;
  visitRoot(
    new (class extends StmtExprVisitor {
      override enterStmt(s: Stmt): void {
        if (s.kind !== 'SeqStmt') n++;
      }
    })(),
    root,
  );
  return n;
}

/**
 * The var a call argument points into: the var itself (a buffer handle), `address_of(buf[i])`'s
 * buffer, or `tvm_access_ptr`'s. Undefined for any other expression.
 */
export function pointedBuffer(e: Expr): Var | undefined {
  if (e.kind === 'Var') return e;
  if (e.kind === 'Call' && e.op === 'tir.address_of' && e.args[0]?.kind === 'BufferLoad') return e.args[0].buffer.data;
  if (e.kind === 'Call' && e.op === 'tir.tvm_access_ptr' && e.args[1]?.kind === 'Var') return e.args[1];
  return undefined;
}

/**
 * The var ids of the buffers `root` can produce the contents of: each store's buffer, and each
 * buffer a call is given a pointer to (the handle, `address_of(buf[i])`, `tvm_access_ptr`, or a
 * name bound to one first), which the call may write. A buffer not in the set is never computed.
 */
export function mayWriteBuffers(root: Root): Set<number> {
  const ids = new Set<number>();
  const pointee = (e: Expr): number | undefined => pointedBuffer(e)?.id;
  visitRoot(
    new (class extends StmtExprVisitor {
      override enterStmt(s: Stmt): void {
        if (s.kind === 'BufferStore') ids.add(s.buffer.data.id);
        // A pointer bound to a name first (`let p = out`) may be written through that name.
        if (s.kind === 'LetStmt') {
          const id = pointee(s.value);
          if (id !== undefined) ids.add(id);
        }
      }
      override visitCall(e: Call): void {
        if (e.op !== 'tir.address_of') {
          for (const a of e.args) {
            const id = pointee(a);
            if (id !== undefined) ids.add(id);
          }
        }
        super.visitCall(e);
      }
    })(),
    root,
  );
  return ids;
}

/** The var ids of the buffers `root` stores into (BufferStore only; calls are not counted). */
export function storedBuffers(root: Root): Set<number> {
  const ids = new Set<number>();
  visitRoot(
    new (class extends StmtExprVisitor {
      override enterStmt(s: Stmt): void {
        if (s.kind === 'BufferStore') ids.add(s.buffer.data.id);
      }
    })(),
    root,
  );
  return ids;
}
