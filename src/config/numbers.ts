/**
 * One validation layer for the numbers users and models give us: byte counts (pool sizes,
 * size hints, buffer sizes), alignments and quantization parameters. Each check returns the
 * problem in words, or undefined, so every reader (pools JSON, pool flags, buffer sets, the
 * TFLite importer) reports it with its own file, JSON path, tensor and operator.
 * All checks use exact arithmetic: no 32-bit bit tricks, no values past 2^53-1.
 */
import { DType } from '../ir/graph/types';

/** Largest byte count we plan with: beyond 2^53-1, doubles no longer count bytes exactly. */
export const MAX_BYTE_COUNT = Number.MAX_SAFE_INTEGER;

/**
 * Largest pool alignment: 1 MiB. Real requirements stop at cache lines, DMA bursts and MMU
 * pages (<= 64 KiB); a larger value is a typo that would pad pools to gigabytes, and C
 * compilers reject `aligned(2^29)` and above anyway.
 */
export const MAX_ALIGNMENT_BYTES = 2 ** 20;

/** `size 9007199254740992 is past 2^53-1...`, or undefined for an exact non-negative integer. */
export function byteCountProblem(value: unknown, what = 'size'): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(value)) {
    return `${what} ${String(value)} is not an integer number of bytes`;
  }
  if (value < 0) return `${what} ${value} is negative`;
  if (value > MAX_BYTE_COUNT) {
    return `${what} ${value} is past 2^53-1 = ${MAX_BYTE_COUNT}, the largest byte count uma-ts can represent exactly`;
  }
  return undefined;
}

/** A power of two from 1 to MAX_ALIGNMENT_BYTES, tested exactly (not with 32-bit `&`). */
export function alignmentProblem(value: unknown): string | undefined {
  const base = byteCountProblem(value, 'alignment');
  if (base !== undefined) return base;
  const n = value as number;
  if (n < 1 || n > MAX_ALIGNMENT_BYTES) return `alignment ${n} is outside 1..${MAX_ALIGNMENT_BYTES} (2^20)`;
  let p = 1;
  while (p < n) p *= 2;
  return p === n ? undefined : `alignment ${n} is not a power of two`;
}

/** Zero points a tensor of `dtype` may have (TFLite: 32- and 64-bit tensors are symmetric). */
export function zeroPointRange(dtype: DType): readonly [bigint, bigint] | undefined {
  switch (dtype) {
    case 'int8':
      return [-128n, 127n];
    case 'uint8':
      return [0n, 255n];
    case 'int16':
      return [-32768n, 32767n];
    case 'int32':
    case 'uint32':
    case 'int64':
    case 'uint64':
      return [0n, 0n];
    default:
      return undefined;
  }
}

const MAX_SAFE_ZERO_POINT = BigInt(Number.MAX_SAFE_INTEGER);

export interface QuantizationToCheck {
  readonly dtype: DType;
  readonly scale: readonly number[];
  /** As stored in the model: int64, so exact. */
  readonly zeroPoint: readonly bigint[];
}

/**
 * The first problem with a tensor's quantization: a scale that is not finite and > 0 (a
 * per-channel scale may be 0: an all-zero channel), or a zero point outside what its type allows. Per-channel entries are named by channel.
 * Non-integer tensors are not checked (converters leave calibration data on float tensors),
 * except that their zero points must be safe integers (numbers hold them from then on).
 */
export function quantizationProblem(q: QuantizationToCheck): string | undefined {
  const range = zeroPointRange(q.dtype);
  if (range === undefined) {
    // A float tensor's quantization is not checked, but its zero points are carried as numbers:
    // past 2^53 one was rounded (2^62 became 4611686018427388000, which `run`, checking the
    // imported graph again, refused as "not an integer" after `compile` had accepted it).
    const perChannel = q.zeroPoint.length > 1;
    const inexact = q.zeroPoint.findIndex((z) => z < -MAX_SAFE_ZERO_POINT || z > MAX_SAFE_ZERO_POINT);
    if (inexact < 0) return undefined;
    return `zero point${perChannel ? ` of channel ${inexact}` : ''} ${q.zeroPoint[inexact]} is outside -(2^53-1)..2^53-1, which uma-ts cannot hold exactly`;
  }
  const perChannel = q.scale.length > 1;
  const at = (i: number) => (perChannel ? ` of channel ${i}` : '');
  for (let i = 0; i < q.scale.length; i++) {
    const s = q.scale[i];
    // TFLite's per-channel weight quantizer gives an all-zero channel (a pruned filter) scale 0
    // (and its bias input scale x 0); TFLite and TFLite Micro run it: a zero multiplier.
    if (perChannel && s === 0) continue;
    if (!Number.isFinite(s) || !(s > 0)) return `scale${at(i)} ${s} is not a finite number > 0${perChannel ? ' (or 0, for an all-zero channel)' : ''}`;
  }
  for (let i = 0; i < q.zeroPoint.length; i++) {
    const z = q.zeroPoint[i];
    if (z < range[0] || z > range[1]) {
      const allowed = range[0] === range[1] ? `must be ${range[0]} for ${q.dtype} tensors` : `is outside ${q.dtype}'s range [${range[0]}, ${range[1]}]`;
      return `zero point${at(i)} ${z} ${allowed}`;
    }
  }
  return undefined;
}
