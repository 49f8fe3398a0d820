/**
 * `verifyModel`: compile a model for a backend, build the generated C with a harness written
 * from its own metadata, run it on given or seeded random inputs (K invocations on one loaded
 * program for streaming models) and compare every output of every invocation with the
 * reference interpreter. With `compareIntermediates`, every intermediate tensor of main is
 * made a model output too, and the first operator whose output differs is named.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BackendRegistry } from '../backend/registry';
import { TensorSpec } from '../codegen/types';
import { compileModel, CompileOptions, CompileResult, ioSpecs } from '../driver/compile';
import { VerifyError } from '../errors';
import { loadTfliteFile } from '../frontend/tflite';
import { createSession } from '../interpreter';
import { DType, IRModule, MAIN_FUNCTION } from '../ir/graph/types';
import { operatorLabel, readOperatorRecords } from '../ir/tir/operators';
import { parsePoolsJson } from '../usmp/pools';
import { compareTensor, DEFAULT_FLOAT_TOLERANCE, FloatTolerance, TensorComparison } from './compare';
import { SectionSizes } from './cortexM55';
import { VerifyTarget } from './harnessMain';
import { indexInputBounds } from './indexInputs';
import { randomInvocations } from './inputs';
import { programStopped, runCompiled } from './runCompiled';
import { isVariableUpdate } from '../ir/graph/ops';

export interface VerifyOptions {
  readonly backend: string;
  /** Default: a registry with the bundled example backends (vanilla, accel, dma_local). */
  readonly registry?: BackendRegistry;
  /** Compile options; `pools` defaults to a bundled backend's `backends/<name>/pools.json`. */
  readonly compile?: Omit<Partial<CompileOptions>, 'backend' | 'registry'>;
  /** Input bytes per invocation (model input order); default: seeded random inputs. */
  readonly invocations?: readonly (readonly Uint8Array[])[];
  /** Seed of the random inputs (default 1). */
  readonly seed?: number;
  /** Invocations on one loaded program (default 1, or the number of `invocations`). */
  readonly runs?: number;
  readonly target?: VerifyTarget;
  readonly cc?: string;
  readonly cflags?: readonly string[];
  readonly floatTolerance?: FloatTolerance;
  readonly compareIntermediates?: boolean;
  readonly timeoutSeconds?: number;
  /** The pools JSON `compile.pools` came from, named in errors about its pools (default: the bundled file when that is used). */
  readonly poolsFile?: string;
}

export interface OutputComparison extends TensorComparison {
  readonly run: number;
  readonly index: number;
  readonly name: string;
  readonly dtype: DType;
  readonly shape: readonly number[];
}

/** The first operator whose output differs from the interpreter's. */
export interface Divergence {
  readonly run: number;
  readonly tensor: string;
  readonly operator: string;
  readonly func: string;
  readonly target: string;
  /** Pool holding the tensor, or `application` when the application owns it. */
  readonly pool: string;
  readonly index: number;
  readonly expected: number;
  readonly actual: number;
  readonly mismatches: number;
}

export interface VerifyReport {
  /** Every output of every invocation matched (and every intermediate, when compared), and the program exited cleanly. */
  readonly ok: boolean;
  readonly compile: CompileResult;
  readonly invocations: readonly (readonly Uint8Array[])[];
  /** Model outputs only, per invocation that completed. */
  readonly comparisons: readonly OutputComparison[];
  readonly timesNs: readonly number[];
  readonly status: number;
  /** Why the program stopped early (trap, `run` failure, missing outputs). */
  readonly failure?: string;
  readonly floatTolerance: FloatTolerance;
  /** With `compareIntermediates`: how many tensors were compared and the first that differs. */
  readonly intermediates?: { readonly compared: number; readonly firstDivergence?: Divergence };
  readonly sections?: SectionSizes;
  /** Why model I/O was planned in the workspace for this run although compile alone left it to the application. */
  readonly ioInWorkspaceReason?: string;
}

/** The path of `backends/<name>/pools.json` of a bundled backend, next to this package's sources. */
export function bundledPoolsPath(backend: string): string | undefined {
  for (const root of [path.resolve(__dirname, '..', '..'), path.resolve(__dirname, '..', '..', '..')]) {
    const file = path.join(root, 'backends', backend, 'pools.json');
    if (fs.existsSync(file)) return file;
  }
  return undefined;
}

/** `backends/<name>/pools.json` of a bundled backend, next to this package's sources. */
export function bundledPools(backend: string): CompileOptions['pools'] | undefined {
  const file = bundledPoolsPath(backend);
  return file !== undefined ? parsePoolsJson(fs.readFileSync(file, 'utf8'), file) : undefined;
}

/** The pools JSON a verification's pools come from: the caller's, or the bundled one it falls back to. */
export function verifyPoolsFile(options: Pick<VerifyOptions, 'poolsFile' | 'registry' | 'backend'> & { readonly compile?: { readonly pools?: unknown } }): string | undefined {
  if (options.compile?.pools !== undefined) return options.poolsFile;
  return options.registry === undefined ? bundledPoolsPath(options.backend) : undefined;
}

export function defaultRegistry(): BackendRegistry {
  const registry = new BackendRegistry();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('../../backends') as typeof import('../../backends')).registerExampleBackends(registry);
  return registry;
}

/** Main with every call's value also returned (after the model's own outputs). */
export function exposeIntermediates(graph: IRModule): IRModule {
  const main = graph.functions.get(MAIN_FUNCTION);
  if (main === undefined) throw new VerifyError(`model has no '${MAIN_FUNCTION}' function`);
  // A variable update's value is the variable itself, not a tensor of its own.
  const extra = main.nodes
    .filter((n) => n.kind === 'call' && !main.outputs.includes(n.name) && !isVariableUpdate(n))
    .map((n) => n.name);
  const functions = new Map(graph.functions);
  functions.set(MAIN_FUNCTION, { ...main, outputs: [...main.outputs, ...extra] });
  return { ...graph, functions };
}

function tensorLocation(result: CompileResult, tensor: string): { operator: string; func: string; target: string } {
  for (const [name, f] of result.usmp.module.functions) {
    const r = readOperatorRecords(f).find((x) => x.name === tensor);
    if (r !== undefined) return { operator: operatorLabel(r), func: String(f.attrs.global_symbol ?? name), target: r.target };
  }
  return { operator: '?', func: '?', target: '?' };
}

export function verifyModel(model: string | IRModule, options: VerifyOptions): VerifyReport {
  const registry = options.registry ?? defaultRegistry();
  const original = typeof model === 'string' ? loadTfliteFile(model) : model;
  if (ioSpecs(original).outputs.length === 0) {
    // The harness would print nothing, reported as "printed outputs of 0 of 1 runs".
    const source = typeof model === 'string' ? model : (model.source ?? '<module>');
    throw new VerifyError(`${source}: the model has no outputs: there is nothing to run and compare`, { file: source });
  }
  const graph = options.compareIntermediates ? exposeIntermediates(original) : original;
  const pools = options.compile?.pools ?? (options.registry === undefined ? bundledPools(options.backend) : undefined);
  const compileWith = (extra: Partial<CompileOptions>) =>
    compileModel(graph, { ...options.compile, ...extra, backend: options.backend, registry, ...(pools ? { pools } : {}) });
  let compile = compileWith({});
  // I/O an accelerator needs in its pools cannot live in the harness's own arrays: unless the
  // caller decided, plan it in the workspace (as compile does for pool-registering runtimes).
  const placedIo = [...compile.artifacts.metadata.inputs, ...compile.artifacts.metadata.outputs].find((t) => t.usedBy !== undefined);
  let ioNote: string | undefined;
  if (placedIo !== undefined && options.compile?.ioInWorkspace === undefined) {
    compile = compileWith({ ioInWorkspace: true });
    ioNote = `model input/output '${placedIo.name}' must live in pool ${placedIo.requiredPools?.join(' or ')} (used in place by ${placedIo.usedBy?.join(', ')})`;
  }
  const specs: readonly TensorSpec[] = ioSpecs(graph).inputs;
  const runs = options.runs ?? options.invocations?.length ?? 1;
  const invocations = options.invocations ?? randomInvocations(specs, options.seed ?? 1, runs, indexInputBounds(graph));
  if (invocations.length !== runs) throw new VerifyError(`${invocations.length} input sets given for ${runs} runs`);

  const run = runCompiled(compile.artifacts, {
    invocations,
    ...(options.target ? { target: options.target } : {}),
    ...(options.cc ? { cc: options.cc } : {}),
    ...(options.cflags ? { cflags: options.cflags } : {}),
    ...(options.timeoutSeconds ? { timeoutSeconds: options.timeoutSeconds } : {}),
    ...(verifyPoolsFile(options) !== undefined ? { poolsFile: verifyPoolsFile(options) } : {}),
  });

  const session = createSession(graph);
  const expected = invocations.map((inputs) => session.invoke(inputs));
  const tolerance = options.floatTolerance ?? DEFAULT_FLOAT_TOLERANCE;
  const outputs = compile.outputs;
  const modelOutputs = ioSpecs(original).outputs.length;
  const comparisons: OutputComparison[] = [];
  run.outputs.forEach((actual, k) => {
    for (let i = 0; i < modelOutputs; i++) {
      const o = outputs[i];
      comparisons.push({ run: k, index: i, name: o.name, dtype: o.dtype, shape: o.shape, ...compareTensor(expected[k][i], actual[i], o.dtype, tolerance) });
    }
  });

  let intermediates: VerifyReport['intermediates'];
  if (options.compareIntermediates) {
    let firstDivergence: Divergence | undefined;
    const main = graph.functions.get(MAIN_FUNCTION)!;
    const order = main.nodes.filter((n) => n.kind === 'call').map((n) => n.name);
    for (let k = 0; k < run.outputs.length && firstDivergence === undefined; k++) {
      for (const tensor of order) {
        const i = outputs.findIndex((o) => o.name === tensor);
        if (i < 0) continue;
        const c = compareTensor(expected[k][i], run.outputs[k][i], outputs[i].dtype, tolerance);
        if (c.equal) continue;
        const meta = compile.artifacts.metadata.outputs[i];
        firstDivergence = {
          run: k,
          tensor,
          ...tensorLocation(compile, tensor),
          pool: meta.pool ?? 'application',
          index: c.first!.index,
          expected: c.first!.expected,
          actual: c.first!.actual,
          mismatches: c.mismatches,
        };
        break;
      }
    }
    intermediates = { compared: outputs.length, ...(firstDivergence ? { firstDivergence } : {}) };
  }

  const failure = describeFailure(run, runs);
  return {
    ok: failure === undefined && comparisons.every((c) => c.equal) && intermediates?.firstDivergence === undefined,
    compile,
    invocations,
    comparisons,
    timesNs: run.timesNs,
    status: run.status,
    ...(failure !== undefined ? { failure } : {}),
    floatTolerance: tolerance,
    ...(intermediates ? { intermediates } : {}),
    ...(run.sections ? { sections: run.sections } : {}),
    ...(ioNote !== undefined ? { ioInWorkspaceReason: ioNote } : {}),
  };
}

function describeFailure(run: ReturnType<typeof runCompiled>, runs: number): string | undefined {
  const firstErr = run.stderr.split('\n').find((l) => l.trim() !== '')?.trim();
  if (run.runFailure) return `run ${run.runFailure.run} returned ${run.runFailure.code} (a kernel reported failure)${firstErr ? `: ${firstErr}` : ''}`;
  if (run.status !== 0) return programStopped(run.status, run.stderr);
  if (run.outputs.length !== runs) return `the program printed outputs of ${run.outputs.length} of ${runs} runs`;
  return undefined;
}
