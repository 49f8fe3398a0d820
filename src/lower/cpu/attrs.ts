/**
 * Typed access to graph-call attributes for the CPU strategies. A missing or malformed
 * attribute is a LoweringError naming the operator, so a bad importer or pass output is
 * reported where it bites instead of as NaN loop bounds.
 */
import { LoweringError } from '../../errors';
import { FUSED_ACTIVATIONS, FusedActivation } from '../../ir/graph/ops';
import { CallNode } from '../../ir/graph/types';

function fail(call: CallNode, message: string): never {
  throw new LoweringError(`${call.name}: ${message}`, { op: call.callee.kind === 'op' ? call.callee.op : call.callee.name });
}

export function numberList(call: CallNode, key: string, length: number, fallback?: readonly number[]): readonly number[] {
  const v = call.attrs[key];
  if (v === undefined && fallback !== undefined) return fallback;
  if (!Array.isArray(v) || v.length !== length || v.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
    fail(call, `attribute '${key}' must be ${length} integers, got ${JSON.stringify(v)}`);
  }
  return v as readonly number[];
}

export function numberAttr(call: CallNode, key: string, fallback?: number): number {
  const v = call.attrs[key];
  if (v === undefined && fallback !== undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(call, `attribute '${key}' must be a finite number, got ${describeValue(v)}`);
  return v;
}

/**
 * A float value that may be infinite or NaN, where TFLite allows one: PADV2's float pad value
 * (-inf pads a max pool's window, as converters write for ceil-mode pooling).
 */
export function floatValueAttr(call: CallNode, key: string, fallback: number): number {
  const v = call.attrs[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number') fail(call, `attribute '${key}' must be a number, got ${describeValue(v)}`);
  return v;
}

/** JSON shows a non-finite number as null: say what it is. */
function describeValue(v: unknown): string {
  return typeof v === 'number' ? String(v) : JSON.stringify(v);
}

export function activationAttr(call: CallNode): FusedActivation {
  const v = call.attrs['activation'] ?? 'NONE';
  if (typeof v !== 'string' || !(FUSED_ACTIVATIONS as readonly string[]).includes(v)) {
    fail(call, `unknown fused activation ${JSON.stringify(v)}`);
  }
  return v as FusedActivation;
}

/** Window attributes shared by convolutions and pools. */
export interface Window {
  readonly strideH: number;
  readonly strideW: number;
  readonly dilationH: number;
  readonly dilationW: number;
  readonly padTop: number;
  readonly padLeft: number;
}

export function windowAttrs(call: CallNode): Window {
  const [strideH, strideW] = numberList(call, 'strides', 2, [1, 1]);
  const [dilationH, dilationW] = numberList(call, 'dilation', 2, [1, 1]);
  const [padTop, padLeft] = numberList(call, 'padding', 4, [0, 0, 0, 0]);
  return { strideH, strideW, dilationH, dilationW, padTop, padLeft };
}

export function loweringFail(call: CallNode, message: string): never {
  fail(call, message);
}
