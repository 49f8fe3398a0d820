/**
 * The constraint sources the pool-pinning pass merges: backend operand constraints,
 * user pins (file or API) and pool preference. Target accessibility is not listed here:
 * the pass derives it from the pools' `targetAccess` and the traced accesses.
 */
import { OperandRole } from './traceOperands';

/** Which operand(s) of an operator a constraint speaks about. */
export interface OperandSelector {
  /** `input`, `output`, `scratch`, or `any` for every operand. */
  readonly role: OperandRole | 'any';
  /** Operand position within the role; absent = every operand of that role. */
  readonly index?: number;
  /** With no index: positions this selector skips (they carry their own constraint). */
  readonly exceptIndices?: readonly number[];
}

export interface OperandPin extends OperandSelector {
  /** Who asked for it, for errors and explain (`backend accel`, `pins.json pin #2`). */
  readonly source: string;
  /** Operator name, composite name or node name; `*` matches any run of characters. */
  readonly op: string;
  /**
   * A backend's constraint: it binds the operators that backend's target runs only (a backend
   * that offloads some conv2d says nothing of the conv2d the host runs). User pins have none.
   */
  readonly target?: string;
  readonly pools: readonly string[];
  /** An operand the operator may lack (a backend's `optionalInputs`): no error when none has it. */
  readonly optional?: boolean;
}

export interface TensorPin {
  readonly source: string;
  /** Tensor or buffer name; `*` wildcards allowed. */
  readonly tensor: string;
  readonly pools: readonly string[];
}

export interface PinningConstraints {
  readonly operands: readonly OperandPin[];
  readonly tensors: readonly TensorPin[];
  /**
   * Preferred pool order per target (a backend's stated preference); buffers touched only
   * by that target list their candidates in this order, others use the user's pool order.
   */
  readonly preference?: Readonly<Record<string, readonly string[]>>;
  /** Global preference overriding the user's pool order (from a pins file). */
  readonly poolOrder?: readonly string[];
  /** Where `poolOrder` came from, for errors (`pins pins.json /poolPreference`). */
  readonly poolOrderSource?: string;
  /**
   * The user's pins are shared by the models of an application: one matching nothing in this
   * model is listed in the solution's `unmatchedPins` instead of failing here (a tensor of one
   * model is in no other); the application fails when a pin matches in none of its models.
   */
  readonly sharedByModels?: boolean;
}

export const NO_CONSTRAINTS: PinningConstraints = { operands: [], tensors: [] };

export function mergeConstraints(...sets: readonly PinningConstraints[]): PinningConstraints {
  const preference: Record<string, readonly string[]> = {};
  let order: Pick<PinningConstraints, 'poolOrder' | 'poolOrderSource'> = {};
  for (const s of sets) {
    Object.assign(preference, s.preference ?? {});
    if (s.poolOrder) order = { poolOrder: s.poolOrder, ...(s.poolOrderSource !== undefined ? { poolOrderSource: s.poolOrderSource } : {}) };
  }
  return {
    operands: sets.flatMap((s) => s.operands),
    tensors: sets.flatMap((s) => s.tensors),
    preference,
    ...order,
  };
}

/** Glob with `*` only, anchored at both ends (linear time: util/glob). */
export { globMatches } from '../../src/util/glob';

/** Parses `input`, `output:0`, `scratch`, `any` as written in pins files. */
export function parseOperandSelector(text: string): OperandSelector | undefined {
  const m = /^(input|output|scratch|any)(?::(\d+))?$/.exec(text);
  if (!m) return undefined;
  const role = m[1] as OperandSelector['role'];
  if (m[2] === undefined) return { role };
  // An index past 2^53-1 would be rounded (99999999999999999999 read as 1e20) and named so.
  const index = Number(m[2]);
  return Number.isSafeInteger(index) ? { role, index } : undefined;
}

export function describeSelector(s: OperandSelector): string {
  if (s.role === 'any') return 'every operand';
  return s.index === undefined ? `every ${s.role}` : `${s.role} ${s.index}`;
}
