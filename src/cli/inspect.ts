/**
 * `uma-ts inspect <model.tflite>`: imports a model, checks its types and prints its
 * operators, tensors, weight and activation bytes, and the activation-liveness lower bound.
 */
import { Command } from 'commander';
import { tableLines } from '../util/textTable';
import { pathValue } from './optionValues';
import { checkMainTypes, checkTfliteFile, formatUnsupportedList, TfliteCheck } from '../frontend/tflite';
import { activationLiveness, tensorLowerBound } from '../ir/graph/liveness';
import { CallNode, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION, TensorType, tensorBytes } from '../ir/graph/types';
import { formatHostProblems, hostLoweringProblems } from '../driver/hostSupport';
import { liteRtDeviations } from '../driver/liteRtDeviations';
import { CliIO } from './io';
import { isVariableUpdate } from '../ir/graph/ops';

function shape(t: TensorType): string {
  return `[${t.shape.join(', ')}]`;
}

export interface ModelSummary {
  readonly operators: number;
  readonly weightBytes: number;
  /** Variable tensors (SVDF state): imported as zero constants but written at run time. */
  readonly stateBytes: number;
  readonly activationBytes: number;
  readonly maxLiveBytes: number;
}

/** Variable tensors (SVDF and LSTM state, resource variables): state kept across invocations. */
export function stateTensors(fn: GraphFunction): Set<string> {
  return new Set(fn.nodes.filter((n) => n.kind === 'constant' && n.variable === true).map((n) => n.name));
}

export function summarize(fn: GraphFunction): ModelSummary {
  const state = stateTensors(fn);
  const constants = fn.nodes.filter((n) => n.kind === 'constant');
  const weightBytes = constants.filter((n) => !state.has(n.name)).reduce((s, n) => s + tensorBytes(n.type), 0);
  const stateBytes = constants.filter((n) => state.has(n.name)).reduce((s, n) => s + tensorBytes(n.type), 0);
  const activationBytes = fn.nodes.filter((n) => n.kind !== 'constant' && !isVariableUpdate(n)).reduce((s, n) => s + tensorBytes(n.type), 0);
  return {
    operators: fn.nodes.filter((n) => n.kind === 'call').length,
    weightBytes,
    stateBytes,
    activationBytes,
    maxLiveBytes: activationLiveness(fn).maxLiveBytes,
  };
}

/**
 * A model the checker cannot fully support: its declared operators (TFLite names, the
 * unsupported ones marked) and the same list of unsupported operators a failed `compile`
 * prints.
 */
function unsupportedReport(check: TfliteCheck): string {
  const bad = new Set(check.unsupported.map((u) => u.index));
  const io = (tensors: TfliteCheck['inputs']) =>
    tensors.map((t) => (t.type ? `${t.name} ${shape(t.type)} ${t.type.dtype}` : `${t.name} (unsupported type)`)).join(', ');
  const rows = check.operators.map((o) => [
    String(o.index),
    o.operator,
    o.outputs.join(', '),
    o.outputType ? shape(o.outputType) : '?',
    o.outputType ? o.outputType.dtype : '?',
    bad.has(o.index) ? 'unsupported' : '',
  ]);
  const kinds = new Set(check.unsupported.map((u) => u.operator)).size;
  return [
    `model: ${check.source}`,
    `inputs: ${io(check.inputs)}`,
    `outputs: ${io(check.outputs)}`,
    '',
    `operators (${check.operators.length}):`,
    ...tableLines(['#', 'op', 'output', 'shape', 'dtype', 'status'], rows).map((l) => `  ${l}`),
    '',
    `unsupported operators (${check.unsupported.length} in ${kinds} kind${kinds === 1 ? '' : 's'}); compile will fail:`,
    ...formatUnsupportedList(check.unsupported),
  ].join('\n');
}

/** The import found nothing unsupported; the host CPU strategies may still reject some calls. */
function hostSupport(module: IRModule): string[] {
  const problems = hostLoweringProblems(module);
  if (problems.length === 0) return ['unsupported operators: none'];
  const kinds = new Set(problems.map((p) => p.op)).size;
  return [
    `operators the host CPU cannot lower (${problems.length} in ${kinds} kind${kinds === 1 ? '' : 's'}); compile fails unless the backend offloads them:`,
    ...formatHostProblems(problems),
  ];
}

/** The operators whose output differs from TensorFlow Lite's, as compile warns of them. */
function deviationLines(module: IRModule): string[] {
  const warnings = liteRtDeviations(module);
  if (warnings.length === 0) return [];
  return [`outputs that differ from TensorFlow Lite's (${warnings.length}):`, ...warnings.map((w) => `  ${w}`)];
}

/**
 * ` (SPLIT #3 output 1)` for one output of a multi-output TFLite operator, ` (... #3 all
 * outputs)` for the call computing a packed tensor they are sliced from, else ''.
 */
function origin(c: CallNode): string {
  const op = c.attrs.tflite_operator;
  if (typeof op !== 'string') return '';
  const output = c.attrs.tflite_output;
  return ` (${op} #${c.attrs.tflite_index} ${output === undefined ? 'all outputs' : `output ${output}`})`;
}

/**
 * The tensor-level lower bound a compiled workspace is measured against: with model I/O (as
 * TFLite Micro's arena, `compile --io-in-workspace`) and without (the application owns I/O).
 */
function tensorBoundLines(main: GraphFunction): string[] {
  const withIo = tensorLowerBound(main, { includeIo: true });
  const withoutIo = tensorLowerBound(main, { includeIo: false });
  const at = (b: { operator: string | null }) => (b.operator ? ` at ${b.operator}` : '');
  return [
    `tensor-level lower bound (${withIo.alignment}-byte aligned tensors): ${withIo.bytes} bytes with model I/O${at(withIo)}; ${withoutIo.bytes} without${at(withoutIo)}`,
  ];
}

export function inspectReport(path: string): string {
  const check = checkTfliteFile(path);
  if (!check.module) return unsupportedReport(check);
  const module = check.module;
  const main = module.functions.get(MAIN_FUNCTION)!;
  // Errors name the file, as compile's and explain-pools' (importTflite) do.
  checkMainTypes(module, path);
  const byName = new Map(main.nodes.map((n) => [n.name, n]));
  const io = (names: readonly string[]) =>
    names.map((n) => `${n} ${shape(byName.get(n)!.type)} ${byName.get(n)!.type.dtype}`).join(', ');

  const calls = main.nodes.filter((n) => n.kind === 'call');
  const operatorRows = calls.map((c, i) => [
    String(i),
    c.callee.kind === 'op' ? c.callee.op + origin(c) : `@${c.callee.name}`,
    c.name,
    shape(c.type),
    c.type.dtype,
  ]);
  const state = stateTensors(main);
  const kind = (n: GraphNode) =>
    n.kind === 'var' ? 'input' : n.kind === 'call' ? 'activation' : state.has(n.name) ? 'state' : 'constant';
  const tensorRows = main.nodes.filter((n) => !isVariableUpdate(n)).map((n) => [
    n.name,
    kind(n),
    shape(n.type),
    n.type.dtype,
    String(tensorBytes(n.type)),
  ]);
  const summary = summarize(main);
  const liveness = activationLiveness(main);
  const peak = liveness.steps[liveness.peakStep];

  return [
    `model: ${path}`,
    `inputs: ${io(main.params)}`,
    `outputs: ${io(main.outputs)}`,
    '',
    `operators (${calls.length}):`,
    ...tableLines(['#', 'op', 'output', 'shape', 'dtype'], operatorRows).map((l) => `  ${l}`),
    '',
    `tensors (${main.nodes.length}):`,
    ...tableLines(['name', 'kind', 'shape', 'dtype', 'bytes'], tensorRows).map((l) => `  ${l}`),
    '',
    `weight bytes: ${summary.weightBytes}`,
    ...(summary.stateBytes > 0 ? [`state bytes: ${summary.stateBytes}`] : []),
    `activation bytes: ${summary.activationBytes}`,
    `liveness lower bound: ${summary.maxLiveBytes} bytes` + (peak ? ` (step ${peak.step}, ${peak.call})` : ''),
    ...tensorBoundLines(main),
    ...hostSupport(module),
    ...deviationLines(module),
  ].join('\n');
}

export function register(program: Command, io: CliIO): void {
  program
    .command('inspect')
    .description('print the operators, tensors, weight/activation bytes and liveness lower bound of a .tflite model, or every operator it uses that uma-ts does not support')
    .argument('<model>', 'path to a .tflite file', pathValue)
    .action((model: string) => {
      io.out(inspectReport(model));
    });
}
