/**
 * The whole pipeline behind `uma-ts compile`: import → partition → lower → TIR passes →
 * [I/O allocates] → pool pinning → USMP → post-plan access check → C codegen → MLF directory
 * with report.json / report.svg / report.html. Every stage reports progress by name, and
 * nothing is written unless every stage succeeded.
 */
import { BackendRegistry } from '../backend/registry';
import { TargetAttrValue } from '../backend/targetAttrs';
import { generateC } from '../codegen';
import { BackendCodegenHook, CArtifacts, TensorSpec } from '../codegen/types';
import { ConfigError } from '../errors';
import { loadTfliteFile } from '../frontend/tflite';
import { GraphFunction, IRModule, MAIN_FUNCTION, TensorType } from '../ir/graph/types';
import { TirModule } from '../ir/tir/nodes';
import { buildMemoryReport, MemoryReport } from '../report/memoryReport';
import { createIoAllocates } from '../usmp/ioAllocates';
import { moduleTargets, runUsmp } from '../usmp/pipeline';
import { defaultPools, withDefaultConstantPool } from '../usmp/pools';
import { IoPlacement, PoolInfo, UsmpResult } from '../usmp/types';
import { sanitizeName } from '../lower/names';
import { compileToTir } from './compileToTir';
import {
  constraintsFromMemoryDecl,
  mergeConstraints,
  mergeTargetAccess,
  NO_CONSTRAINTS,
  PinningConstraints,
  PinningSolution,
  runPoolPinning,
} from '../../passes/poolPinning';
import { checkPoolAccess, PostPlanReport } from '../../passes/poolPinning/postPlanCheck';
import { PlanVerificationError } from '../errors';

export type CompileStage =
  | 'import'
  | 'partition+lower'
  | 'pool pinning'
  | 'memory planning'
  | 'access check'
  | 'codegen';

export interface CompileOptions {
  readonly backend: string;
  readonly registry: BackendRegistry;
  /** User pools in preference order; default: the backend's bundled pools or one shared pool. */
  readonly pools?: readonly PoolInfo[];
  readonly pins?: PinningConstraints;
  readonly algorithm?: string;
  readonly ioInWorkspace?: boolean;
  readonly targetAttrs?: Readonly<Record<string, TargetAttrValue>>;
  readonly mergeRegions?: boolean;
  /** false reproduces TVM: pools come from each function's target only. */
  readonly poolPinning?: boolean;
  readonly moduleName?: string;
  readonly timeBudgetMs?: number;
  readonly seed?: number;
  readonly codegenHooks?: readonly BackendCodegenHook[];
  readonly onProgress?: (stage: CompileStage) => void;
}

export interface CompileResult {
  readonly source: string;
  readonly graph: IRModule;
  readonly partitioned: IRModule;
  readonly tir: TirModule;
  readonly pools: readonly PoolInfo[];
  readonly pinning?: PinningSolution;
  readonly usmp: UsmpResult<TirModule>;
  readonly access: PostPlanReport;
  readonly report: MemoryReport;
  readonly artifacts: CArtifacts;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
}

function spec(name: string, type: TensorType): TensorSpec {
  return { name, dtype: type.dtype, shape: type.shape };
}

/** Model inputs/outputs as the application sees them, in main's order. */
export function ioSpecs(graph: IRModule): { inputs: TensorSpec[]; outputs: TensorSpec[] } {
  const main: GraphFunction | undefined = graph.functions.get(MAIN_FUNCTION);
  if (!main) throw new ConfigError(`model has no '${MAIN_FUNCTION}' function`);
  const byName = new Map(main.nodes.map((n) => [n.name, n]));
  return {
    inputs: main.params.map((p) => spec(p, byName.get(p)!.type)),
    outputs: main.outputs.map((o) => spec(o, byName.get(o)!.type)),
  };
}

export function compileModel(model: string | IRModule, options: CompileOptions): CompileResult {
  const progress = options.onProgress ?? (() => undefined);
  progress('import');
  const graph = typeof model === 'string' ? loadTfliteFile(model) : model;
  const source = typeof model === 'string' ? model : (model.source ?? '<module>');

  progress('partition+lower');
  const { partitioned, tir } = compileToTir(graph, options.registry, options.backend, {
    ...(options.mergeRegions !== undefined ? { mergeRegions: options.mergeRegions } : {}),
    ...(options.targetAttrs ? { attrs: options.targetAttrs } : {}),
    ...(options.moduleName ? { moduleName: options.moduleName } : {}),
  });

  const targets = moduleTargets(tir);
  const memory = options.registry.memoryFor(options.backend);
  let pools: PoolInfo[] = [...(options.pools ?? defaultPools(targets))];
  pools = mergeTargetAccess(pools, options.backend, memory);
  pools = withDefaultConstantPool(pools, targets);

  const withIo = options.ioInWorkspace ? createIoAllocates(tir) : tir;
  let toPlan = withIo;
  let pinning: PinningSolution | undefined;
  if (options.poolPinning !== false) {
    progress('pool pinning');
    const constraints = mergeConstraints(
      memory.pools.length > 0 || memory.operandConstraints.length > 0
        ? constraintsFromMemoryDecl(options.backend, memory)
        : NO_CONSTRAINTS,
      options.pins ?? NO_CONSTRAINTS,
    );
    const pinned = runPoolPinning(withIo, pools, constraints);
    toPlan = pinned.module;
    pinning = pinned.solution;
  }

  progress('memory planning');
  const usmp = runUsmp(toPlan, {
    pools,
    ...(options.algorithm ? { algorithm: options.algorithm } : {}),
    ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });

  progress('access check');
  const access = checkPoolAccess(usmp.module, pools, pinning);
  if (options.poolPinning !== false && (access.violations.length > 0 || access.misplaced.length > 0)) {
    // The pinning pass guaranteed a legal placement; a breach here is a compiler bug.
    const lines = [
      ...access.violations.map((v) => `${v.func} (target ${v.target}) uses '${v.buffer}' in pool '${v.pool}'`),
      ...access.misplaced.map((m) => `'${m.buffer}' placed in '${m.pool}', allowed {${m.allowed.join(', ')}}`),
    ];
    throw new PlanVerificationError(`planned program breaks pool access rules:\n  ${lines.join('\n  ')}`);
  }

  progress('codegen');
  const io = ioSpecs(graph);
  const memoryLayout = { ...usmp, inputs: renameIo(usmp.inputs, io.inputs), outputs: renameIo(usmp.outputs, io.outputs) };
  const hooks = options.codegenHooks ?? codegenHooksOf(options.registry, targets);
  const artifacts = generateC({
    module: usmp.module,
    ...(options.moduleName ? { moduleName: options.moduleName } : {}),
    inputs: io.inputs,
    outputs: io.outputs,
    memory: memoryLayout,
    backends: hooks,
  });
  const report = buildMemoryReport(source, usmp);
  return {
    source,
    graph,
    partitioned,
    tir,
    pools,
    ...(pinning ? { pinning } : {}),
    usmp,
    access,
    report,
    artifacts,
    inputs: io.inputs,
    outputs: io.outputs,
  };
}

/**
 * I/O placements carry main's param names (tensor names made C-safe by lowering); the
 * application knows its tensors by their model names.
 */
function renameIo(placements: readonly IoPlacement[], specs: readonly TensorSpec[]): IoPlacement[] {
  return placements.map((p) => {
    const spec = specs.find((s) => s.name === p.name) ?? specs.find((s) => sanitizeName(s.name) === p.name);
    return spec ? { ...p, name: spec.name } : p;
  });
}

/** The codegen contributions of every backend target present in the module. */
export function codegenHooksOf(registry: BackendRegistry, targets: readonly string[]): BackendCodegenHook[] {
  const hooks: BackendCodegenHook[] = [];
  for (const t of targets) {
    if (!registry.targets().includes(t)) continue;
    const h = registry.codegenFor(t);
    if (!h) continue;
    hooks.push({
      target: t,
      includes: h.includes(),
      ...(h.runtimeSources ? { runtimeSources: h.runtimeSources() } : {}),
    });
  }
  return hooks;
}
