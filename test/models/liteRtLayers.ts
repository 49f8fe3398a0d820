/** Layer-by-layer comparison of a built network with LiteRT (shared by the whole-network suites). */
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { CallNode, GraphFunction, GraphNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { Closeness, firstMismatch, LiteRtResult } from '../oracle/litert';
import { BuiltNet } from './netBuilder';

/** XNNPack rounds some quantized elements 1 LSB away from TFLite Micro; float sums in another order. */
export const LAYER_TOLERANCE: Closeness = { lsb: 1, rel: 1e-5, abs: 1e-5 };

/**
 * One call run alone by the interpreter: its activation inputs (the non-constant arguments, in
 * order) become parameters fed with `values`, its constants come along.
 */
export function interpretAlone(call: CallNode, nodes: ReadonlyMap<string, GraphNode>, values: readonly Uint8Array[]): Uint8Array {
  const params = call.args.filter((a) => nodes.get(a)!.kind !== 'constant');
  const single: GraphFunction = {
    name: MAIN_FUNCTION,
    params,
    nodes: [
      ...params.map((p): GraphNode => ({ kind: 'var', name: p, type: nodes.get(p)!.type })),
      ...call.args.filter((a) => nodes.get(a)!.kind === 'constant').map((a) => nodes.get(a)!),
      call,
    ],
    outputs: [call.name],
    attrs: {},
  };
  return interpret({ functions: new Map([[MAIN_FUNCTION, single]]), source: call.name }, [...values])[0];
}

/**
 * Every call whose inputs LiteRT also computed (model outputs of the every-activation model),
 * run alone by the interpreter on LiteRT's input values and compared with LiteRT's output.
 * Returns the disagreements and how many calls were compared.
 */
export function layerByLayer(built: BuiltNet, lite: LiteRtResult): { failures: string[]; compared: number; calls: number } {
  if ('error' in lite) throw new Error(`LiteRT: ${lite.error}`);
  const every = importTflite(built.everyActivation, 'every.tflite');
  const fn = every.functions.get(MAIN_FUNCTION)!;
  const liteByName = new Map<string, Uint8Array>(fn.outputs.map((n, k) => [n, lite.outputs[k].data]));
  fn.params.forEach((p, i) => liteByName.set(p, built.inputs[i]));
  const nodes = new Map(fn.nodes.map((n) => [n.name, n]));
  const calls = fn.nodes.filter((n): n is CallNode => n.kind === 'call');
  const failures: string[] = [];
  let compared = 0;
  for (const call of calls) {
    const params = call.args.filter((a) => nodes.get(a)!.kind !== 'constant');
    if (!liteByName.has(call.name) || params.some((p) => !liteByName.has(p))) continue;
    const mine = interpretAlone(call, nodes, params.map((p) => liteByName.get(p)!));
    compared++;
    const m = firstMismatch(call.type.dtype, mine, liteByName.get(call.name)!, LAYER_TOLERANCE);
    if (m) failures.push(`${call.name} (${call.callee.kind === 'op' ? call.callee.op : '?'}): ${m}`);
  }
  return { failures, compared, calls: calls.length };
}
