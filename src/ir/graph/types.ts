/**
 * Graph IR (Relay level): an IRModule of named dataflow functions.
 *
 * Nodes are plain immutable data. A function lists its nodes in topological order;
 * every node has a name that is unique inside its function, and call arguments refer to
 * nodes by that name. `src/ir/graph/graph.ts` builds a graphlib view for ordering,
 * cycle detection and producer/consumer queries.
 *
 * Layout follows TFLite: activations NHWC, conv weights OHWI, depthwise weights 1HW(C*M),
 * dense weights [out, in].
 */

export type DType = 'int8' | 'uint8' | 'int16' | 'int32' | 'uint32' | 'int64' | 'uint64' | 'float32' | 'bool';

export const DTYPE_BYTES: Readonly<Record<DType, number>> = {
  int8: 1,
  uint8: 1,
  int16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
  float32: 4,
  bool: 1,
};

/** Affine quantization: real = scale * (q - zeroPoint). Per-tensor when scale has one entry. */
export interface Quantization {
  readonly scale: readonly number[];
  readonly zeroPoint: readonly number[];
  /** Channel axis for per-channel quantization (ignored for per-tensor). */
  readonly axis: number;
}

export interface TensorType {
  readonly shape: readonly number[];
  readonly dtype: DType;
  readonly quant?: Quantization;
}

export type AttrValue = number | string | boolean | readonly number[] | readonly string[];
export type Attrs = Readonly<Record<string, AttrValue>>;

/** A function parameter (model input, or argument of a partitioned function). */
export interface VarNode {
  readonly kind: 'var';
  readonly name: string;
  readonly type: TensorType;
}

/** Constant data (weights, biases). `data` holds raw little-endian bytes of `type`. */
export interface ConstantNode {
  readonly kind: 'constant';
  readonly name: string;
  readonly type: TensorType;
  readonly data: Uint8Array;
  /**
   * A variable tensor (TFLite `is_variable`, e.g. SVDF's activation state): `data` is its
   * value before the first invocation, and the operators that own it write its new value
   * back, so it persists across invocations of the same session/compiled program.
   * Absent = a read-only constant.
   */
  readonly variable?: boolean;
}

/**
 * What a call invokes: a primitive operator (`conv2d`, `add`, ...) or another function of
 * the module (a composite or a partitioned external function), as in Relay.
 */
export type Callee =
  | { readonly kind: 'op'; readonly op: string }
  | { readonly kind: 'function'; readonly name: string };

export interface CallNode {
  readonly kind: 'call';
  /** Name of the value this call produces (the TFLite tensor name for imported models). */
  readonly name: string;
  readonly callee: Callee;
  /** Names of argument nodes in the same function. */
  readonly args: readonly string[];
  readonly attrs: Attrs;
  /** Output type (single-output operators only). */
  readonly type: TensorType;
  /**
   * Set by partitioning on operator calls that were inlined from a composite function:
   * `name` is the composite (`<target>.<pattern>`), `instance` tells apart the calls of
   * different matches (all calls of one match share it). Lowering can use it to lower a
   * whole composite with one strategy (`strategyFor(target, name)`).
   */
  readonly composite?: { readonly name: string; readonly instance: string };
}

export type GraphNode = VarNode | ConstantNode | CallNode;

/**
 * Function attributes, as in Relay: `Composite` marks a pattern match
 * (`<target>.<pattern>`), `Compiler` an external (offloaded) function, `global_symbol`
 * its exported name, `target` the target that runs it (absent = host CPU).
 */
export interface FunctionAttrs {
  readonly Composite?: string;
  readonly Compiler?: string;
  readonly global_symbol?: string;
  readonly target?: string;
  readonly Primitive?: boolean;
  readonly [key: string]: AttrValue | undefined;
}

export interface GraphFunction {
  readonly name: string;
  /** Parameter names, in call order; each names a VarNode in `nodes`. */
  readonly params: readonly string[];
  /** All nodes in topological order. */
  readonly nodes: readonly GraphNode[];
  /** Names of the nodes whose values the function returns, in order. */
  readonly outputs: readonly string[];
  readonly attrs: FunctionAttrs;
}

export interface IRModule {
  /** Functions by name; `main` is the entry point. */
  readonly functions: ReadonlyMap<string, GraphFunction>;
  /** Where the module came from (model path), for error messages. */
  readonly source?: string;
}

export const MAIN_FUNCTION = 'main';

export function tensorBytes(type: TensorType): number {
  return type.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[type.dtype];
}

/** Whether two shapes have the same rank and the same size on every axis. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function tensorElements(type: TensorType): number {
  return type.shape.reduce((a, b) => a * b, 1);
}

/**
 * A tensor as rows along its last axis, for the operators that work row by row (softmax,
 * log_softmax, l2_normalization): a scalar is one row of one element.
 */
export function lastAxisRows(type: TensorType): { rows: number; depth: number } {
  const { shape } = type;
  const depth = shape.length === 0 ? 1 : shape[shape.length - 1];
  return { rows: depth === 0 ? 0 : tensorElements(type) / depth, depth };
}

export function isOpCall(node: GraphNode, op?: string): node is CallNode {
  return node.kind === 'call' && node.callee.kind === 'op' && (op === undefined || node.callee.op === op);
}
