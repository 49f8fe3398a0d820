/**
 * `uma-ts compile <model.tflite> --backend <name>`: the whole pipeline, then the output
 * directory (MLF + report.json/svg/html + tir.txt) written atomically, and the memory plan
 * printed as a table (or as JSON with `--json`). Also exports the option handling that
 * `explain-pools` shares: backend registry, pools, pins and target attributes.
 */
import { Command } from 'commander';
import { collect, collectPath, collectPaths, nonEmptyValue, pathValue } from './optionValues';
import * as path from 'path';
import { BackendRegistry } from '../backend/registry';
import { TargetAttrValue } from '../backend/targetAttrs';
import { CompileOptions, CompileStage, compileModel, IO_IN_WORKSPACE_NOTE } from '../driver/compile';
import { ApplicationResult, compileApplication } from '../driver/application';
import { ConfigError } from '../errors';
import { applicationReportJson, REPORT_FILES, reportJson, writeApplicationOutput, writeCompileOutput } from '../driver/writeOutput';
import { formatMemoryReport, MemoryReport } from '../report/memoryReport';
import { PoolInfo } from '../usmp/types';
import { PERSISTENT_REASON_PREFIX } from '../usmp/extractBufferInfo';
import { HOST_TARGET } from '../lower/strategy';
import { formatInsertedCopy, InsertedCopy, loadPinsFile, PinningConstraints } from '../../passes/poolPinning';
import { bundledPoolsFile, createCliRegistry, parseTargetAttrFlags } from './backendLoader';
import { CliIO } from './io';
import { addPoolOptions, PoolFlags, resolvePools } from './poolOptions';
import { createProgress, Progress } from './progress';
import { checkInputsOutside, checkReplaceable, StuckOutput } from '../util/ownedOutputDir';

/** Options `compile` and `explain-pools` share (commander's camel-cased names). */
export interface CommonCliOptions extends PoolFlags {
  readonly backend: string;
  readonly backendModule?: readonly string[];
  readonly pools?: string;
  readonly pins?: string;
  readonly targetAttr?: readonly string[];
  readonly mergeRegions: boolean;
  readonly ioInWorkspace?: boolean;
  readonly insertCopies?: boolean;
  readonly json?: boolean;
}

export interface CompileCliOptions extends CompilingCliOptions {
  readonly out?: string;
  readonly moduleName?: string;
  readonly buffers?: boolean;
  readonly concurrent?: boolean;
}

/** Everything the command line decides about a compilation, resolved and validated. */
export interface ResolvedInputs {
  readonly registry: BackendRegistry;
  readonly backend: string;
  readonly pools?: PoolInfo[];
  readonly poolsOrigin: string;
  /** The pools JSON the pools were read from (`--pools` or the bundled file), if any. */
  readonly poolsFile?: string;
  readonly pins?: PinningConstraints;
  readonly targetAttrs: Record<string, TargetAttrValue>;
}

/** Adds the options `compile` and `explain-pools` share. */
export function addCommonOptions(command: Command): Command {
  command
    .requiredOption('--backend <name>', 'target backend (bundled: vanilla, accel, dma_local, or one from --backend-module)')
    .option('--backend-module <file>', 'load a user backend: a .js or .ts module exporting a UmaBackend subclass or register(registry)', collectPath)
    .option('--pools <file>', 'memory pools JSON (schemas/pools.schema.json); default: the backend\'s bundled pools', pathValue)
    .option('--pins <file>', 'pool pins JSON (schemas/pins.schema.json)', pathValue)
    .option('--target-attr <name=value>', 'backend target attribute, type-checked (repeatable)', collect)
    .option('--no-merge-regions', 'offload each supported operator on its own (no region merging)')
    .option('--io-in-workspace', 'place model inputs/outputs in workspace pools (TVM\'s USMP I/O option; automatic when a backend runtime that checks pointers uses them)')
    .option('--insert-copies', 'when a tensor\'s writer and a reader need disjoint pools, insert a host copy between them')
    .option('--json', 'print JSON instead of text');
  return addPoolOptions(command);
}

export async function resolveInputs(options: CommonCliOptions): Promise<ResolvedInputs> {
  const registry = await createCliRegistry(options.backendModule ?? []);
  const backend = registry.get(options.backend).targetName;
  const knownTargets = [HOST_TARGET, ...registry.targets()];
  const choice = resolvePools({
    ...(options.pools !== undefined ? { poolsFile: options.pools } : {}),
    flags: options,
    ...(bundledPoolsFile(backend) !== undefined ? { bundledPoolsFile: bundledPoolsFile(backend) } : {}),
    knownTargets,
  });
  return {
    registry,
    backend,
    ...(choice.pools ? { pools: choice.pools } : {}),
    poolsOrigin: choice.origin,
    ...(choice.file !== undefined ? { poolsFile: choice.file } : {}),
    ...(options.pins !== undefined ? { pins: loadPinsFile(options.pins) } : {}),
    targetAttrs: parseTargetAttrFlags(registry, backend, options.targetAttr ?? []),
  };
}

/** The flags every compiling command (compile, run) turns into `CompileOptions`. */
export interface CompilingCliOptions extends CommonCliOptions {
  readonly algorithm?: string;
  readonly poolPinning: boolean;
}

/**
 * The `CompileOptions` the command line decides, built in one place so `compile` (one model
 * or several) and `run` cannot drift apart. The module name is each command's own business.
 */
export function cliCompileOptions(inputs: ResolvedInputs, options: CompilingCliOptions, progress: Progress): CompileOptions {
  return {
    backend: inputs.backend,
    registry: inputs.registry,
    ...(inputs.pools ? { pools: inputs.pools } : {}),
    ...(inputs.pins ? { pins: inputs.pins } : {}),
    ...(options.algorithm !== undefined ? { algorithm: options.algorithm } : {}),
    // Absent = automatic: planned in the workspace when a pool-checking runtime needs it.
    ...(options.ioInWorkspace === true ? { ioInWorkspace: true } : {}),
    targetAttrs: inputs.targetAttrs,
    mergeRegions: options.mergeRegions,
    poolPinning: options.poolPinning,
    insertCopies: options.insertCopies === true,
    onProgress: (stage: CompileStage) => progress.stage(stage),
  };
}

/**
 * Earlier outputs the write could not remove (a read-only part, say) stay beside the new one,
 * and every later compile tries again: the user hears where and why, not silently.
 */
function noteStuckOutputs(io: CliIO, stuck: readonly StuckOutput[]): void {
  for (const s of stuck) io.err(`note: could not remove ${s.dir}, a copy of an earlier output (${s.reason}); remove it by hand`);
}

/** One line per copy `--insert-copies` inserted (nothing when none was needed). */
export function formatInsertedCopies(copies: readonly InsertedCopy[] | undefined): string[] {
  return (copies ?? []).map(formatInsertedCopy);
}

/**
 * `out/<model file name without extension>`, relative to the working directory. A name of
 * dots only (`...tflite`, `..tflite`) would make that `out/..` or `out/.`, the working
 * directory or `out` itself (fuzzed): such models get `out/model`.
 */
export function defaultOutDir(model: string): string {
  const stem = path.basename(model).replace(/\.tflite$/i, '');
  return path.join('out', /^\.*$/.test(stem) ? 'model' : stem);
}

/**
 * The plan as printed: pools and totals; with `--buffers` also every placement and every
 * buffer left out of planning (otherwise only their count: they are mostly `local` accumulators).
 */
export function formatPlan(report: MemoryReport, buffers: boolean): string {
  if (buffers) return formatMemoryReport(report);
  const text = formatMemoryReport({ ...report, unplanned: [] }, { buffers: false });
  const persistent = report.unplanned.filter((u) => u.reason.startsWith(PERSISTENT_REASON_PREFIX)).length;
  const local = report.unplanned.length - persistent;
  const notes = [
    ...(persistent > 0 ? [`${persistent} persistent state buffer(s) (static arrays kept between runs)`] : []),
    ...(local > 0 ? [`${local} buffer(s) not planned (local arrays)`] : []),
  ];
  return notes.length === 0 ? text : `${text}\n\n${notes.join('; ')}; listed with --buffers and in report.json`;
}

/** Module names of an application: `--module-name a,b` in model order, else each file's name. */
export function applicationModuleNames(models: readonly string[], flag: string | undefined): string[] {
  if (flag === undefined) return models.map((m) => path.basename(m).replace(/\.tflite$/i, '').replace(/[^A-Za-z0-9_]/g, '_').replace(/^([^A-Za-z])/, 'm$1'));
  const names = flag.split(',').map((n) => n.trim());
  if (names.length !== models.length) {
    throw new ConfigError(`--module-name gives ${names.length} name(s) for ${models.length} models; give one per model, comma-separated in model order`);
  }
  return names;
}

function formatSharedPools(app: ApplicationResult): string {
  const rows = app.sharedPools.map((p) => {
    const needs = Object.entries(p.perModel).map(([m, b]) => `${m} ${b}`).join(', ');
    return `${p.name.padEnd(12)} ${(p.internal ? 'internal' : 'external').padEnd(9)} ${String(p.sizeBytes).padStart(9)}  ${p.sizeMacro}  (${needs})`;
  });
  const total = app.sharedPools.reduce((a, p) => a + p.sizeBytes, 0);
  const title = app.concurrent
    ? 'Shared workspace pools (models may run concurrently; each model its own part):'
    : 'Shared workspace pools (models run one after the other; each pool sized for the largest need):';
  return [title, ...rows, `Shared workspace: ${total} bytes`].join('\n');
}

async function runCompileApplication(models: readonly string[], options: CompileCliOptions, io: CliIO): Promise<void> {
  const names = applicationModuleNames(models, options.moduleName);
  const progress = createProgress(io);
  try {
    const outDir = options.out ?? path.join('out', names.join('_'));
    // An input inside --out first: the more precise of the two refusals.
    checkInputsOutside(outDir, inputFiles(models, options), outDir);
    checkReplaceable(path.resolve(outDir), outDir);
    const inputs = await resolveInputs(options);
    const app = compileApplication(
      models.map((model, i) => ({ model, moduleName: names[i] as string })),
      { ...cliCompileOptions(inputs, options, progress), concurrent: options.concurrent === true },
    );
    progress.stage('write output');
    const stuckApp = writeApplicationOutput(outDir, app);
    progress.done();
    noteStuckOutputs(io, stuckApp);
    for (const m of app.models) {
      const mod = m.artifacts.moduleName;
      for (const w of m.warnings) io.err(`warning: ${mod}: ${w}`);
      for (const n of m.notes) io.err(`note: ${mod}: ${n}`);
      if (m.ioInWorkspaceReason !== undefined) io.err(`note: ${mod}: ${IO_IN_WORKSPACE_NOTE}: ${m.ioInWorkspaceReason}`);
      for (const line of formatInsertedCopies(m.insertedCopies)) io.err(`${mod}: ${line}`);
    }
    if (options.json) {
      io.out(applicationReportJson(app).trimEnd());
      return;
    }
    io.out(
      [
        `Backend ${inputs.backend}, pools from ${inputs.poolsOrigin}`,
        ...app.models.flatMap((m) => ['', `== ${m.artifacts.moduleName} (${m.source})`, formatPlan(m.report, options.buffers === true)]),
        '',
        formatSharedPools(app),
        '',
        `Wrote ${outDir}: metadata.json, ${names.length} models + uma_app.{h,c} in codegen/host, ${app.runtimeFiles.length} files in runtime, report.json`,
      ].join('\n'),
    );
  } catch (e) {
    progress.fail();
    throw e;
  }
}

/** Files a compile reads: none may lie inside the output directory it replaces. */
function inputFiles(models: readonly string[], options: CompileCliOptions): string[] {
  return [...models, ...[options.pools, options.pins].filter((f): f is string => f !== undefined), ...(options.backendModule ?? [])];
}

export async function runCompile(model: string, options: CompileCliOptions, io: CliIO): Promise<void> {
  if (options.concurrent === true) throw new ConfigError('--concurrent is for several models compiled together (uma-ts compile a.tflite b.tflite ...)');
  const progress = createProgress(io);
  try {
    const outDir = options.out ?? defaultOutDir(model);
    // Refused before the work, not after it: --out holds an input (the more precise refusal,
    // first), or names a directory that is not ours or holds files of the user's.
    checkInputsOutside(outDir, inputFiles([model], options), outDir);
    checkReplaceable(path.resolve(outDir), outDir);
    const inputs = await resolveInputs(options);
    const result = compileModel(model, {
      ...cliCompileOptions(inputs, options, progress),
      ...(options.moduleName !== undefined ? { moduleName: options.moduleName } : {}),
    });
    progress.stage('write output');
    const stuck = writeCompileOutput(outDir, result);
    progress.done();
    noteStuckOutputs(io, stuck);
    for (const w of result.warnings) io.err(`warning: ${w}`);
    for (const n of result.notes) io.err(`note: ${n}`);
    if (result.ioInWorkspaceReason !== undefined) io.err(`note: ${IO_IN_WORKSPACE_NOTE}: ${result.ioInWorkspaceReason}`);
    const copies = formatInsertedCopies(result.insertedCopies);
    if (options.json) {
      // stdout stays one JSON document; what was inserted goes with the progress lines.
      for (const line of copies) io.err(line);
      io.out(reportJson(result.report).trimEnd());
      return;
    }
    const files = result.artifacts.files.length;
    const runtimeFiles = result.artifacts.runtimeFiles.length;
    io.out(
      [
        `Backend ${inputs.backend}, pools from ${inputs.poolsOrigin}`,
        ...copies,
        formatPlan(result.report, options.buffers === true),
        '',
        `Wrote ${outDir}: metadata.json, ${files} files in codegen/host, ${runtimeFiles} in runtime, ${Object.values(REPORT_FILES).join(', ')}`,
      ].join('\n'),
    );
  } catch (e) {
    progress.fail();
    throw e;
  }
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command('compile')
    .description('compile a .tflite model for a backend: C sources (MLF), memory plan report, layout picture')
    .argument('<models...>', 'path to a .tflite file; several: one application whose models run one after the other and share the workspace pools', collectPaths)
    .option('--algorithm <name>', 'memory planning algorithm (default: the planner\'s default)', nonEmptyValue)
    .option('--out <dir>', 'output directory (default: out/<model name>)', pathValue)
    .option('--no-pool-pinning', 'skip the pool-pinning pass: pools come from each function\'s target only (as TVM)')
    .option('--module-name <name>', 'module name of the generated C symbols (tvmgen_<name>_*); several models: one per model, comma-separated (default: the file names)', nonEmptyValue)
    .option('--buffers', 'also print every buffer\'s placement (always in report.json)')
    .option('--concurrent', 'several models: they may run at the same time, so their parts of each shared workspace pool never overlap (default: one after the other, sharing the memory)');
  addCommonOptions(command).action((models: string[], options: CompileCliOptions) =>
    models.length === 1 ? runCompile(models[0] as string, options, io) : runCompileApplication(models, options, io),
  );
}
