/**
 * AssignPoolInfo (TVM `tir.usmp.AssignPoolInfo`): every global `Allocate` and every
 * `AllocateConst` without a `candidate_memory_pools` annotation gets the pools its
 * PrimFunc's target can reach, in the user's pool order. Annotations a pass already wrote
 * (pool pinning) are kept, after checking they name pools that exist and have the right
 * kind; which target may reach a pinned pool is the pinning pass's call (a buffer main
 * allocates may only ever be touched by an accelerator), checked after planning.
 *
 * As in TVM, constants never fall back to workspace pools: when the user gives no constant
 * pool at all, AllocateConsts stay unannotated and remain plain constant arrays.
 */
import { PoolConstraintError } from '../errors';
import { HOST_TARGET } from '../lower/strategy';
import { StmtExprMutator } from '../ir/tir/mutator';
import { Allocate, AllocateConst, ANN_CANDIDATE_POOLS, PrimFunc, Stmt, TirModule } from '../ir/tir/nodes';
import { describePool, poolsForTarget } from './pools';
import { PoolInfo, PoolKind } from './types';

export function funcTarget(f: PrimFunc): string {
  return f.attrs.target ?? HOST_TARGET;
}

/** Global storage (TVM's kGlobal rank: `global` and tagged `global.<tag>`) is what USMP plans. */
export function isGlobalScope(scope: string): boolean {
  return scope === 'global' || scope.startsWith('global.');
}

/** Reads a `candidate_memory_pools` annotation, or undefined when absent. */
export function candidatePoolNames(annotations: Allocate['annotations']): readonly string[] | undefined {
  const v = annotations[ANN_CANDIDATE_POOLS];
  if (v === undefined) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as readonly string[];
  throw new PoolConstraintError(`${ANN_CANDIDATE_POOLS} must be an array of pool names, got ${JSON.stringify(v)}`);
}

class PoolInfoAssigner extends StmtExprMutator {
  constructor(
    private readonly pools: readonly PoolInfo[],
    private readonly funcName: string,
    private readonly target: string,
  ) {
    super();
  }

  override mutateAllocate(s: Allocate, body: Stmt): Stmt {
    const inner = super.mutateAllocate(s, body) as Allocate;
    if (!isGlobalScope(s.storageScope)) return inner;
    return this.annotate(inner, 'workspace');
  }

  override mutateAllocateConst(s: AllocateConst, body: Stmt): Stmt {
    const inner = super.mutateAllocateConst(s, body) as AllocateConst;
    if (!this.pools.some((p) => p.kind === 'constant')) return inner;
    return this.annotate(inner, 'constant');
  }

  private annotate<T extends Allocate | AllocateConst>(s: T, kind: PoolKind): T {
    const buffer = s.bufferVar.name;
    const existing = candidatePoolNames(s.annotations);
    if (existing !== undefined) {
      this.checkPinned(existing, kind, buffer);
      return s;
    }
    const candidates = poolsForTarget(this.pools, this.target, kind);
    if (candidates.length === 0) {
      const listed = this.pools.length === 0 ? 'none' : this.pools.map(describePool).join('; ');
      throw new PoolConstraintError(
        `no ${kind} pool is ${kind === 'workspace' ? 'writable' : 'readable'} by target '${this.target}' ` +
          `of function '${this.funcName}' (buffer '${buffer}'); pools: ${listed}`,
        { func: this.funcName, target: this.target, buffer },
      );
    }
    return { ...s, annotations: { ...s.annotations, [ANN_CANDIDATE_POOLS]: candidates.map((p) => p.name) } };
  }

  private checkPinned(names: readonly string[], kind: PoolKind, buffer: string): void {
    const ctx = { func: this.funcName, target: this.target, buffer };
    if (names.length === 0) {
      throw new PoolConstraintError(`buffer '${buffer}' in '${this.funcName}' has an empty ${ANN_CANDIDATE_POOLS}`, ctx);
    }
    for (const name of names) {
      const pool = this.pools.find((p) => p.name === name);
      if (pool === undefined) {
        throw new PoolConstraintError(
          `buffer '${buffer}' in '${this.funcName}' names unknown pool '${name}' in ${ANN_CANDIDATE_POOLS} ` +
            `(pools: ${this.pools.map((p) => p.name).join(', ') || 'none'})`,
          { ...ctx, pool: name },
        );
      }
      if (pool.kind !== kind) {
        throw new PoolConstraintError(
          `buffer '${buffer}' in '${this.funcName}' is a ${kind} buffer but pool '${name}' is a ${pool.kind} pool`,
          { ...ctx, pool: name },
        );
      }
    }
  }
}

/** Annotates every plannable allocation of every function with its candidate pools. */
export function assignPoolInfo(module: TirModule, pools: readonly PoolInfo[]): TirModule {
  const functions = new Map<string, PrimFunc>();
  for (const [name, f] of module.functions) {
    const assigner = new PoolInfoAssigner(pools, name, funcTarget(f));
    const body = assigner.mutateStmt(f.body);
    functions.set(name, body === f.body ? f : { ...f, body });
  }
  return { ...module, functions };
}
