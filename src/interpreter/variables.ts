/**
 * The values of a module's variable tensors (graph ConstantNodes marked `variable`) for one
 * interpreter session. Each starts as a private copy of the node's data, so kernels may
 * overwrite it without touching the module or the shared constant cache; the copy lives as
 * long as the store, which is what makes state carry over from one invocation to the next.
 */
import { ConstantNode, tensorBytes } from '../ir/graph/types';
import { InterpreterError } from '../errors';
import { Tensor, tensorFromBytes, tensorToBytes, TypedArray } from './tensor';

export class VariableStore {
  private readonly values = new Map<ConstantNode, { readonly func: string; readonly tensor: Tensor }>();
  private readonly owned = new Set<Tensor>();

  /** The current value of variable `node` of function `func`, created from its data on first use. */
  value(node: ConstantNode, func: string): Tensor {
    const known = this.values.get(node);
    if (known) return known.tensor;
    if (node.data.byteLength < tensorBytes(node.type)) {
      throw new InterpreterError(
        `variable '${node.name}' holds ${node.data.byteLength} bytes, its type needs ${tensorBytes(node.type)}`,
        { func },
      );
    }
    const tensor = tensorFromBytes(node.type, node.data);
    this.values.set(node, { func, tensor });
    this.owned.add(tensor);
    return tensor;
  }

  /** True when `tensor` is a variable of this store (so a kernel may write it). */
  owns(tensor: Tensor): boolean {
    return this.owned.has(tensor);
  }

  /** Overwrites variable `tensor` with `data` (same element count). */
  write(tensor: Tensor, data: TypedArray, where: string, func: string): void {
    if (!this.owned.has(tensor)) {
      throw new InterpreterError(`${where}: writes back an argument that is not a variable tensor`, { func });
    }
    if (data.length !== tensor.data.length || data.constructor !== tensor.data.constructor) {
      throw new InterpreterError(
        `${where}: new variable value has ${data.length} ${data.constructor.name} elements, the variable ${tensor.data.length} ${tensor.data.constructor.name}`,
        { func },
      );
    }
    (tensor.data as { set(a: ArrayLike<number | bigint>): void }).set(data as ArrayLike<number | bigint>);
  }

  /** Raw little-endian bytes of every variable touched so far, keyed `<function>/<node>`. */
  snapshot(): Map<string, Uint8Array> {
    const out = new Map<string, Uint8Array>();
    for (const [node, { func, tensor }] of this.values) out.set(`${func}/${node.name}`, tensorToBytes(tensor));
    return out;
  }
}
