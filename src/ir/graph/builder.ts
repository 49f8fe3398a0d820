/**
 * A small builder for graph-IR functions, mainly for tests: nodes are appended in order, so
 * the result is topologically ordered whenever each node's args were added before it.
 */
import { Attrs, CallNode, ConstantNode, DType, FunctionAttrs, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION, Quantization, TensorType, tensorBytes, VarNode } from './types';

export function tensorType(shape: readonly number[], dtype: DType, quant?: Quantization): TensorType {
  return quant ? { shape: [...shape], dtype, quant } : { shape: [...shape], dtype };
}

export class FunctionBuilder {
  private readonly nodes: GraphNode[] = [];
  private readonly params: string[] = [];

  constructor(private readonly name: string = MAIN_FUNCTION) {}

  param(name: string, type: TensorType): string {
    const node: VarNode = { kind: 'var', name, type };
    this.nodes.push(node);
    this.params.push(name);
    return name;
  }

  /** A constant; `data` defaults to zeros of the type's size. */
  constant(name: string, type: TensorType, data: Uint8Array = new Uint8Array(tensorBytes(type))): string {
    const node: ConstantNode = { kind: 'constant', name, type, data };
    this.nodes.push(node);
    return name;
  }

  /** A primitive op call producing `name`. */
  call(name: string, op: string, args: readonly string[], type: TensorType, attrs: Attrs = {}): string {
    const node: CallNode = { kind: 'call', name, callee: { kind: 'op', op }, args: [...args], attrs, type };
    this.nodes.push(node);
    return name;
  }

  /** A call of another function of the module (composite or external). */
  callFunction(name: string, callee: string, args: readonly string[], type: TensorType): string {
    const node: CallNode = { kind: 'call', name, callee: { kind: 'function', name: callee }, args: [...args], attrs: {}, type };
    this.nodes.push(node);
    return name;
  }

  build(outputs: readonly string[], attrs: FunctionAttrs = {}): GraphFunction {
    return { name: this.name, params: [...this.params], nodes: [...this.nodes], outputs: [...outputs], attrs };
  }
}

/** A module of the given functions, keyed by their names. */
export function moduleOf(functions: readonly GraphFunction[], source?: string): IRModule {
  return { functions: new Map(functions.map((f) => [f.name, f])), ...(source === undefined ? {} : { source }) };
}
