/**
 * How one graph operator becomes TIR. Strategies are registered per target (the host CPU
 * target is `c`), so a backend can lower `conv2d` its own way without touching anyone
 * else's conv2d (TVM's strategies are global; ours are not).
 */
import { CallNode, ConstantNode, GraphFunction, TensorType, tensorElements } from '../ir/graph/types';
import { seq } from '../ir/tir/builder';
import { UnsupportedOperatorError } from '../errors';
import { Buffer, Stmt } from '../ir/tir/nodes';

export interface OpLoweringInput {
  readonly call: CallNode;
  /** Types of the call's arguments, in argument order. */
  readonly argTypes: readonly TensorType[];
  /** One TIR buffer per call argument (N-d, the tensor's shape and dtype). */
  readonly args: readonly Buffer[];
  /** Constant data for arguments that are constants (weights, biases), by argument index. */
  readonly constants: ReadonlyMap<number, ConstantNode>;
  /** The output buffer (N-d, the call's type). */
  readonly out: Buffer;
  /** Target the statement will run on. */
  readonly target: string;
  /**
   * Set when a whole composite is lowered by its composite strategy (`<target>.<pattern>`):
   * the composite function itself. `call.args` then lists the call's arguments followed by
   * the composite's own constants, and `call.attrs` merges its operators' attributes.
   */
  readonly composite?: GraphFunction;
}

/**
 * Returns the statement computing `out` from `args`: real loop nests, with any scratch the
 * operator needs as operator-internal `Allocate`s (e.g. a padded input or an accumulator).
 */
export type OperatorStrategy = (input: OpLoweringInput) => Stmt;

/**
 * The body a strategy lowers `input` to. An output without elements has nothing to compute:
 * strategies size their loops by it, and a SOFTMAX of shape [3, 0] made `i < NaN` (a row
 * length of 0 / 0). (Variable updates, the one effect besides the output, are not lowered by
 * strategies.)
 */
export function strategyBody(strategy: OperatorStrategy, input: OpLoweringInput): Stmt {
  if (tensorElements(input.call.type) === 0) return seq([]);
  try {
    return strategy(input);
  } catch (e) {
    // Arithmetic a strategy calls (a requantization multiplier out of range) knows no operator:
    // named here, as the strategies' own errors are (fuzzed: an int8 FULLY_CONNECTED whose
    // scales overflow float32 said only "a requantization multiplier of Infinity").
    if (!(e instanceof UnsupportedOperatorError) || e.context.op !== undefined) throw e;
    const { call } = input;
    const op = call.callee.kind === 'op' ? call.callee.op : call.callee.name;
    throw new UnsupportedOperatorError(`${op} '${call.name}': ${e.message}`, { ...e.context, op });
  }
}

export const HOST_TARGET = 'c';
