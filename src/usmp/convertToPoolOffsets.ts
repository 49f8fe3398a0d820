/**
 * The offset rewrite (TVM `tir.usmp.transform.ConvertPoolAllocationsToOffsets`): the bridge
 * from a plan back to TIR. Every planned Allocate/AllocateConst becomes
 * `LetStmt(bufferVar, tir.pool_ptr(<pool>_var, offset), body)`; every PrimFunc reached from
 * main takes one extra `uint8` handle param per used pool, appended in pool order, and
 * every call passes its caller's pool params along.
 *
 * A function called more than once whose calls got different places for their internal
 * buffers is specialised: the first placement keeps the function's name, each other one
 * gets a copy named `<func>_<n>`, and the call sites are redirected to it.
 */
import { MemoryPlanningError } from '../errors';
import { call, intImm, letStmt, makeVar, stringImm } from '../ir/tir/builder';
import { StmtExprMutator } from '../ir/tir/mutator';
import {
  Allocate,
  AllocateConst,
  Call,
  Expr,
  MAIN_PRIM_FUNC,
  PrimFunc,
  Stmt,
  TirModule,
  Var,
} from '../ir/tir/nodes';
import { postOrderVisit } from '../ir/tir/visitor';
import { BufferInfoAnalysis, CallInstance, calledModuleFunction } from './extractBufferInfo';
import { BufferInfo, BufferPlan, PlannedPool, PoolAllocation, PoolInfo } from './types';
import { alignUp } from '../util/align';

/** PrimFunc attribute listing the pools behind the trailing pool params, in param order. */
export const ATTR_POOL_ARGS = 'pool_args';

export function poolParamName(pool: string): string {
  return `${pool}_var`;
}

type AllocNode = Allocate | AllocateConst;

/** The rewrite of one function as one call instance (or several with equal placements) needs it. */
interface Specialization {
  readonly name: string;
  readonly source: string;
  readonly placements: ReadonlyMap<AllocNode, PoolAllocation>;
  /** Callee function name, by call ordinal. */
  readonly callees: readonly string[];
}

function allocationNodesInOrder(f: PrimFunc): Map<AllocNode, number> {
  const order = new Map<AllocNode, number>();
  postOrderVisit(f.body, (n) => {
    if ((n.kind === 'Allocate' || n.kind === 'AllocateConst') && !order.has(n)) order.set(n, order.size);
  });
  return order;
}

class Specializer {
  readonly specs = new Map<string, Specialization>();
  private readonly nameByKey = new Map<string, string>();
  private readonly copies = new Map<string, number>();
  private readonly nodeOrder = new Map<string, Map<AllocNode, number>>();

  constructor(
    private readonly module: TirModule,
    private readonly placementsByInstance: ReadonlyMap<number, Map<AllocNode, PoolAllocation>>,
  ) {}

  /** The name of the function that runs `inst` after the rewrite. */
  resolve(inst: CallInstance): string {
    const callees = inst.calls.map((c) => this.resolve(c));
    const placements = this.placementsByInstance.get(inst.id) ?? new Map<AllocNode, PoolAllocation>();
    if (inst.func === MAIN_PRIM_FUNC) {
      this.specs.set(MAIN_PRIM_FUNC, { name: MAIN_PRIM_FUNC, source: MAIN_PRIM_FUNC, placements, callees });
      return MAIN_PRIM_FUNC;
    }
    const key = this.key(inst.func, placements, callees);
    const known = this.nameByKey.get(key);
    if (known !== undefined) return known;
    const name = this.freshName(inst.func);
    this.nameByKey.set(key, name);
    this.specs.set(name, { name, source: inst.func, placements, callees });
    return name;
  }

  private key(func: string, placements: ReadonlyMap<AllocNode, PoolAllocation>, callees: readonly string[]): string {
    let order = this.nodeOrder.get(func);
    if (order === undefined) {
      order = allocationNodesInOrder(this.module.functions.get(func)!);
      this.nodeOrder.set(func, order);
    }
    const placed = [...placements].map(([node, a]) => [order.get(node), a.pool, a.offset] as const);
    placed.sort((x, y) => (x[0] ?? 0) - (y[0] ?? 0));
    return JSON.stringify([func, placed, callees]);
  }

  private freshName(func: string): string {
    if (!this.specs.has(func)) return func;
    let n = this.copies.get(func) ?? 0;
    let name: string;
    do {
      n += 1;
      name = `${func}_${n}`;
    } while (this.module.functions.has(name) || this.specs.has(name));
    this.copies.set(func, n);
    return name;
  }
}

class OffsetRewriter extends StmtExprMutator {
  private callOrdinal = 0;

  constructor(
    private readonly module: TirModule,
    private readonly spec: Specialization,
    private readonly poolVars: ReadonlyMap<string, Var>,
    private readonly poolOrder: readonly string[],
  ) {
    super();
  }

  private poolPtr(a: PoolAllocation): Expr {
    return call('tir.pool_ptr', 'handle', [this.poolVars.get(a.pool)!, intImm(a.offset)]);
  }

  override mutateAllocate(s: Allocate, body: Stmt): Stmt {
    const a = this.spec.placements.get(s);
    if (a === undefined) return super.mutateAllocate(s, body);
    return letStmt(s.bufferVar, this.poolPtr(a), body);
  }

  override mutateAllocateConst(s: AllocateConst, body: Stmt): Stmt {
    const a = this.spec.placements.get(s);
    if (a === undefined) return super.mutateAllocateConst(s, body);
    return letStmt(s.bufferVar, this.poolPtr(a), body);
  }

  override mutateCall(e: Call): Expr {
    const inner = super.mutateCall(e) as Call;
    if (calledModuleFunction(e, this.module) === undefined) return inner;
    const callee = this.spec.callees[this.callOrdinal++];
    const pools = this.poolOrder.map((p) => this.poolVars.get(p)!);
    return { ...inner, args: [stringImm(callee), ...inner.args.slice(1), ...pools] };
  }
}

function specializedAttrs(f: PrimFunc, spec: Specialization, poolOrder: readonly string[]): PrimFunc['attrs'] {
  const attrs: Record<string, PrimFunc['attrs'][string]> = { ...f.attrs, [ATTR_POOL_ARGS]: poolOrder };
  if (spec.name !== spec.source && typeof f.attrs.global_symbol === 'string') {
    attrs.global_symbol = f.attrs.global_symbol + spec.name.slice(spec.source.length);
  }
  return attrs;
}

function plannedPools(
  pools: readonly PoolInfo[],
  buffers: readonly BufferInfo[],
  plan: BufferPlan,
  analysis: BufferInfoAnalysis,
): PlannedPool[] {
  const used = new Map<string, number>();
  for (const b of buffers) {
    const a = plan.get(b.name)!;
    used.set(a.pool, Math.max(used.get(a.pool) ?? 0, a.offset + b.sizeBytes));
  }
  return pools
    .filter((p) => used.has(p.name))
    .map((pool) => {
      // Rounded up to the alignment, but never past the pool's limit (a 100-byte pool aligned
      // to 64 is 100 bytes, not 128): the plan fits the limit, the declared array must too.
      const usedBytes = used.get(pool.name)!;
      const sizeBytes = Math.min(alignUp(usedBytes, pool.alignment), pool.sizeHintBytes ?? Infinity);
      if (pool.kind !== 'constant') return { pool, sizeBytes, usedBytes };
      const data = new Uint8Array(sizeBytes);
      for (const b of buffers) {
        const a = plan.get(b.name)!;
        const node = analysis.sites.get(b.name)!.node;
        if (a.pool === pool.name && node.kind === 'AllocateConst') data.set(node.data.subarray(0, b.sizeBytes), a.offset);
      }
      return { pool, sizeBytes, usedBytes, data };
    });
}

export interface OffsetRewriteResult {
  readonly module: TirModule;
  /** Used pools only, in the order of the pool params (the user's pool order). */
  readonly pools: readonly PlannedPool[];
}

/**
 * Rewrites `module` (the one `analysis` was extracted from) to address every planned
 * buffer inside its pool. `pools` gives the pool order.
 */
export function convertToPoolOffsets(
  module: TirModule,
  analysis: BufferInfoAnalysis,
  plan: BufferPlan,
  pools: readonly PoolInfo[],
): OffsetRewriteResult {
  const placementsByInstance = new Map<number, Map<AllocNode, PoolAllocation>>();
  const place = (name: string, a: PoolAllocation): void => {
    const site = analysis.sites.get(name)!;
    let m = placementsByInstance.get(site.instance);
    if (m === undefined) placementsByInstance.set(site.instance, (m = new Map()));
    m.set(site.node, a);
  };
  for (const b of analysis.buffers) {
    const a = plan.get(b.name);
    if (a === undefined) {
      throw new MemoryPlanningError(`the plan does not place buffer '${b.name}'`, { buffer: b.name });
    }
    place(b.name, a);
  }
  // A constant identical to a planned one reads that one's bytes.
  for (const [name, kept] of analysis.sameAs) place(name, plan.get(kept)!);
  const planned = plannedPools(pools, analysis.buffers, plan, analysis);
  const poolOrder = planned.map((p) => p.pool.name);

  const specializer = new Specializer(module, placementsByInstance);
  specializer.resolve(analysis.callTree);

  const functions = new Map(module.functions);
  for (const spec of specializer.specs.values()) {
    const f = module.functions.get(spec.source)!;
    const poolVars = new Map(poolOrder.map((p) => [p, makeVar(poolParamName(p), 'handle', 'uint8')]));
    const body = new OffsetRewriter(module, spec, poolVars, poolOrder).mutateStmt(f.body);
    functions.set(spec.name, {
      ...f,
      params: [...f.params, ...poolOrder.map((p) => poolVars.get(p)!)],
      body,
      attrs: specializedAttrs(f, spec, poolOrder),
    });
  }
  return { module: { ...module, functions }, pools: planned };
}
