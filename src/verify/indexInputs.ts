/**
 * Which model inputs are indices: an integer input read directly as GATHER indices,
 * GATHER_ND indices or EMBEDDING_LOOKUP ids (a token-id input of a keyword or transformer
 * model). Random bits there are out of range, which TFLite Micro and the interpreter refuse,
 * so seeded random inputs draw such an input within the axis it indexes.
 */
import { CallNode, GraphFunction, IRModule, MAIN_FUNCTION } from '../ir/graph/types';

/** The index operand of an indexing call and how many rows it may address (exclusive bound), or null. */
function indexOperand(call: CallNode, fn: GraphFunction): { arg: string; bound: number } | null {
  if (call.callee.kind !== 'op') return null;
  const shapeOf = (name: string) => fn.nodes.find((n) => n.name === name)!.type.shape;
  switch (call.callee.op) {
    case 'gather': {
      const shape = shapeOf(call.args[0]);
      const axis = Number(call.attrs.axis ?? 0);
      return { arg: call.args[1], bound: shape[axis < 0 ? axis + shape.length : axis] };
    }
    case 'embedding_lookup':
      return { arg: call.args[1], bound: shapeOf(call.args[0])[0] };
    case 'gather_nd': {
      const params = shapeOf(call.args[0]);
      const indices = shapeOf(call.args[1]);
      const nd = indices[indices.length - 1];
      return { arg: call.args[1], bound: Math.min(...params.slice(0, nd)) };
    }
    default:
      return null;
  }
}

/** Model input name -> exclusive upper bound of its values (the smallest over its indexing uses). */
export function indexInputBounds(graph: IRModule): ReadonlyMap<string, number> {
  const fn = graph.functions.get(MAIN_FUNCTION);
  const bounds = new Map<string, number>();
  if (!fn) return bounds;
  const params = new Set(fn.params);
  for (const node of fn.nodes) {
    if (node.kind !== 'call') continue;
    const use = indexOperand(node, fn);
    if (!use || !params.has(use.arg) || !(use.bound > 0)) continue;
    bounds.set(use.arg, Math.min(bounds.get(use.arg) ?? Infinity, use.bound));
  }
  return bounds;
}
