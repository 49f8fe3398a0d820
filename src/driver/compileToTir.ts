/**
 * The front half of the compiler: partition a graph module for one backend, lower it to
 * TIR with per-target strategies, then run the backend's TIR passes by phase (phase by
 * phase, the target's own passes before the global ones of that phase, as UMA does).
 */
import { PassContext, TirPassPhase, TIR_PASS_PHASES } from '../backend/passes';
import { BackendRegistry } from '../backend/registry';
import { TargetAttrValue } from '../backend/targetAttrs';
import { guardStrategy } from '../backend/userCode';
import { IRModule } from '../ir/graph/types';
import { TirModule } from '../ir/tir/nodes';
import { firstTirProblem } from '../ir/tir/wellFormed';
import { BackendHookError, LoweringError } from '../errors';
import { CPU_STRATEGIES } from '../lower/cpu';
import { lowerToTir } from '../lower/lowerModule';
import { HOST_TARGET, OperatorStrategy } from '../lower/strategy';
import { partition } from '../partition/partition';

export interface CompileToTirOptions {
  readonly mergeRegions?: boolean;
  readonly attrs?: Readonly<Record<string, TargetAttrValue>>;
  readonly moduleName?: string;
  /** Stop after this TIR phase (inclusive); default runs all phases. */
  readonly lastPhase?: TirPassPhase;
}

export interface TirCompilation {
  readonly partitioned: IRModule;
  readonly tir: TirModule;
}

/**
 * Strategy lookup: a backend's own strategies first; the host CPU's for target `c`. What a
 * backend's strategy throws is reported as that backend's failure (`userCode.ts`).
 */
export function strategyLookup(registry: BackendRegistry) {
  return (target: string, op: string): OperatorStrategy | undefined =>
    target === HOST_TARGET ? CPU_STRATEGIES.get(op) : guardStrategy(target, op, registry.strategyFor(target, op));
}

/**
 * The lowered module must be well-formed (wellFormed.ts) before any pass sees it: a problem in
 * a function of a backend's target is that backend's strategies' (an out-of-range store they
 * emit would compile to overlapping buffers); in one of the host's, uma-ts's own.
 */
function checkLowered(tir: TirModule): void {
  const problem = firstTirProblem(tir);
  if (!problem) return;
  const target = tir.functions.get(problem.func)?.attrs.target ?? HOST_TARGET;
  if (target === HOST_TARGET) throw new LoweringError(`lowering produced an ill-formed ${problem.func}: ${problem.message}`, { func: problem.func });
  throw new BackendHookError(`backend ${target}: its strategies lowered ${problem.func} to ill-formed TIR: ${problem.message}`, { target, func: problem.func });
}

export function compileToTir(
  module: IRModule,
  registry: BackendRegistry,
  target: string,
  options: CompileToTirOptions = {},
): TirCompilation {
  const backend = registry.get(target);
  const attrs = { ...backend.defaultAttrs(), ...(options.attrs ?? {}) };
  const partitioned = partition(module, registry, target, {
    ...(options.mergeRegions !== undefined ? { mergeRegions: options.mergeRegions } : {}),
    attrs,
  });
  let tir = lowerToTir(partitioned, {
    strategyFor: strategyLookup(registry),
    ...(options.moduleName ? { moduleName: options.moduleName } : {}),
  });
  checkLowered(tir);
  const ctx: PassContext = { target, attrs };
  for (const phase of TIR_PASS_PHASES) {
    if (options.lastPhase !== undefined && phase > options.lastPhase) break;
    for (const pass of registry.tirPasses(target, phase)) tir = pass.run(tir, ctx);
    for (const pass of registry.globalTirPasses(phase)) tir = pass.run(tir, ctx);
  }
  return { partitioned, tir };
}
