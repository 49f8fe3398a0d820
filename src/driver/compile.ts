/**
 * The whole pipeline behind `uma-ts compile`: import → partition → lower → TIR passes →
 * [I/O allocates] → pool pinning → USMP → post-plan access check → C codegen → MLF directory
 * with report.json / report.svg / report.html. Every stage reports progress by name, and
 * nothing is written unless every stage succeeded.
 */
import { BackendRegistry } from '../backend/registry';
import { TargetAttrValue } from '../backend/targetAttrs';
import { guardCodegenHooks } from '../backend/userCode';
import { generateC } from '../codegen';
import { BackendCodegenHook, CArtifacts, IoRequirement, TensorSpec } from '../codegen/types';
import {
  ConfigError,
  GraphStructureError,
  isUmaError,
  LoweringError,
  PoolConstraintError,
  TypeInferenceError,
  UmaError,
  UnsupportedOperatorError,
} from '../errors';
import { loadTfliteFile } from '../frontend/tflite';
import { withHostProblemList } from './hostSupport';
import { tensorLowerBound } from '../ir/graph/liveness';
import { checkFunctionTypes } from '../ir/graph/typeInference';
import { GraphFunction, IRModule, MAIN_FUNCTION, TensorType } from '../ir/graph/types';
import { MAIN_PRIM_FUNC, TirModule } from '../ir/tir/nodes';
import { buildMemoryReport, MemoryReport } from '../report/memoryReport';
import { createIoAllocates } from '../usmp/ioAllocates';
import { moduleTargets, runUsmp } from '../usmp/pipeline';
import { defaultPools, withDefaultConstantPool } from '../usmp/pools';
import { IoPlacement, PoolInfo, UsmpResult } from '../usmp/types';
import { sanitizeName } from '../lower/names';
import { compileToTir } from './compileToTir';
import { withPoolOverflowDetails } from './poolOverflow';
import { checkGraphQuantization } from './checkGraphQuantization';
import { liteRtDeviations } from './liteRtDeviations';
import {
  constraintsFromMemoryDecl,
  formatInsertedCopy,
  InsertedCopy,
  insertCopiesForPinning,
  mergeConstraints,
  mergeTargetAccess,
  NO_CONSTRAINTS,
  PinningConstraints,
  PinningSolution,
  runPoolPinning,
  traceOperands,
} from '../../passes/poolPinning';
import { assertPoolAccess, checkPoolAccess, describeOperandViolation, describeUnpooled, describeViolation, PostPlanReport } from '../../passes/poolPinning/postPlanCheck';

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
  /**
   * One model of an application whose models share `pins`: a pin matching nothing here is not
   * an error yet (the result's `pinning.unmatchedPins`; compileApplication checks every pin
   * matched in some model).
   */
  readonly pinsSharedByModels?: boolean;
  readonly algorithm?: string;
  /**
   * Plan model inputs/outputs in the workspace pools (TVM's USMP I/O option). Default: only
   * when a target whose runtime registers pools (`CodegenHooks.registerPool`) touches them in
   * place, since its kernels accept only pointers into registered pools. `false` leaves them
   * to the application, which metadata.json then tells where each must live.
   */
  readonly ioInWorkspace?: boolean;
  readonly targetAttrs?: Readonly<Record<string, TargetAttrValue>>;
  readonly mergeRegions?: boolean;
  /** false reproduces TVM: pools come from each function's target only. */
  readonly poolPinning?: boolean;
  /**
   * When a buffer of main cannot satisfy both its writer and a reader, insert a host copy
   * between them (`insertCopiesForPinning`) instead of failing. Needs pool pinning.
   */
  readonly insertCopies?: boolean;
  readonly moduleName?: string;
  /** One model of an application (compileApplication): internal workspace pools are the application's arrays. */
  readonly sharedWorkspaceSymbol?: (pool: string) => string;
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
  /** Copies inserted to make the pool constraints satisfiable (with `insertCopies`). */
  readonly insertedCopies?: readonly InsertedCopy[];
  readonly usmp: UsmpResult<TirModule>;
  readonly access: PostPlanReport;
  readonly report: MemoryReport;
  /**
   * What the user must know though the compile succeeded: operators whose output differs from
   * TensorFlow Lite's (liteRtDeviations.ts), an accelerator using application-owned model I/O,
   * or (without pool pinning) accesses the access check flagged: pools a target cannot reach
   * and operands outside their backend operand constraint.
   * Also in the report's `warnings`.
   */
  readonly warnings: readonly string[];
  /** Decisions taken for the user that are not problems (also in the report's `notes`). */
  readonly notes: readonly string[];
  readonly artifacts: CArtifacts;
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  /** Whether model I/O was planned in the workspace, and why when it was decided automatically. */
  readonly ioInWorkspace: boolean;
  readonly ioInWorkspaceReason?: string;
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

/**
 * A problem in the model found while partitioning or lowering (a shape an operator cannot
 * take, ...) names the model file too, as the importer's errors do.
 */
export function namingModelFile<T>(source: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    const aboutModel = [TypeInferenceError, UnsupportedOperatorError, LoweringError, GraphStructureError].some((k) => e instanceof k);
    if (!aboutModel || !isUmaError(e) || e.context.file !== undefined || e.message.includes(source)) throw e;
    const Kind = e.constructor as new (message: string, context: UmaError['context']) => UmaError;
    throw new Kind(`${source}: ${e.message}`, { ...e.context, file: source });
  }
}

/** Names given empty would read below as "not given" (the default planner, module `default`). */
function checkNamedOptions(options: CompileOptions): void {
  for (const key of ['algorithm', 'moduleName'] as const) {
    const value = options[key];
    if (value !== undefined && value.trim() === '') throw new ConfigError(`compile option ${key} is empty: leave it out for the default`, { option: key });
  }
}

export function compileModel(model: string | IRModule, options: CompileOptions): CompileResult {
  checkNamedOptions(options);
  const progress = options.onProgress ?? (() => undefined);
  progress('import');
  const graph = typeof model === 'string' ? loadTfliteFile(model) : model;
  const source = typeof model === 'string' ? model : (model.source ?? '<module>');
  // The importer checked a file's quantization; a module built in code is checked here.
  if (typeof model !== 'string') checkGraphQuantization(graph, source);

  progress('partition+lower');
  const { partitioned, tir } = namingModelFile(source, () => {
    // Shapes and dtypes checked once, as `inspect` does: a damaged model (a weight of the wrong
    // rank) is named by operator here, not met later as a lowering failure with missing values.
    // A file's import (importTflite) has run this check already.
    const main = graph.functions.get(MAIN_FUNCTION);
    if (main && typeof model !== 'string') checkFunctionTypes(main, graph);
    try {
      return compileToTir(graph, options.registry, options.backend, {
        ...(options.mergeRegions !== undefined ? { mergeRegions: options.mergeRegions } : {}),
        ...(options.targetAttrs ? { attrs: options.targetAttrs } : {}),
        ...(options.moduleName ? { moduleName: options.moduleName } : {}),
      });
    } catch (e) {
      // Like the import checker: name every operator the host cannot lower, not only the first.
      if (e instanceof LoweringError) throw withHostProblemList(e, graph);
      throw e;
    }
  });

  const targets = moduleTargets(tir);
  const memory = options.registry.memoryFor(options.backend);
  let pools: PoolInfo[] = [...(options.pools ?? defaultPools(targets))];
  pools = mergeTargetAccess(pools, options.backend, memory);
  pools = withDefaultConstantPool(pools, targets);

  const hooks = options.codegenHooks ?? codegenHooksOf(options.registry, targets);
  const io = ioSpecs(graph);
  const autoIo = options.ioInWorkspace === undefined ? ioNeededByRuntimes(tir, hooks, io) : undefined;
  const ioInWorkspace = options.ioInWorkspace ?? autoIo !== undefined;
  const withIo = ioInWorkspace ? createIoAllocates(tir) : tir;
  let toPlan = withIo;
  let pinning: PinningSolution | undefined;
  let insertedCopies: readonly InsertedCopy[] | undefined;
  const backendConstraints =
    memory.pools.length > 0 || memory.operandConstraints.length > 0 ? constraintsFromMemoryDecl(options.backend, memory) : NO_CONSTRAINTS;
  if (options.poolPinning !== false) {
    progress('pool pinning');
    const merged = mergeConstraints(backendConstraints, options.pins ?? NO_CONSTRAINTS);
    const constraints = options.pinsSharedByModels === true ? { ...merged, sharedByModels: true } : merged;
    let toPin = withIo;
    // Copy functions are named like lowering names the others: tvmgen_<module>_...
    const copyModuleName = sanitizeName(options.moduleName ?? 'default');
    if (options.insertCopies) {
      const copied = insertCopiesForPinning(withIo, pools, constraints, { moduleName: copyModuleName });
      toPin = copied.module;
      insertedCopies = copied.inserted;
    }
    const pinned = options.insertCopies
      ? runPoolPinning(toPin, pools, constraints)
      : withCopyHint(withIo, pools, constraints, copyModuleName, () => runPoolPinning(toPin, pools, constraints));
    toPlan = pinned.module;
    pinning = pinned.solution;
  }

  progress('memory planning');
  const planWith = (planPools: PoolInfo[]) =>
    runUsmp(toPlan, {
      pools: planPools,
      ...(options.algorithm ? { algorithm: options.algorithm } : {}),
      ...(options.timeBudgetMs !== undefined ? { timeBudgetMs: options.timeBudgetMs } : {}),
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    });
  const usmp = withPoolOverflowDetails(pools, pinning, (unlimited) => planWith(unlimited).pools, () => planWith(pools));

  progress('access check');
  // Without pinning nothing enforced the backend's operand constraints: the check evaluates
  // them on the plan, so a placement its runtime will trap on is a warning, not a surprise.
  const access =
    options.poolPinning !== false
      ? assertPoolAccess(usmp.module, pools, pinning)
      : checkPoolAccess(usmp.module, pools, undefined, backendConstraints.operands);
  const warnings = [
    ...liteRtDeviations(graph),
    ...(pinning?.warnings ?? []),
    ...access.violations.map((v) => `${describeViolation(v)} (pool pinning is off)`),
    ...access.unpooled.map((u) => `${describeUnpooled(u)} (pool pinning is off)`),
    ...(access.operandViolations ?? []).map((v) => `${describeOperandViolation(v)} (pool pinning is off)`),
  ];

  progress('codegen');
  const ioNames = ioParamTensorNames(tir, io);
  const memoryLayout = { ...usmp, inputs: renameIo(usmp.inputs, ioNames), outputs: renameIo(usmp.outputs, ioNames) };
  // A requirement binds when plain application memory will not do: the tensor is kept out of
  // some host pool, or a user's runtime accepts only registered pools.
  const registering = new Set(hooks.filter((h) => h.registerPool !== undefined).map((h) => h.target));
  const ioRequirements = (pinning?.ioRequirements ?? [])
    .filter((r) => r.restrictsHostMemory || r.usedBy.some((t) => registering.has(t)))
    .map(
    (r): IoRequirement => ({ name: ioNames.get(r.buffer) ?? r.buffer, usedBy: r.usedBy, pools: r.pools }),
  );
  const artifacts = generateC({
    module: usmp.module,
    ...(options.moduleName ? { moduleName: options.moduleName } : {}),
    inputs: io.inputs,
    outputs: io.outputs,
    memory: memoryLayout,
    backends: hooks,
    ioRequirements,
    ...(options.sharedWorkspaceSymbol !== undefined ? { sharedWorkspaceSymbol: options.sharedWorkspaceSymbol } : {}),
  });
  const workspaceAlignment = pools.find((p) => p.kind === 'workspace')?.alignment ?? 16;
  const tensorBound = tensorLowerBound(graph.functions.get(MAIN_FUNCTION)!, { includeIo: ioInWorkspace, alignment: workspaceAlignment });
  const notes = pinning?.notes ?? [];
  const report = {
    ...buildMemoryReport(source, usmp, tensorBound),
    ...(notes.length > 0 ? { notes } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  return {
    source,
    graph,
    partitioned,
    tir,
    pools,
    ...(pinning ? { pinning } : {}),
    warnings,
    notes,
    ...(insertedCopies ? { insertedCopies } : {}),
    usmp,
    access,
    report,
    artifacts,
    inputs: io.inputs,
    outputs: io.outputs,
    ioInWorkspace,
    ...(autoIo !== undefined ? { ioInWorkspaceReason: autoIo } : {}),
  };
}

/** How the CLI introduces `ioInWorkspaceReason`: every input and output moves (one C interface), not only the one the reason names. */
export const IO_IN_WORKSPACE_NOTE = 'every model input and output planned in the workspace';

/**
 * Why model I/O must be planned in the workspace, or undefined: a target whose runtime
 * checks pointers against registered pools reads or writes an I/O tensor in place.
 */
export function ioNeededByRuntimes(
  tir: TirModule,
  hooks: readonly BackendCodegenHook[],
  io: { inputs: readonly TensorSpec[]; outputs: readonly TensorSpec[] },
): string | undefined {
  const registering = new Set(hooks.filter((h) => h.registerPool !== undefined).map((h) => h.target));
  if (registering.size === 0) return undefined;
  const trace = traceOperands(tir);
  const uses = trace.accesses.filter((a) => a.buffer.origin === 'io' && registering.has(a.target));
  if (uses.length === 0) return undefined;
  const first = uses[0];
  const name = ioParamTensorNames(tir, io).get(first.buffer.name) ?? first.buffer.name;
  const role = io.inputs.some((t) => t.name === name) ? 'input' : io.outputs.some((t) => t.name === name) ? 'output' : 'input/output';
  return `model ${role} '${name}' is used in place by target ${first.target}, whose runtime accepts only registered pools`;
}

/**
 * Pinning failed without copies: if inserting copies would make the program satisfiable,
 * the error says so and lists them, so the user can choose that over changing constraints.
 */
function withCopyHint<T>(
  module: TirModule,
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
  moduleName: string,
  run: () => T,
): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof PoolConstraintError)) throw e;
    let copies: readonly InsertedCopy[];
    try {
      copies = insertCopiesForPinning(module, pools, constraints, { moduleName }).inserted;
    } catch {
      throw e;
    }
    const lines = copies.map((c) => `    ${formatInsertedCopy(c).replace(/^inserted /, '')}`);
    throw new PoolConstraintError(
      `${e.message}\n  hint: --insert-copies (compileModel({ insertCopies: true })) makes this satisfiable by inserting:\n${lines.join('\n')}`,
      e.context,
    );
  }
}

/**
 * I/O placements carry main's param names (tensor names made C-safe, and made unique, by
 * lowering); the application knows its tensors by their model names.
 */
function renameIo(placements: readonly IoPlacement[], names: ReadonlyMap<string, string>): IoPlacement[] {
  return placements.map((p) => ({ ...p, name: names.get(p.name) ?? p.name }));
}

/**
 * Main's I/O param name -> model tensor name. Lowering binds main's params to the model
 * inputs then outputs, in order, so the correspondence is by position: two tensor names that
 * become the same C name ('in/x' and 'in_x' both 'in_x', the second made 'in_x_1') cannot be
 * told apart by name.
 */
export function ioParamTensorNames(tir: TirModule, io: { inputs: readonly TensorSpec[]; outputs: readonly TensorSpec[] }): Map<string, string> {
  const all = [...io.inputs, ...io.outputs];
  const main = tir.functions.get(MAIN_PRIM_FUNC);
  const tensorParams = main ? main.params.filter((p) => main.bufferMap.some(([v]) => v.id === p.id)) : [];
  if (tensorParams.length === all.length) return new Map(tensorParams.map((p, i) => [p.name, all[i].name]));
  // A main not bound by lowering's rule (hand-built TIR): match by name, as C-safe names allow.
  const byName = (param: string) => (all.find((s) => s.name === param) ?? all.find((s) => sanitizeName(s.name) === param))?.name ?? param;
  return new Map(tensorParams.map((p) => [p.name, byName(p.name)]));
}

/** The codegen contributions of every backend target present in the module. */
export function codegenHooksOf(registry: BackendRegistry, targets: readonly string[]): BackendCodegenHook[] {
  const hooks: BackendCodegenHook[] = [];
  for (const t of targets) {
    if (!registry.targets().includes(t)) continue;
    const raw = registry.codegenFor(t);
    if (!raw) continue;
    const h = guardCodegenHooks(t, raw);
    hooks.push({
      target: t,
      includes: h.includes(),
      ...(h.runtimeSources ? { runtimeSources: h.runtimeSources() } : {}),
      ...(h.replaceCallExtern ? { replaceCallExtern: h.replaceCallExtern } : {}),
      ...(h.registerPool ? { registerPool: h.registerPool } : {}),
    });
  }
  return hooks;
}
