/**
 * Constants whose bytes are the same share one place in the constant pool. Lowering gives
 * every operator its own tables (an int8 LOGISTIC's 256-entry lookup, per-channel multipliers
 * and shifts), composites copy the weights they read, and an unrolled WHILE repeats its body's
 * operators once per iteration: a 6-operator int8 RNN loop over 1,365 steps planned 2,736
 * constants, 371 KB, nearly all copies of two tables. Constants are read-only and live for the
 * whole run, so one copy serves every reader.
 *
 * A constant is kept only where its readers may reach it: constants share only when their
 * candidate pools (in order), alignment, element type and size are the same too.
 */
import { createHash } from 'crypto';
import { AllocateConst } from '../ir/tir/nodes';
import { PoolInfo } from './types';

export interface ConstantRecord {
  readonly name: string;
  readonly node: AllocateConst;
  readonly sizeBytes: number;
  readonly alignment: number;
  readonly candidates: readonly PoolInfo[];
}

/** The bytes the constant pool holds for it (its data may be shorter than its buffer). */
function poolBytes(c: ConstantRecord): Buffer {
  const bytes = c.node.data.subarray(0, c.sizeBytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Of each group of identical constants the first one (in the given order) stays; the result
 * maps every other one, by name, to the name of that first one.
 */
export function shareIdenticalConstants(constants: readonly ConstantRecord[]): Map<string, string> {
  const sameAs = new Map<string, string>();
  // Keyed by everything but the bytes, then by a digest of the bytes; a digest match is
  // confirmed byte for byte, so a collision only costs a comparison.
  const byKey = new Map<string, ConstantRecord[]>();
  for (const c of constants) {
    const bytes = poolBytes(c);
    const digest = createHash('sha1').update(bytes).digest('hex');
    const key = [c.node.dtype, c.sizeBytes, c.alignment, c.candidates.map((p) => p.name).join('\u0000'), digest].join('\u0001');
    const group = byKey.get(key);
    const twin = group?.find((k) => poolBytes(k).equals(bytes));
    if (twin !== undefined) {
      sameAs.set(c.name, twin.name);
      continue;
    }
    if (group === undefined) byKey.set(key, [c]);
    else group.push(c);
  }
  return sameAs;
}
