/**
 * `uma-ts run <model.tflite> --backend X [compile options]`: compiles as `compile` does,
 * builds the generated C with a harness written from its metadata, runs it on the given
 * inputs (`--input NAME=FILE`, .npy or raw .bin) or seeded random ones, and compares every
 * output of every run with the reference interpreter. Prints a per-output table and the
 * inference time; any mismatch, trap or build error is an `error:` line and exit status 1.
 * The table is printed only when the program ran to the end (a mismatch is shown in it): a
 * build error or a program that stopped early prints just the error (and a note on the runs
 * it finished), never a cut-short table.
 */
import { Command } from 'commander';
import { tableLines } from '../util/textTable';
import { collect, collectPaths, nonEmptyValue } from './optionValues';
import { TensorSpec } from '../codegen/types';
import { IO_IN_WORKSPACE_NOTE, ioSpecs } from '../driver/compile';
import { ConfigError, VerifyError } from '../errors';
import { loadTfliteFile } from '../frontend/tflite';
import { Divergence, OutputComparison, VerifyReport, verifyModel } from '../verify';
import { VerifyTarget } from '../verify/harnessMain';
import { indexInputBounds } from '../verify/indexInputs';
import { checkEmbeddedInputBytes, randomTensor, readInputFile } from '../verify/inputs';
import { VerifyApplicationReport, verifyApplication } from '../verify/verifyApplication';
import { addCommonOptions, applicationModuleNames, cliCompileOptions, CompilingCliOptions, resolveInputs } from './compile';
import { CliIO } from './io';
import { createProgress } from './progress';

interface RunCliOptions extends CompilingCliOptions {
  readonly moduleName?: string;
  readonly input?: readonly string[];
  readonly seed?: string;
  readonly runs?: string;
  readonly timeout?: string;
  readonly cc?: string;
  readonly target?: string;
  readonly compareIntermediates?: boolean;
  readonly concurrent?: boolean;
}

const TARGETS: readonly VerifyTarget[] = ['host', 'cortex-m55'];

/**
 * Every run is embedded in the harness and replayed by the interpreter, so the time grows with
 * the count: 1000 runs of a small model take seconds, 10000 take minutes. Larger counts are refused
 * instead of hanging.
 */
export const MAX_RUNS = 1000;

/**
 * How long the C build, and then the program, may take: far beyond any bundled model's, but a
 * large model built with sanitizers on a busy machine can pass it (a realistic-model campaign's
 * float MobileNetV2 with ASan took 117 s to build), so `--timeout` raises it.
 */
const DEFAULT_TIMEOUT_SECONDS = 120;
const MAX_TIMEOUT_SECONDS = 86_400;

function intOption(flag: string, value: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value)) || Number(value) > max) {
    throw new ConfigError(`${flag} ${value.slice(0, 40)}: expected an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? '2^53-1' : max}`);
  }
  return Number(value);
}

/** `--input NAME=FILE` flags → one byte array per model input (missing ones: random; index inputs within `indexBounds`). */
export function resolveInputFiles(
  flags: readonly string[],
  specs: readonly TensorSpec[],
  seed: number,
  run: number,
  indexBounds: ReadonlyMap<string, number> = new Map(),
): Uint8Array[] {
  const given = new Map<string, string>();
  const specNamed = (name: string): TensorSpec | undefined =>
    specs.find((s) => s.name === name) ?? (specs.length === 1 && /^\d+$/.test(name) && Number(name) === 0 ? specs[0] : undefined);
  for (const flag of flags) {
    // The '=' after an input's name: tensor names and file paths may both hold '=', so the
    // longest prefix naming an input wins (a path with '=' was read as part of the name).
    const splits = [...flag.matchAll(/=/g)].map((m) => m.index!).filter((i) => i > 0);
    if (splits.length === 0) throw new ConfigError(`--input ${flag}: expected NAME=FILE`);
    const eq = [...splits].reverse().find((i) => specNamed(flag.slice(0, i)) !== undefined) ?? splits[0];
    const name = flag.slice(0, eq);
    const spec = specNamed(name);
    if (spec === undefined) {
      throw new ConfigError(`--input ${flag}: the model has no input '${name}'; inputs are: ${specs.map((s) => s.name).join(', ')}`);
    }
    if (given.has(spec.name)) throw new ConfigError(`--input ${flag}: input '${spec.name}' is already given (${given.get(spec.name)}); give each input once`);
    given.set(spec.name, flag.slice(eq + 1));
  }
  return specs.map((s, i) => {
    const file = given.get(s.name);
    return file !== undefined ? readInputFile(file, s) : randomTensor(s, seed + 1000 * run + i, indexBounds.get(s.name));
  });
}

/** Columns padded to their widest cell (rows[0] the header); with `rule`, a dashed line under the header. */
function pad(rows: string[][], rule = false): string[] {
  return tableLines(rows[0], rows.slice(1), { rule });
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toPrecision(6);
}

function resultText(c: OutputComparison): string {
  if (c.equal) return c.maxAbsDiff === 0 ? 'equal' : `equal (max abs diff ${fmt(c.maxAbsDiff)})`;
  const f = c.first!;
  return `DIFFERENT: max abs diff ${fmt(c.maxAbsDiff)}, ${c.mismatches} element(s), first at ${f.index}: expected ${fmt(f.expected)}, got ${fmt(f.actual)}`;
}

export function formatComparisons(comparisons: readonly OutputComparison[]): string[] {
  const rows = [['run', 'output', 'shape', 'dtype', 'result']];
  for (const c of comparisons) rows.push([String(c.run), c.name, `[${c.shape.join(', ')}]`, c.dtype, resultText(c)]);
  return pad(rows, true);
}

export function formatDivergence(d: Divergence): string {
  return (
    `first differing operator: ${d.operator} producing '${d.tensor}' in function ${d.func} (target ${d.target}, pool ${d.pool}), ` +
    `run ${d.run}: element ${d.index} expected ${fmt(d.expected)}, got ${fmt(d.actual)} (${d.mismatches} element(s) differ)`
  );
}

function duration(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(3)} ms` : `${(ns / 1e3).toFixed(1)} us`;
}

function timeText(report: VerifyReport): string | undefined {
  if (report.sections !== undefined) return 'inference time: not measured (QEMU does not model time)';
  const ns = report.timesNs;
  if (ns.length === 0) return undefined;
  const mean = ns.reduce((a, b) => a + b, 0) / ns.length;
  return `inference time: ${duration(mean)}${ns.length > 1 ? ` (mean of ${ns.length} runs, min ${duration(Math.min(...ns))})` : ''}`;
}

function sizeLines(report: Pick<VerifyReport, 'sections'>): string[] {
  const s = report.sections;
  if (s === undefined) return [];
  if (s.unmeasured !== undefined) return [`code and data sizes: not measured (${s.unmeasured})`];
  const rows = [['section', 'pool', 'address', 'bytes']];
  for (const x of s.sections) rows.push([x.name, x.pool ?? '', `0x${x.address.toString(16).padStart(8, '0')}`, String(x.sizeBytes)]);
  return [`code ${s.codeBytes} bytes, data ${s.dataBytes} bytes:`, ...pad(rows, true).map((l) => `  ${l}`)];
}

/**
 * What the runs a stopped program finished showed, for the line before its `error:`; nothing
 * when it finished none. Their rows are not printed: a table cut short reads like a result.
 */
export function stoppedEarlyNote(comparisons: readonly OutputComparison[], runs: number, model?: string): string | undefined {
  const completed = new Set(comparisons.map((c) => c.run)).size;
  if (completed === 0) return undefined;
  const bad = comparisons.filter((c) => !c.equal).length;
  return (
    `${model !== undefined ? `model ${model}: ` : ''}${completed} of ${runs} run(s) completed before the program stopped; ` +
    (bad === 0 ? 'their outputs match the reference interpreter' : `${bad} of their ${comparisons.length} output(s) differ from the reference interpreter`)
  );
}

export async function runRun(model: string, options: RunCliOptions, io: CliIO): Promise<void> {
  if (options.concurrent === true) throw new ConfigError('--concurrent is for several models run together (uma-ts run a.tflite b.tflite ...)');
  const target = (options.target ?? 'host') as VerifyTarget;
  if (!TARGETS.includes(target)) throw new ConfigError(`--target ${options.target}: expected ${TARGETS.join(' or ')}`);
  const seed = intOption('--seed', options.seed, 1, 0);
  const runs = intOption('--runs', options.runs, 1, 1, MAX_RUNS);
  const timeoutSeconds = intOption('--timeout', options.timeout, DEFAULT_TIMEOUT_SECONDS, 1, MAX_TIMEOUT_SECONDS);
  const inputs = await resolveInputs(options);
  const progress = createProgress(io);
  let report: VerifyReport;
  try {
    progress.stage('import');
    const graph = loadTfliteFile(model);
    const specs = ioSpecs(graph).inputs;
    checkEmbeddedInputBytes(specs, runs, model);
    const bounds = indexInputBounds(graph);
    const invocations = Array.from({ length: runs }, (_, k) => resolveInputFiles(options.input ?? [], specs, seed, k, bounds));
    const { backend, registry, ...compile } = cliCompileOptions(inputs, options, progress);
    report = verifyModel(graph, {
      backend,
      registry,
      compile: { ...compile, ...(options.moduleName !== undefined ? { moduleName: options.moduleName } : {}) },
      invocations,
      target,
      timeoutSeconds,
      ...(inputs.poolsFile !== undefined ? { poolsFile: inputs.poolsFile } : {}),
      ...(options.cc !== undefined ? { cc: options.cc } : {}),
      ...(options.compareIntermediates ? { compareIntermediates: true } : {}),
    });
    progress.done();
  } catch (e) {
    progress.fail();
    throw e;
  }
  for (const w of report.compile.warnings) io.err(`warning: ${w}`);
  // As compile prints them (a backend pool preference naming pools the user did not define).
  for (const n of report.compile.notes) io.err(`note: ${n}`);
  const ioReason = report.ioInWorkspaceReason ?? report.compile.ioInWorkspaceReason;
  if (ioReason !== undefined) io.err(`note: ${IO_IN_WORKSPACE_NOTE}: ${ioReason}`);
  const given = (options.input ?? []).length;
  const source = given === 0 ? `random inputs (seed ${seed})` : `inputs from ${given} file(s) (others random, seed ${seed})`;
  const modelOutputs = report.comparisons;
  if (options.json) {
    // Machine-readable either way: a stopped program is `ok: false` with its `failure`.
    io.out(
      JSON.stringify(
        {
          ok: report.ok,
          backend: inputs.backend,
          target,
          runs,
          outputs: modelOutputs,
          timesNs: report.timesNs,
          ...(report.failure ? { failure: report.failure } : {}),
          ...(report.intermediates ? { intermediates: report.intermediates } : {}),
          ...(report.sections ? { sections: report.sections } : {}),
        },
        null,
        2,
      ),
    );
  }
  if (report.failure !== undefined) {
    // The program stopped before the end: the rows of the runs it finished are not a result.
    const note = stoppedEarlyNote(modelOutputs, runs);
    if (note !== undefined) io.err(`note: ${note}`);
    throw new VerifyError(report.failure);
  }
  if (!options.json) {
    const time = timeText(report);
    const intermediates = report.intermediates;
    io.out(
      [
        `Backend ${inputs.backend}, pools from ${inputs.poolsOrigin}, target ${target}, ${source}, ${runs} run(s)`,
        ...formatComparisons(modelOutputs),
        ...(time ? [time] : []),
        ...sizeLines(report),
        ...(intermediates
          ? [
              intermediates.firstDivergence
                ? formatDivergence(intermediates.firstDivergence)
                : `intermediates: all ${intermediates.compared} tensors match the reference interpreter`,
            ]
          : []),
        ...(report.ok
          ? [`ok: every output matches the reference interpreter (integers byte-exact, float32 within ${report.floatTolerance.atol} + ${report.floatTolerance.rtol} * |expected|)`]
          : []),
      ].join('\n'),
    );
  }
  const bad = modelOutputs.filter((c) => !c.equal);
  if (bad.length > 0) {
    const divergence = report.intermediates?.firstDivergence;
    throw new VerifyError(
      `${bad.length} of ${modelOutputs.length} output(s) differ from the reference interpreter` +
        (divergence ? ` (first at operator ${divergence.operator} '${divergence.tensor}' in ${divergence.func})` : ' (--compare-intermediates names the first operator that differs)'),
    );
  }
  const d = report.intermediates?.firstDivergence;
  if (d) {
    throw new VerifyError(
      `intermediate tensor '${d.tensor}' (operator ${d.operator} in ${d.func}) differs from the reference interpreter, though the model outputs match`,
    );
  }
}

/** `--input MOD:NAME=FILE` flags of model `mod` (prefix removed); a flag naming no module of the application is refused. */
export function moduleInputFlags(flags: readonly string[], modules: readonly string[], mod: string): string[] {
  const mine: string[] = [];
  for (const flag of flags) {
    const colon = flag.indexOf(':');
    const owner = colon > 0 ? flag.slice(0, colon) : '';
    if (!modules.includes(owner)) {
      throw new ConfigError(`--input ${flag}: with several models, name the model first: MODULE:NAME=FILE (modules: ${modules.join(', ')})`);
    }
    if (owner === mod) mine.push(flag.slice(colon + 1));
  }
  return mine;
}

function applicationTimeText(report: VerifyApplicationReport): string | undefined {
  const parts = report.models
    .filter((m) => m.timesNs.length > 0)
    .map((m) => `${m.moduleName} ${duration(m.timesNs.reduce((a, b) => a + b, 0) / m.timesNs.length)}`);
  if (parts.length === 0) return undefined;
  const runs = Math.max(...report.models.map((m) => m.timesNs.length));
  return `inference time: ${parts.join(', ')}${runs > 1 ? ` (mean of ${runs} runs)` : ''}`;
}

/** `uma-ts run a.tflite b.tflite --module-name a,b`: one application, built once, each model compared. */
export async function runRunApplication(models: readonly string[], options: RunCliOptions, io: CliIO): Promise<void> {
  const target = (options.target ?? 'host') as VerifyTarget;
  if (!TARGETS.includes(target)) throw new ConfigError(`--target ${options.target}: expected ${TARGETS.join(' or ')}`);
  if (options.compareIntermediates) throw new ConfigError('--compare-intermediates checks one model; run each model on its own for it');
  const names = applicationModuleNames(models, options.moduleName);
  const seed = intOption('--seed', options.seed, 1, 0);
  const runs = intOption('--runs', options.runs, 1, 1, MAX_RUNS);
  const timeoutSeconds = intOption('--timeout', options.timeout, DEFAULT_TIMEOUT_SECONDS, 1, MAX_TIMEOUT_SECONDS);
  const flagsOf = names.map((mod) => moduleInputFlags(options.input ?? [], names, mod));
  const inputs = await resolveInputs(options);
  const progress = createProgress(io);
  let report: VerifyApplicationReport;
  try {
    progress.stage('import');
    const graphs = models.map((m) => loadTfliteFile(m));
    graphs.forEach((g, m) => checkEmbeddedInputBytes(ioSpecs(g).inputs, runs, models[m] as string));
    // Model m draws its random inputs from seed + 100000 m (as verifyApplication does).
    const invocations = graphs.map((g, m) => {
      const specs = ioSpecs(g).inputs;
      const bounds = indexInputBounds(g);
      return Array.from({ length: runs }, (_, k) => resolveInputFiles(flagsOf[m] as string[], specs, seed + 100000 * m, k, bounds));
    });
    const { backend, registry, ...compile } = cliCompileOptions(inputs, options, progress);
    report = verifyApplication(
      graphs.map((g, m) => ({ model: g, moduleName: names[m] as string })),
      {
        backend,
        registry,
        compile: { ...compile, concurrent: options.concurrent === true },
        invocations,
        target,
        timeoutSeconds,
        ...(inputs.poolsFile !== undefined ? { poolsFile: inputs.poolsFile } : {}),
        ...(options.cc !== undefined ? { cc: options.cc } : {}),
      },
    );
    progress.done();
  } catch (e) {
    progress.fail();
    throw e;
  }
  for (const m of report.application.models) {
    for (const w of m.warnings) io.err(`warning: ${m.artifacts.moduleName}: ${w}`);
    for (const n of m.notes) io.err(`note: ${m.artifacts.moduleName}: ${n}`);
  }
  for (const m of report.models) {
    if (m.ioInWorkspaceReason !== undefined) io.err(`note: ${m.moduleName}: ${IO_IN_WORKSPACE_NOTE}: ${m.ioInWorkspaceReason}`);
  }
  const shared = report.application.sharedPools.reduce((a, p) => a + p.sizeBytes, 0);
  if (options.json) {
    io.out(
      JSON.stringify(
        {
          ok: report.ok,
          backend: inputs.backend,
          target,
          runs,
          concurrent: report.application.concurrent,
          sharedWorkspaceBytes: shared,
          models: report.models.map((m) => ({
            moduleName: m.moduleName,
            outputs: m.comparisons,
            timesNs: m.timesNs,
            ...(m.failure ? { failure: m.failure } : {}),
          })),
          ...(report.sections ? { sections: report.sections } : {}),
        },
        null,
        2,
      ),
    );
  }
  const failed = report.models.find((m) => m.failure !== undefined);
  if (failed !== undefined || report.status !== 0) {
    // Stopped before the end: what finished goes in notes, not in a table that reads like a result.
    for (const m of report.models) {
      const note = stoppedEarlyNote(m.comparisons, runs, m.moduleName);
      if (note !== undefined) io.err(`note: ${note}`);
    }
    throw new VerifyError(failed !== undefined ? `model ${failed.moduleName}: ${failed.failure}` : `the program exited with status ${report.status}`);
  }
  if (!options.json) {
    const given = (options.input ?? []).length;
    const source = given === 0 ? `random inputs (seed ${seed})` : `inputs from ${given} file(s) (others random, seed ${seed})`;
    const how = report.application.concurrent ? 'laid out to run concurrently' : 'run one after the other';
    const rows = [['model', 'run', 'output', 'shape', 'dtype', 'result']];
    for (const m of report.models) {
      for (const c of m.comparisons) rows.push([m.moduleName, String(c.run), c.name, `[${c.shape.join(', ')}]`, c.dtype, resultText(c)]);
    }
    const time = report.sections !== undefined ? 'inference time: not measured (QEMU does not model time)' : applicationTimeText(report);
    io.out(
      [
        `Backend ${inputs.backend}, pools from ${inputs.poolsOrigin}, target ${target}, ${source}, ${runs} run(s)`,
        `Models ${names.join(', ')} (${how}) on one shared workspace of ${shared} bytes`,
        ...pad(rows, true),
        ...(time ? [time] : []),
        ...sizeLines(report),
        ...(report.ok
          ? [`ok: every output of every model matches the reference interpreter (integers byte-exact, float32 within ${report.floatTolerance.atol} + ${report.floatTolerance.rtol} * |expected|)`]
          : []),
      ].join('\n'),
    );
  }
  const all = report.models.flatMap((m) => m.comparisons.map((c) => ({ mod: m.moduleName, c })));
  const bad = all.filter((x) => !x.c.equal);
  if (bad.length > 0) {
    const mods = [...new Set(bad.map((x) => x.mod))];
    throw new VerifyError(`${bad.length} of ${all.length} output(s) differ from the reference interpreter (model ${mods.join(', ')}; run it alone with --compare-intermediates to name the operator)`);
  }
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command('run')
    .description('compile, build and run a model with a generated harness; compare every output with the reference interpreter')
    .argument('<models...>', 'path to a .tflite file; several: one application, its models run in turn on one shared workspace, each compared', collectPaths)
    .option('--algorithm <name>', 'memory planning algorithm (default: the planner\'s default)', nonEmptyValue)
    .option('--no-pool-pinning', 'skip the pool-pinning pass (as TVM)')
    .option('--module-name <name>', 'module name of the generated C symbols (tvmgen_<name>_*); several models: one per model, comma-separated', nonEmptyValue)
    .option('--input <name=file>', 'model input from a .npy or raw little-endian .bin file (repeatable; others are random)', collect)
    .option('--seed <n>', 'seed of the random inputs (default 1)')
    .option('--runs <k>', 'invocations on one loaded program, each compared (streaming models keep their state; default 1, at most 1000)')
    .option('--timeout <seconds>', `seconds the C build may take, and again the program's run (default ${DEFAULT_TIMEOUT_SECONDS}, at most ${MAX_TIMEOUT_SECONDS})`)
    .option('--cc <cmd>', 'C compiler command (default gcc; arm-none-eabi-gcc for cortex-m55)', nonEmptyValue)
    .option('--target <target>', 'host (default) or cortex-m55 (arm-none-eabi-gcc, QEMU mps3-an547 with semihosting)')
    .option('--compare-intermediates', 'compare every intermediate tensor and name the first operator whose output differs')
    .option('--concurrent', 'several models: lay the shared workspace out as for models running at the same time (each its own part)');
  addCommonOptions(command).action((models: string[], options: RunCliOptions) =>
    models.length === 1 ? runRun(models[0] as string, options, io) : runRunApplication(models, options, io),
  );
}
