/**
 * In-place reuse in a dataflow function: which operator outputs may live in the buffer of
 * one of their inputs. An input qualifies when it dies at that operator (no later reader,
 * not a function output), is itself computed by a primitive operator of this function (never
 * a parameter: model inputs belong to the application and are never overwritten; nor an
 * offloaded function's result, whose pools its target chose), and has the output's dtype and
 * byte size; `view` ops (pure reshapes) take any such input, `elementwise` ops one of the
 * output's exact shape (a broadcast operand is read at other indices). The output must not
 * be a function output either (that buffer is the application's). Since the input dies
 * there, at any time at most one live tensor refers to a shared buffer.
 */
import { OPS, InplaceKind } from './ops';
import { CallNode, GraphFunction, GraphNode, tensorBytes } from './types';

export interface InplaceAlias {
  /** The operator output that reuses a buffer. */
  readonly tensor: string;
  /** The input whose buffer it reuses. */
  readonly input: string;
  readonly kind: InplaceKind;
}

/** The in-place aliases of `fn`, in node order. `enabled(call)` can veto one (default: all). */
export function inplaceAliases(fn: GraphFunction, enabled: (call: CallNode) => boolean = () => true): InplaceAlias[] {
  const calls = fn.nodes.filter((n): n is CallNode => n.kind === 'call');
  const lastUse = new Map<string, number>();
  calls.forEach((c, i) => c.args.forEach((a) => lastUse.set(a, i)));
  const byName = new Map<string, GraphNode>(fn.nodes.map((n) => [n.name, n]));
  const outputs = new Set(fn.outputs);
  const aliases: InplaceAlias[] = [];
  calls.forEach((call, step) => {
    if (call.callee.kind !== 'op' || outputs.has(call.name)) return;
    const kind = OPS[call.callee.op]?.inplace;
    if (kind === undefined || !enabled(call)) return;
    const fits = (arg: string): boolean => {
      const n = byName.get(arg);
      if (n?.kind !== 'call' || n.callee.kind !== 'op' || outputs.has(arg) || lastUse.get(arg) !== step) return false;
      if (n.type.dtype !== call.type.dtype || tensorBytes(n.type) !== tensorBytes(call.type)) return false;
      return kind === 'view' || (n.type.shape.length === call.type.shape.length && n.type.shape.every((d, i) => d === call.type.shape[i]));
    };
    const args = kind === 'view' ? call.args.slice(0, 1) : call.args;
    const input = args.find(fits);
    if (input !== undefined) aliases.push({ tensor: call.name, input, kind });
  });
  return aliases;
}
