/**
 * The unified static memory planner, end to end (TVM `tir.usmp.PlanMemory`):
 * [I/O → allocates] → outputs that copy I/O served from its bytes → AssignPoolInfo →
 * extractBufferInfo → planning algorithm → verify → convert to pool offsets. The result is the rewritten module plus everything codegen and
 * reports need (pool sizes, constant pool contents, the plan, where I/O landed).
 */
import { MemoryPlanningError } from '../errors';
import { HOST_TARGET } from '../lower/strategy';
import { TirModule } from '../ir/tir/nodes';
import { DEFAULT_PLANNING_ALGORITHM, getPlanningAlgorithm } from './algo/registry';
import { assignPoolInfo, isGlobalScope } from './assignPoolInfo';
import { convertToPoolOffsets } from './convertToPoolOffsets';
import { BufferInfoAnalysis, extractBufferInfo } from './extractBufferInfo';
import { createIoAllocates } from './ioAllocates';
import { aliasCopiedOutputs } from './ioAliases';
import { defaultPools, validatePools } from './pools';
import { IoPlacement, PlanningAlgorithm, PoolInfo, UsmpResult } from './types';
import { verifyPlan } from './verify';
import { planOptimality } from './optimality';
import { pinnedPoolsBound } from './conflicts';

export interface UsmpOptions {
  /** Pools in preference order; default: `defaultPools` of the module's targets. */
  readonly pools?: readonly PoolInfo[];
  /** Registered algorithm name; default `auto`. */
  readonly algorithm?: string;
  /** A planner to use instead of a registered one (reported under `algorithm`, default `custom`). */
  readonly planner?: PlanningAlgorithm;
  /** Plan model inputs/outputs in the pools too (U4). */
  readonly ioInWorkspace?: boolean;
  readonly timeBudgetMs?: number;
  readonly seed?: number;
}

/** Targets of every function of the module (attr `target`, default the host). */
export function moduleTargets(module: TirModule): string[] {
  const targets = new Set<string>([HOST_TARGET]);
  for (const f of module.functions.values()) targets.add(f.attrs.target ?? HOST_TARGET);
  return [...targets];
}

/**
 * Global allocates the planner could not take (parallel loops, dynamic extents, missing
 * annotations) would need memory the generated code has no place for: that is an error
 * naming each one and why. Local-scope arrays and unpooled constants are fine.
 */
function rejectUnplannedGlobals(analysis: BufferInfoAnalysis): void {
  const blocking = analysis.unplanned.filter((u) => isGlobalScope(u.scope) && u.kind === 'workspace');
  if (blocking.length === 0) return;
  const lines = blocking.map((u) => `'${u.name}' in '${u.func}': ${u.reason}`);
  throw new MemoryPlanningError(`cannot statically plan ${blocking.length} global allocate(s): ${lines.join('; ')}`, {
    func: blocking[0].func,
    buffer: blocking[0].name,
  });
}

/** Where each model input/output planned in the workspace landed, for `map_inputs`/`map_outputs`. */
function ioPlacements(analysis: BufferInfoAnalysis, plan: UsmpResult['plan']) {
  const inputs: IoPlacement[] = [];
  const outputs: IoPlacement[] = [];
  for (const b of analysis.buffers) {
    const io = analysis.sites.get(b.name)!.io;
    if (io === undefined) continue;
    const a = plan.get(b.name)!;
    (io.direction === 'input' ? inputs : outputs).push({ name: io.tensor, pool: a.pool, offset: a.offset, sizeBytes: b.sizeBytes });
    for (const alias of io.outputAliases ?? []) outputs.push({ name: alias, pool: a.pool, offset: a.offset, sizeBytes: b.sizeBytes });
  }
  return { inputs, outputs };
}

export function runUsmp(module: TirModule, options: UsmpOptions = {}): UsmpResult<TirModule> {
  const pools = options.pools ?? defaultPools(moduleTargets(module));
  validatePools(pools);
  // Outputs that copy another I/O tensor share its bytes once I/O is in the workspace
  // (ioAliases.ts): here, after pool pinning chose each one's pools, so both sides' pools hold.
  const withIo = aliasCopiedOutputs(options.ioInWorkspace ? createIoAllocates(module) : module);
  const annotated = assignPoolInfo(withIo, pools);
  const analysis = extractBufferInfo(annotated, pools);
  rejectUnplannedGlobals(analysis);

  const algorithm = options.planner !== undefined ? (options.algorithm ?? 'custom') : (options.algorithm ?? DEFAULT_PLANNING_ALGORITHM);
  const planner = options.planner ?? getPlanningAlgorithm(algorithm);
  const plan = planner(analysis.buffers, analysis.memoryPressure, { timeBudgetMs: options.timeBudgetMs, seed: options.seed });
  verifyPlan(analysis.buffers, plan, pools);

  const rewritten = convertToPoolOffsets(annotated, analysis, plan, pools);
  const { inputs, outputs } = ioPlacements(analysis, plan);
  return {
    module: rewritten.module,
    algorithm,
    pools: rewritten.pools,
    buffers: analysis.buffers,
    plan,
    sameAs: analysis.sameAs,
    memoryPressure: analysis.memoryPressure,
    unplanned: analysis.unplanned.map(({ func, name, reason }) => ({ func, name, reason })),
    inputs,
    outputs,
    // Pool sizes are rounded up to their alignment: so is each pool's pinned part of the bound.
    optimality: planOptimality(
      plan,
      rewritten.pools.reduce((sum, p) => sum + p.sizeBytes, 0),
      Math.max(analysis.memoryPressure, pinnedPoolsBound(analysis.buffers, true)),
    ),
  };
}
