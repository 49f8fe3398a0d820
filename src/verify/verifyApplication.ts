/**
 * `verifyApplication`: the several-model counterpart of `verifyModel`. Compiles the models
 * into one application (`compileApplication`: workspace pools shared, the runtime once),
 * builds it once with a harness that runs the models in turn on the one shared workspace,
 * and compares each model's outputs with the reference interpreter.
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildLayout, RUNTIME_DIR } from '../codegen/layout';
import { GeneratedFile, MlfMetadata, PoolMetadata } from '../codegen/types';
import { ApplicationModel, ApplicationOptions, ApplicationResult, compileApplication } from '../driver/application';
import { ioSpecs } from '../driver/compile';
import { VerifyError } from '../errors';
import { loadTfliteFile } from '../frontend/tflite';
import { createSession } from '../interpreter';
import { IRModule } from '../ir/graph/types';
import { parseApplicationOutput, writeApplicationHarnessMain } from './applicationHarness';
import { compareTensor, DEFAULT_FLOAT_TOLERANCE, FloatTolerance } from './compare';
import { indexInputBounds } from './indexInputs';
import { randomInvocations } from './inputs';
import { buildCortexM55, runCortexM55, SectionSizes } from './cortexM55';
import { VerifyTarget } from './harnessMain';
import { buildAndRunHost, programStopped, RunCompiledOptions, RunCompiledResult } from './runCompiled';
import { bundledPools, defaultRegistry, OutputComparison, VerifyOptions, verifyPoolsFile } from './verifyModel';
import { makeTemporaryDir } from '../util/temporaryDir';
import { alignUp } from '../util/align';

export interface VerifyApplicationOptions extends Omit<VerifyOptions, 'compile' | 'invocations' | 'compareIntermediates' | 'target'> {
  readonly compile?: Omit<Partial<ApplicationOptions>, 'backend' | 'registry'>;
  /** Per model (application order): input bytes per invocation; default: seeded random inputs. */
  readonly invocations?: readonly (readonly (readonly Uint8Array[])[])[];
  readonly target?: VerifyTarget;
}

export interface ModelVerification {
  readonly moduleName: string;
  readonly invocations: readonly (readonly Uint8Array[])[];
  readonly comparisons: readonly OutputComparison[];
  readonly timesNs: readonly number[];
  /** Why this model's runs stopped early (its `run` failed, or the program stopped before its outputs). */
  readonly failure?: string;
  readonly ioInWorkspaceReason?: string;
}

export interface VerifyApplicationReport {
  /** Every output of every model and invocation matched, and the program exited cleanly. */
  readonly ok: boolean;
  readonly application: ApplicationResult;
  readonly models: readonly ModelVerification[];
  readonly status: number;
  readonly floatTolerance: FloatTolerance;
  readonly sections?: SectionSizes;
}

export interface RunApplicationResult {
  readonly status: number;
  /** Per model, as `runCompiled` returns them for one model. */
  readonly models: readonly Pick<RunCompiledResult, 'outputs' | 'timesNs' | 'runFailure'>[];
  readonly stderr: string;
  readonly sections?: SectionSizes;
  readonly dir?: string;
}

function writeFiles(root: string, files: readonly GeneratedFile[]): void {
  for (const f of files) {
    const file = path.join(root, f.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, f.content);
  }
}

/**
 * The application's pools as one program's metadata, for the Cortex-M55 linker script: each
 * shared workspace pool once at its shared size (an internal one is uma_app.c's array), each
 * constant pool once with room for every model's array of it.
 */
export function applicationPools(app: ApplicationResult): PoolMetadata[] {
  const out = new Map<string, PoolMetadata>();
  for (const m of app.models) {
    for (const p of m.artifacts.metadata.pools) {
      const prev = out.get(p.name);
      if (p.kind === 'workspace') {
        const shared = app.sharedPools.find((q) => q.name === p.name)!;
        if (prev === undefined) out.set(p.name, { ...p, sizeBytes: shared.sizeBytes, ...(shared.cName !== undefined ? { cName: shared.cName } : {}) });
        continue;
      }
      // Each model's array starts at its own alignment within the section.
      const room = alignUp(Math.max(1, p.sizeBytes), Math.max(64, p.alignment));
      if (prev === undefined) {
        out.set(p.name, { ...p, sizeBytes: room });
      } else if (prev.internal && p.internal && prev.cName !== p.cName) {
        throw new VerifyError(`constant pool ${p.name} has different array names in the models (${prev.cName}, ${p.cName}); cannot place it on cortex-m55`, { pool: p.name });
      } else {
        out.set(p.name, { ...prev, sizeBytes: prev.sizeBytes + room });
      }
    }
  }
  return [...out.values()];
}

/** Writes the application and its harness to a temporary directory, builds once and runs it (host or cortex-m55 under QEMU). */
export function runApplication(
  app: ApplicationResult,
  options: Omit<RunCompiledOptions, 'invocations'> & { readonly invocations: readonly (readonly (readonly Uint8Array[])[])[] },
): RunApplicationResult {
  const target = options.target ?? 'host';
  const metas: MlfMetadata[] = app.models.map((m) => m.artifacts.metadata);
  const main = writeApplicationHarnessMain(metas, app.sharedPools, { invocations: options.invocations, target });
  const temp = makeTemporaryDir('uma-run-app-');
  const dir = temp.path;
  try {
    const out = path.join(dir, 'app');
    writeFiles(path.join(out, 'codegen', 'host'), [...app.models.flatMap((m) => m.artifacts.files), ...app.appFiles]);
    writeFiles(path.join(out, RUNTIME_DIR), app.runtimeFiles);
    fs.writeFileSync(path.join(dir, 'main.c'), main);
    const layout = buildLayout(out);
    const sources = ['main.c', ...layout.modelSources, ...layout.runtimeSources];
    let run: { status: number; stdout: string; stderr: string };
    let sections: SectionSizes | undefined;
    if (target === 'cortex-m55') {
      const built = buildCortexM55(dir, { ...metas[0], pools: applicationPools(app) }, sources, layout.includeDirs, options.cc, options.cflags ?? [], options.poolsFile, (options.timeoutSeconds ?? 120) * 1000);
      sections = built.sections;
      run = runCortexM55(built.elf, dir, (options.timeoutSeconds ?? 120) * 1000);
    } else {
      run = buildAndRunHost(dir, sources, layout.includeDirs, options);
    }
    return {
      status: run.status,
      models: parseApplicationOutput(run.stdout, metas),
      stderr: run.stderr,
      ...(sections ? { sections } : {}),
      ...(options.keepDir ? { dir } : {}),
    };
  } finally {
    if (options.keepDir) temp.keep();
    else temp.remove();
  }
}

export function verifyApplication(models: readonly (Omit<ApplicationModel, 'model'> & { readonly model: string | IRModule })[], options: VerifyApplicationOptions): VerifyApplicationReport {
  const registry = options.registry ?? defaultRegistry();
  const graphs = models.map((m) => (typeof m.model === 'string' ? loadTfliteFile(m.model) : m.model));
  const pools = options.compile?.pools ?? (options.registry === undefined ? bundledPools(options.backend) : undefined);
  const compileWith = (extra: Partial<ApplicationOptions>) =>
    compileApplication(
      models.map((m, k) => ({ model: graphs[k], moduleName: m.moduleName })),
      { ...options.compile, ...extra, backend: options.backend, registry, ...(pools ? { pools } : {}) },
    );
  let app = compileWith({});
  // As verifyModel: I/O an accelerator uses in place cannot live in the harness's arrays.
  const ioNotes = new Map<string, string>();
  if (options.compile?.ioInWorkspace === undefined) {
    for (const m of app.models) {
      const t = [...m.artifacts.metadata.inputs, ...m.artifacts.metadata.outputs].find((x) => x.usedBy !== undefined);
      if (t !== undefined) ioNotes.set(m.artifacts.moduleName, `model input/output '${t.name}' must live in pool ${t.requiredPools?.join(' or ')} (used in place by ${t.usedBy?.join(', ')})`);
    }
    if (ioNotes.size > 0) app = compileWith({ ioInWorkspace: true });
  }
  const runs = options.runs ?? options.invocations?.[0]?.length ?? 1;
  const seed = options.seed ?? 1;
  // Model m draws from seed + 100000 m, so two models with the same inputs still get different data.
  const invocations = options.invocations ?? graphs.map((g, m) => randomInvocations(ioSpecs(g).inputs, seed + 100000 * m, runs, indexInputBounds(g)));
  if (invocations.length !== models.length) throw new VerifyError(`inputs given for ${invocations.length} models, the application has ${models.length}`);
  invocations.forEach((inv, m) => {
    if (inv.length !== runs) throw new VerifyError(`model ${models[m].moduleName}: ${inv.length} input sets given for ${runs} runs`);
  });

  const run = runApplication(app, {
    invocations,
    ...(options.target ? { target: options.target } : {}),
    ...(options.cc ? { cc: options.cc } : {}),
    ...(options.cflags ? { cflags: options.cflags } : {}),
    ...(options.timeoutSeconds ? { timeoutSeconds: options.timeoutSeconds } : {}),
    ...(verifyPoolsFile(options) !== undefined ? { poolsFile: verifyPoolsFile(options) } : {}),
  });
  const tolerance = options.floatTolerance ?? DEFAULT_FLOAT_TOLERANCE;
  const stopped = run.status !== 0 ? programStopped(run.status, run.stderr) : undefined;
  const results: ModelVerification[] = app.models.map((m, idx) => {
    const session = createSession(graphs[idx]);
    const expected = invocations[idx].map((inputs) => session.invoke(inputs));
    const got = run.models[idx];
    const comparisons: OutputComparison[] = [];
    got.outputs.forEach((actual, k) => {
      m.outputs.forEach((o, i) => {
        comparisons.push({ run: k, index: i, name: o.name, dtype: o.dtype, shape: o.shape, ...compareTensor(expected[k][i], actual[i], o.dtype, tolerance) });
      });
    });
    const failure = got.runFailure
      ? `run ${got.runFailure.run} returned ${got.runFailure.code} (a kernel reported failure)`
      : got.outputs.length !== runs
        ? `the program printed outputs of ${got.outputs.length} of ${runs} runs${stopped ? ` (${stopped})` : ''}`
        : undefined;
    const note = ioNotes.get(m.artifacts.moduleName);
    return {
      moduleName: m.artifacts.moduleName,
      invocations: invocations[idx],
      comparisons,
      timesNs: got.timesNs,
      ...(failure !== undefined ? { failure } : {}),
      ...(note !== undefined ? { ioInWorkspaceReason: note } : {}),
    };
  });
  return {
    ok: run.status === 0 && results.every((r) => r.failure === undefined && r.comparisons.every((c) => c.equal)),
    application: app,
    models: results,
    status: run.status,
    floatTolerance: tolerance,
    ...(run.sections ? { sections: run.sections } : {}),
  };
}
