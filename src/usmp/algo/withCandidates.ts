/**
 * A buffer set with other candidate pools, each buffer keeping its conflicts as they are held:
 * an interval group stays a group and compact conflicts stay compact, where a spread of the
 * buffers would read (and keep) every conflict list.
 */
import { asIntervalGroup } from '../conflicts';
import { ascending, compactPartOf, restrictCompact } from '../compactConflicts';
import { intervalGroupOf } from '../intervalConflicts';
import { BufferInfo, PoolInfo } from '../types';

/** `buffers`, buffer i with candidates `candidatesOf(i)`. */
export function withCandidates(buffers: readonly BufferInfo[], candidatesOf: (i: number) => readonly PoolInfo[]): BufferInfo[] {
  // asIntervalGroup reads the live ranges, not the lists.
  if (intervalGroupOf(buffers)) {
    return asIntervalGroup(buffers.map((b, i) => ({ name: b.name, sizeBytes: b.sizeBytes, alignment: b.alignment, kind: b.kind, liveRange: b.liveRange, poolCandidates: candidatesOf(i), conflicts: [] })));
  }
  const compact = compactPartOf(buffers);
  if (compact && ascending(compact.indices)) return restrictCompact(buffers, compact, (f, i) => ({ ...f, poolCandidates: candidatesOf(i) }));
  return buffers.map((b, i) => ({ ...b, poolCandidates: candidatesOf(i) }));
}

/** `pool` without its size limit. */
export function withoutLimit(pool: PoolInfo): PoolInfo {
  const open: { -readonly [K in keyof PoolInfo]: PoolInfo[K] } = { ...pool };
  delete open.sizeHintBytes;
  return open;
}
