/**
 * Loop nests that only copy a contiguous run of elements of one type
 * (`for i: dst[a + i] = src[b + i]`, or nests whose runs follow each other), which the C
 * emitter writes as one memmove. gcc -O2 keeps such loops byte by byte (it cannot prove the
 * two pointers apart), where TFLite Micro's kernels call memcpy: a reshape into the model
 * output ran at a twelfth of its speed, concatenation and nearest-neighbour resize at half.
 * memmove, not memcpy: an operator may write its output over its input (in-place reuse),
 * and then the run is copied onto itself.
 */
import { Buffer, BufferLoad, BufferStore, Expr, For, IntImm, Stmt, Var } from '../../ir/tir/nodes';
import { intImm } from '../../ir/tir/builder';
import { StmtExprMutator } from '../../ir/tir/mutator';
import { StmtExprVisitor } from '../../ir/tir/visitor';

export interface ContiguousCopy {
  readonly dst: { readonly buffer: Buffer; readonly indices: readonly Expr[] };
  readonly src: { readonly buffer: Buffer; readonly indices: readonly Expr[] };
  /** Elements copied (the product of the loops' extents). */
  readonly count: IntImm;
}

/** The coefficient of `v` in `e` when `e` is affine in `v` with a constant coefficient; undefined otherwise. */
function coefficient(e: Expr, v: Var): number | undefined {
  switch (e.kind) {
    case 'IntImm':
    case 'FloatImm':
    case 'StringImm':
      return 0;
    case 'Var':
      return e.id === v.id ? 1 : 0;
    case 'Cast':
      return e.dtype === 'int32' || e.dtype === 'int64' ? coefficient(e.value, v) : mentions(e, v) ? undefined : 0;
    case 'BinaryOp': {
      if (e.op === 'Add' || e.op === 'Sub') {
        const a = coefficient(e.a, v);
        const b = coefficient(e.b, v);
        if (a === undefined || b === undefined) return undefined;
        return e.op === 'Add' ? a + b : a - b;
      }
      if (e.op === 'Mul') {
        const a = coefficient(e.a, v);
        const b = coefficient(e.b, v);
        if (a === undefined || b === undefined) return undefined;
        if (a === 0 && b === 0) return 0;
        if (a === 0 && e.a.kind === 'IntImm') return e.a.value * b;
        if (b === 0 && e.b.kind === 'IntImm') return e.b.value * a;
        return undefined;
      }
      return mentions(e, v) ? undefined : 0;
    }
    default:
      return mentions(e, v) ? undefined : 0;
  }
}

function mentions(e: Expr, v: Var): boolean {
  let found = false;
  new (class extends StmtExprVisitor {
    override visitVar(x: Var): void {
      if (x.id === v.id) found = true;
    }
  })().visitExpr(e);
  return found;
}

/** The coefficient of `v` in the row-major flat index of `indices` into `buffer`. */
function flatCoefficient(buffer: Buffer, indices: readonly Expr[], v: Var): number | undefined {
  if (indices.length === 1) return coefficient(indices[0], v);
  if (indices.length !== buffer.shape.length) return undefined;
  let stride = 1;
  let total = 0;
  for (let d = indices.length - 1; d >= 0; d--) {
    const c = coefficient(indices[d], v);
    if (c === undefined) return undefined;
    total += c * stride;
    const dim = buffer.shape[d];
    if (dim.kind !== 'IntImm') {
      // A symbolic dimension scales every index left of it: only the last one may then vary.
      if (d > 0 && indices.slice(0, d).some((i) => coefficient(i, v) !== 0)) return undefined;
      return total;
    }
    stride *= dim.value;
  }
  return total;
}

function substituted(indices: readonly Expr[], v: Var, value: Expr): Expr[] {
  const m = new (class extends StmtExprMutator {
    override mutateVar(x: Var): Expr {
      return x.id === v.id ? value : x;
    }
  })();
  return indices.map((i) => m.mutateExpr(i));
}

function plainCopy(s: Stmt): { store: BufferStore; load: BufferLoad } | undefined {
  if (s.kind !== 'BufferStore' || s.value.kind !== 'BufferLoad') return undefined;
  if (s.value.buffer.dtype !== s.buffer.dtype) return undefined;
  // Within one buffer a forward loop and memmove differ where the runs overlap.
  if (s.value.buffer.data.id === s.buffer.data.id) return undefined;
  return { store: s, load: s.value };
}

/**
 * The copy a loop nest performs, when it is one contiguous run in both buffers: each loop
 * has a constant extent and advances both flat indices by exactly the elements its body
 * copies.
 */
export function contiguousCopy(s: For): ContiguousCopy | undefined {
  const inner: ContiguousCopy | undefined =
    s.body.kind === 'For'
      ? contiguousCopy(s.body)
      : (() => {
          const c = plainCopy(s.body);
          return c && { dst: { buffer: c.store.buffer, indices: c.store.indices }, src: { buffer: c.load.buffer, indices: c.load.indices }, count: intImm(1) };
        })();
  if (!inner) return undefined;
  const run = inner.count.value;
  const v = s.loopVar;
  if (flatCoefficient(inner.dst.buffer, inner.dst.indices, v) !== run || flatCoefficient(inner.src.buffer, inner.src.indices, v) !== run) return undefined;
  // An empty run stays a loop: it still names both buffers (an unused parameter fails -Werror builds).
  if (s.extent.kind !== 'IntImm' || s.extent.value <= 0) return undefined;
  const count = intImm(s.extent.value * run);
  return {
    dst: { buffer: inner.dst.buffer, indices: substituted(inner.dst.indices, v, s.min) },
    src: { buffer: inner.src.buffer, indices: substituted(inner.src.indices, v, s.min) },
    count,
  };
}
