/**
 * What every TFLite operator converter shares: the site it converts (operator, input/output
 * types, where it sits in the file), its result (graph-IR op, attributes, which TFLite inputs
 * become call args) and the checks that turn bad options into errors naming the operator.
 */
import { TypeInferenceError, UnsupportedOperatorError } from '../../../errors';
import { FUSED_ACTIVATIONS, FusedActivation } from '../../../ir/graph/ops';
import { AttrValue, TensorType } from '../../../ir/graph/types';
import { CheckedBuffer, modelFormatError } from '../flatbuf';
import { ACTIVATION_NAMES, BuiltinOptionsType, Operator } from '../schema';
import { tflmDtypeRefusal } from './tflmKernels';
import { activationBoundsProblem, addRescaleProblem, wideRequantizeProblem } from '../../../arith/quant-params';

export interface OperatorSite {
  /** Operator index in the subgraph. */
  readonly index: number;
  /** TFLite builtin name, e.g. `CONV_2D`. */
  readonly tfliteName: string;
  readonly operator: Operator;
  /** Types of the TFLite inputs in order; null for an omitted optional input (-1). */
  readonly inputTypes: readonly (TensorType | null)[];
  readonly outputType: TensorType;
  readonly source: string;
  /** Types of every TFLite output (multi-output operators: SPLIT, SPLIT_V, UNPACK). */
  readonly outputTypes: readonly TensorType[];
  /** The constant bytes of TFLite input `position` (a constant, or an output folded at import), or null when it is not a constant. */
  readonly constantInput: (position: number) => Uint8Array | null;
  /**
   * The value of TFLite input `position` when it is known at import: a constant's bytes, or
   * the (static) dimensions a SHAPE operator produced, as int32 bytes; else null.
   */
  readonly knownInput?: (position: number) => Uint8Array | null;
  /** Tensor names of the TFLite inputs in order; null for an omitted optional input. */
  readonly inputNames?: readonly (string | null)[];
}

export interface ConvertedOperator {
  readonly op: string;
  readonly attrs: Record<string, AttrValue>;
  /** Positions (into the TFLite inputs) that become call args, in order; -1 inputs are dropped. */
  readonly argPositions: readonly number[];
  /**
   * Multi-output operators: one single-output call per TFLite output, in output order (each
   * named after its output tensor). When set, op/attrs/argPositions above are unused.
   */
  readonly perOutput?: readonly ConvertedOperator[];
  /**
   * With `perOutput`: op/attrs/argPositions describe one call computing every output into a
   * packed tensor of this type (named `<first output>_packed`), and each per-output call
   * reads that tensor instead of TFLite inputs (its argPositions are unused).
   */
  readonly packed?: { readonly type: TensorType };
  /**
   * The output computed at import (a shape computation on known values): the importer defines
   * the output as this constant (little-endian bytes of the output type) and makes no call.
   */
  readonly folded?: Uint8Array;
  /**
   * State the operator keeps across invocations that is no tensor of the file (TFLite Micro
   * holds it in a persistent buffer of its own, reset to 0): the importer adds a variable
   * constant of this type, zero-filled unless `initial` gives its bytes, named `<first output>_<suffix>`, as the call's last
   * argument (the packed call's, with `packed`; else the one call's), so it is persistent state.
   */
  readonly state?: { readonly type: TensorType; readonly suffix: string; readonly initial?: Uint8Array };
}

export type Converter = (site: OperatorSite) => ConvertedOperator;

export function where(site: OperatorSite): string {
  return `${site.tfliteName} at operator #${site.index} in ${site.source}`;
}

export function formatError(site: OperatorSite, problem: string): never {
  throw modelFormatError(site.source, site.operator.pos, `${problem} (${site.tfliteName} at operator #${site.index})`);
}

/** An operator with more input slots than it takes (MAX_INPUT_SLOTS, inputSlots.ts). */
export function requireInputCount(site: OperatorSite, count: number): void {
  const n = site.inputTypes.length;
  if (n > count) formatError(site, `has ${n} inputs, expected ${count}`);
}

/**
 * An operator whose parameters uma-ts does not support: names the operator, its index and the
 * parameter, then `why` when there is more to say (TFLite Micro's kernel refuses it too).
 */
export function unsupportedParameter(site: OperatorSite, problem: string, why?: string): never {
  const reason = why === undefined ? '' : `: ${why}`;
  throw new UnsupportedOperatorError(`unsupported ${problem} on ${where(site)}${reason}`, { file: site.source, op: site.tfliteName });
}

type OptionsCtor<T> = new (buf: CheckedBuffer, pos: number, what: string) => T;

/** The options table, or null when the operator carries none (all defaults). */
export function options<T>(site: OperatorSite, expected: number, ctor: OptionsCtor<T>): T | null {
  const type = site.operator.builtinOptionsType;
  if (type === BuiltinOptionsType.NONE) return null;
  if (type !== expected) {
    formatError(site, `builtin_options has union type ${type}, expected ${ctor.name} (${expected})`);
  }
  return site.operator.builtinOptions(ctor);
}

export function requiredOptions<T>(site: OperatorSite, expected: number, ctor: OptionsCtor<T>): T {
  return options(site, expected, ctor) ?? formatError(site, `missing ${ctor.name}`);
}

export function activation(site: OperatorSite, code: number): FusedActivation {
  const name = ACTIVATION_NAMES[code];
  if (name === undefined || !(FUSED_ACTIVATIONS as readonly string[]).includes(name)) {
    throw new UnsupportedOperatorError(
      `unsupported fused activation ${name ?? code} on ${where(site)}`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return name as FusedActivation;
}

/**
 * `activation` of an operator whose quantized kernel clamps with TFLite's
 * CalculateActivationRangeQuantized (ADD, SUB, MUL, DIV, CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, TRANSPOSE_CONV, the pools): a bound TFLite Micro cannot quantize to int32
 * (activationBoundsProblem) is an unsupported parameter.
 */
export function quantizedActivation(site: OperatorSite, code: number): FusedActivation {
  const act = activation(site, code);
  const out = site.outputType;
  if ((out.dtype === 'int8' || out.dtype === 'uint8' || out.dtype === 'int16') && out.quant && out.quant.scale.length > 0) {
    const problem = activationBoundsProblem(act, out.quant.scale[0]);
    if (problem !== undefined) unsupportedParameter(site, problem);
  }
  return act;
}

export function positive(site: OperatorSite, what: string, values: readonly number[]): [number, number] {
  if (values.some((v) => !Number.isInteger(v) || v < 1)) formatError(site, `${what} must be >= 1, got [${values}]`);
  return [values[0], values[1]];
}

export function inputType(site: OperatorSite, position: number, role: string): TensorType {
  const type = site.inputTypes[position];
  if (!type) formatError(site, `missing ${role} input`);
  return type;
}

/** [H, W] of an NHWC tensor; shape errors are reported by op and shape. */
export function spatial(site: OperatorSite, type: TensorType, role: string): [number, number] {
  if (type.shape.length !== 4) {
    throw new TypeInferenceError(
      `${site.tfliteName} expects a 4-d NHWC ${role}, got shape [${type.shape}] (${where(site)})`,
      { file: site.source, op: site.tfliteName },
    );
  }
  return [type.shape[1], type.shape[2]];
}

/** Keeps every present input among the first `count` positions. */
export function presentInputs(site: OperatorSite, count: number): number[] {
  const kept: number[] = [];
  for (let i = 0; i < Math.min(count, site.inputTypes.length); i++) if (site.inputTypes[i]) kept.push(i);
  return kept;
}

/** Rejects a tensor dtype the operator does not support, naming operator, index and dtype (and TFLite Micro's refusal, where its kernel refuses the dtype). */
export function requireDtype(site: OperatorSite, type: TensorType, allowed: readonly string[], role: string): void {
  if (!allowed.includes(type.dtype)) {
    unsupportedParameter(site, `${role} dtype ${type.dtype} (supported: ${allowed.join(', ')})`, tflmDtypeRefusal(site, role, type.dtype));
  }
}

/** A negative axis counts from the end (TFLite); out of range is a format error. */
export function positiveAxis(site: OperatorSite, axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (!Number.isInteger(a) || a < 0 || a >= rank) formatError(site, `axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/**
 * Every int8/int16 input and the output of an operator TFLite Micro rescales (ADD, SUB, MUL,
 * DIV, SQUARED_DIFFERENCE, PRELU, MEAN, SUM) must carry a scale and zero point: its kernels
 * read them, and the interpreter and lowering refuse the operator without them.
 */
export function requireRescaleQuantization(site: OperatorSite, inputs: number): void {
  const roles = [...Array.from({ length: inputs }, (_, i) => `input ${i}`), 'output'];
  [...Array.from({ length: inputs }, (_, i) => inputType(site, i, roles[i])), site.outputType].forEach((t, i) => {
    if (t.dtype === 'int8' || t.dtype === 'int16') tensorQuant(site, t, roles[i]);
  });
}

/** ADD and SUB: quantized scales TFLite Micro's Prepare accepts (addRescaleProblem). */
export function requireAddRescale(site: OperatorSite): void {
  const out = site.outputType;
  if (out.dtype !== 'int8' && out.dtype !== 'int16') return;
  const s1 = tensorQuant(site, inputType(site, 0, 'input 0'), 'input 0').scale;
  const s2 = tensorQuant(site, inputType(site, 1, 'input 1'), 'input 1').scale;
  const problem = addRescaleProblem(s1, s2, tensorQuant(site, out, 'output').scale, out.dtype);
  if (problem !== undefined) unsupportedParameter(site, problem);
}

/**
 * 16x8 operators that accumulate in int64 (CONV_2D and FULLY_CONNECTED with an int64 bias,
 * DEPTHWISE_CONV_2D, TRANSPOSE_CONV, BATCH_MATMUL): their requantization multipliers
 * (input scale * weight scale / output scale) must suit TFLite's int64
 * MultiplyByQuantizedMultiplier (wideRequantizeProblem); `weight` is the second operand.
 */
export function requireWideRequantize(site: OperatorSite, input: TensorType, weight: TensorType, productInFloat = false): void {
  const s = (t: TensorType) => t.quant?.scale ?? [];
  const problem = wideRequantizeProblem(s(input)[0], s(weight), s(site.outputType)[0], productInFloat);
  if (problem !== undefined) unsupportedParameter(site, problem);
}

/** The per-tensor scale and zero point of a quantized tensor; none is an unsupported parameter naming `role`. */
export function tensorQuant(site: OperatorSite, type: TensorType, role: string): { scale: number; zeroPoint: number } {
  const q = type.quant;
  if (!q || q.scale.length === 0) unsupportedParameter(site, `${role} ${type.dtype} tensor without quantization`);
  return { scale: q.scale[0], zeroPoint: q.zeroPoint[0] ?? 0 };
}

/**
 * Operands of different shapes take TFLite Micro's broadcasting path, which is limited to
 * `maxRank` axes; equal shapes run flat, any rank.
 */
export function requireBroadcastRank(site: OperatorSite, operands: readonly TensorType[], maxRank: number): void {
  const same = operands.every((t) => t.shape.length === operands[0].shape.length && t.shape.every((d, i) => d === operands[0].shape[i]));
  const rank = Math.max(site.outputType.shape.length, ...operands.map((t) => t.shape.length));
  if (!same && rank > maxRank) unsupportedParameter(site, `broadcast over ${rank} axes (TFLite Micro broadcasts at most ${maxRank})`);
}
