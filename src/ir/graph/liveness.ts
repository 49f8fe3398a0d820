/**
 * Activation liveness over the operator schedule of a function: a lower bound on the
 * activation memory any static plan without in-place reuse needs, since every tensor live
 * at a step must occupy its own bytes then.
 *
 * Steps are the calls in node order (0..n-1). Activations are call outputs and params
 * (constants are weights and excluded). A tensor is live from its producer's step (params:
 * step 0) through its last consumer's step; function outputs stay live to the last step.
 */
import { GraphFunction, tensorBytes } from './types';
import { isOrderingArgument, isVariableUpdate } from './ops';

export interface LiveInterval {
  readonly name: string;
  readonly bytes: number;
  /** First step at which the tensor occupies memory. */
  readonly start: number;
  /** Last step at which it is still needed (inclusive). */
  readonly end: number;
}

export interface LivenessStep {
  readonly step: number;
  /** The call executed at this step. */
  readonly call: string;
  readonly liveBytes: number;
  /** Names of the tensors live at this step, in node order (listed when read). */
  readonly live: readonly string[];
}

export interface ActivationLiveness {
  readonly intervals: readonly LiveInterval[];
  readonly steps: readonly LivenessStep[];
  readonly maxLiveBytes: number;
  /** Step reaching `maxLiveBytes` (the first one), -1 when the function has no calls. */
  readonly peakStep: number;
}

export function activationLiveness(fn: GraphFunction): ActivationLiveness {
  const calls = fn.nodes.filter((n) => n.kind === 'call');
  const lastStep = Math.max(calls.length - 1, 0);
  const stepOf = new Map(calls.map((c, i) => [c.name, i]));
  const lastUse = new Map<string, number>();
  calls.forEach((c, i) => {
    // An ordering-only argument (a resource variable's previous access) reads no data.
    if (c.kind === 'call') c.args.forEach((a, k) => isOrderingArgument(c, k) || lastUse.set(a, i));
  });
  const outputs = new Set(fn.outputs);

  // A variable update (assign_variable) writes a persistent state, no activation of its own.
  const intervals: LiveInterval[] = fn.nodes
    .filter((n) => n.kind !== 'constant' && !isVariableUpdate(n))
    .map((n) => {
      const start = stepOf.get(n.name) ?? 0;
      const end = outputs.has(n.name) ? lastStep : Math.max(lastUse.get(n.name) ?? start, start);
      return { name: n.name, bytes: tensorBytes(n.type), start, end };
    });

  // The bytes live at each step from a difference array (one pass per interval), and each
  // step's tensors only when asked: filtering every interval at every step took 10 s for a
  // chain of 10,000 operators, and listing them all, 1.8 GB for 5,000 outputs live to the end
  // (inspect reads the peak step's list alone).
  const liveBytes = liveBytesByStep(intervals, calls.length, (iv) => iv.bytes);
  const steps: LivenessStep[] = calls.map((c, step) => ({
    step,
    call: c.name,
    liveBytes: liveBytes[step],
    get live(): readonly string[] {
      return intervals.filter((iv) => iv.start <= step && step <= iv.end).map((iv) => iv.name);
    },
  }));
  let peakStep = steps.length > 0 ? 0 : -1;
  let maxLiveBytes = steps.length > 0 ? steps[0].liveBytes : 0;
  for (const s of steps) {
    if (s.liveBytes > maxLiveBytes) {
      maxLiveBytes = s.liveBytes;
      peakStep = s.step;
    }
  }
  if (calls.length === 0) maxLiveBytes = intervals.reduce((s, iv) => s + iv.bytes, 0);
  return { intervals, steps, maxLiveBytes, peakStep };
}

export interface TensorLowerBound {
  /** Max over operators of the (aligned) bytes of the graph tensors live there. */
  readonly bytes: number;
  /** The operator (call name) where that maximum is first reached; null without calls. */
  readonly operator: string | null;
  /** Whether model inputs and outputs were counted. */
  readonly ioCounted: boolean;
  readonly alignment: number;
}

/**
 * Outputs that are a `reshape` of a model input or of another output, read by nothing else
 * (the importer's pass-through outputs and repeated listings): output -> the tensor it copies.
 * TFLite Micro's arena holds such a tensor once, and so does a plan holding I/O
 * (usmp/ioAliases.ts serves the output from its source's bytes).
 */
function ioCopyOutputs(fn: GraphFunction): Map<string, string> {
  const io = new Set([...fn.params, ...fn.outputs]);
  const read = new Set(fn.nodes.flatMap((n) => (n.kind === 'call' ? n.args : [])));
  const types = new Map(fn.nodes.map((n) => [n.name, n.type]));
  const copies = new Map<string, string>();
  for (const n of fn.nodes) {
    if (n.kind !== 'call' || n.callee.kind !== 'op' || n.callee.op !== 'reshape' || !fn.outputs.includes(n.name) || read.has(n.name)) continue;
    const source = n.args[0];
    const type = types.get(source);
    if (io.has(source) && type !== undefined && tensorBytes(type) === tensorBytes(n.type)) copies.set(n.name, source);
  }
  return copies;
}

/**
 * The bytes live at each of `stepCount` steps (`bytes` of every interval covering it), from a
 * difference array: one pass per interval instead of a filter of them all at every step.
 */
function liveBytesByStep(intervals: readonly LiveInterval[], stepCount: number, bytes: (iv: LiveInterval) => number): Float64Array {
  const delta = new Float64Array(stepCount + 1);
  for (const iv of intervals) {
    if (iv.start >= stepCount || iv.end < iv.start) continue;
    delta[iv.start] += bytes(iv);
    delta[Math.min(iv.end, stepCount - 1) + 1] -= bytes(iv);
  }
  const live = new Float64Array(stepCount);
  for (let step = 0, running = 0; step < stepCount; step++) live[step] = running += delta[step];
  return live;
}

/**
 * The tensor-level lower bound of a model, as TFLite Micro's planner counts its arena: at
 * each operator, the bytes of every graph tensor live there, each rounded up to `alignment`
 * (TFLite Micro aligns every planned buffer to 16). Model inputs and outputs count only when
 * the plan holds them (`includeIo`), an output copying another I/O tensor as that tensor. Operator-internal scratch is not a graph tensor, so a
 * plan that needs more than this pays for scratch or lost reuse; an in-place operator can
 * go below it (its output shares its input's bytes).
 */
export function tensorLowerBound(fn: GraphFunction, options: { includeIo: boolean; alignment?: number }): TensorLowerBound {
  const alignment = options.alignment ?? 16;
  const io = new Set([...fn.params, ...fn.outputs]);
  const { intervals, steps } = activationLiveness(fn);
  const lastStep = Math.max(steps.length - 1, 0);
  const copies = options.includeIo ? ioCopyOutputs(fn) : new Map<string, string>();
  const sources = new Set(copies.values());
  const counted = intervals
    .filter((iv) => (options.includeIo || !io.has(iv.name)) && !copies.has(iv.name))
    .map((iv) => (sources.has(iv.name) ? { ...iv, end: lastStep } : iv));
  const aligned = (b: number) => Math.ceil(b / alignment) * alignment;
  const liveBytes = liveBytesByStep(counted, steps.length, (iv) => aligned(iv.bytes));
  let bytes = 0;
  let operator: string | null = null;
  for (const s of steps) {
    const live = liveBytes[s.step];
    if (live > bytes || operator === null) {
      bytes = Math.max(bytes, live);
      operator = s.call;
    }
  }
  if (steps.length === 0) bytes = counted.reduce((sum, iv) => sum + aligned(iv.bytes), 0);
  return { bytes, operator, ioCounted: options.includeIo, alignment };
}
