/**
 * The partitioning pipeline of one target, as UMA's `UMAPartitioner.partition`:
 *
 *   pre_partitioning passes → MergeComposite → AnnotateTarget → MergeCompilerRegions
 *   → PartitionGraph → post_partitioning_0 passes → Defunctionalize → post_partitioning_1 passes
 *
 * To offload to several backends, partition once per target; a later target only sees the
 * operator calls earlier targets left in main.
 */
import { BackendRegistry } from '../backend/registry';
import { GraphPassPhase, PassContext } from '../backend/passes';
import { TargetAttrValue } from '../backend/targetAttrs';
import { BackendHookError, LoweringError } from '../errors';
import { firstGraphProblem } from '../ir/graph/wellFormed';
import { IRModule, MAIN_FUNCTION } from '../ir/graph/types';
import { annotateTarget } from './annotateTarget';
import { defunctionalize } from './defunctionalize';
import { mergeComposite } from './mergeComposite';
import { mergeCompilerRegions } from './mergeRegions';
import { mainOf } from './moduleEdit';
import { partitionGraph } from './partitionGraph';

export interface PartitionOptions {
  /** Merge adjacent calls of the target into one external function (default true). */
  readonly mergeRegions?: boolean;
  /** Target attributes overriding the backend's defaults (e.g. from `parseTarget`). */
  readonly attrs?: Readonly<Record<string, TargetAttrValue>>;
}

function runGraphPasses(
  module: IRModule,
  registry: BackendRegistry,
  phase: GraphPassPhase,
  ctx: PassContext,
): IRModule {
  let current = module;
  for (const pass of registry.graphPasses(phase, ctx.target)) {
    current = pass.run(current, ctx);
    if (!current.functions.has(MAIN_FUNCTION)) {
      throw new LoweringError(`graph pass '${pass.name}' (${phase}) of target '${ctx.target}' removed '${MAIN_FUNCTION}'`, {
        target: ctx.target,
      });
    }
    // Blamed here, on the pass: later stages would report the broken module as their own.
    const problem = firstGraphProblem(current);
    if (problem) {
      throw new BackendHookError(`backend ${ctx.target}: graph pass '${pass.name}' (${phase}) left ${problem.func} ill-formed: ${problem.message}`, {
        target: ctx.target,
        func: problem.func,
      });
    }
  }
  return current;
}

export function partition(
  module: IRModule,
  registry: BackendRegistry,
  target: string,
  options: PartitionOptions = {},
): IRModule {
  const backend = registry.get(target);
  const ctx: PassContext = { target, attrs: { ...backend.defaultAttrs(), ...(options.attrs ?? {}) } };
  let mod = runGraphPasses(module, registry, 'pre_partitioning', ctx);
  mod = mergeComposite(mod, backend.patterns());
  const annotation = annotateTarget(mod, backend);
  const { regions } = mergeCompilerRegions(mainOf(mod, 'MergeCompilerRegions'), annotation, options.mergeRegions ?? true);
  mod = partitionGraph(mod, regions);
  mod = runGraphPasses(mod, registry, 'post_partitioning_0', ctx);
  mod = defunctionalize(mod);
  return runGraphPasses(mod, registry, 'post_partitioning_1', ctx);
}

/** Names of the external functions `target` owns in `module`, in region order. */
export function externalFunctions(module: IRModule, target: string): string[] {
  return [...module.functions.values()]
    .filter((f) => f.attrs.Compiler === target)
    .map((f) => f.name)
    .sort((a, b) => Number(a.slice(a.lastIndexOf('_') + 1)) - Number(b.slice(b.lastIndexOf('_') + 1)));
}
