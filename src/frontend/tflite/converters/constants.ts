/**
 * Constant inputs that are operator parameters (axes, shapes, sizes...): read at import and
 * turned into attributes. A parameter tensor computed at run time is not supported.
 */
import { formatError, inputType, OperatorSite, unsupportedParameter } from './common';

/** The integers of constant input `position` (int32 or int64), in order. */
export function constantInts(site: OperatorSite, position: number, role: string): number[] {
  const type = inputType(site, position, role);
  const bytes = site.constantInput?.(position) ?? null;
  if (!bytes) unsupportedParameter(site, `non-constant ${role} (input ${position})`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type.dtype === 'int32') return Array.from({ length: bytes.length / 4 }, (_, i) => view.getInt32(4 * i, true));
  if (type.dtype === 'int64') {
    return Array.from({ length: bytes.length / 8 }, (_, i) => {
      const v = view.getBigInt64(8 * i, true);
      if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(-Number.MAX_SAFE_INTEGER)) {
        formatError(site, `${role} value ${v} is out of range`);
      }
      return Number(v);
    });
  }
  return unsupportedParameter(site, `${role} dtype ${type.dtype} (input ${position}; expected int32 or int64)`);
}

/** Axes as TFLite resolves them: negative counts from the end, repeats dropped, order kept. */
export function resolveAxes(site: OperatorSite, axes: readonly number[], rank: number, role: string): number[] {
  const out: number[] = [];
  for (const a of axes) {
    const r = a < 0 ? a + rank : a;
    if (r < 0 || r >= rank) formatError(site, `${role} ${a} is out of range for a rank-${rank} input`);
    if (!out.includes(r)) out.push(r);
  }
  return out;
}
