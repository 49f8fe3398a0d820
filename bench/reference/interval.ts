/** The input both reference planners take: a buffer alive over inclusive operator indices. */
export interface RefInterval {
  readonly size: number;
  readonly first: number;
  readonly last: number;
  readonly alignment: number;
}

/** Offsets by interval index, and the arena size (highest end). */
export interface RefPlan {
  readonly offsets: number[];
  readonly arenaBytes: number;
}

export function arenaOf(intervals: readonly RefInterval[], offsets: readonly number[]): number {
  let m = 0;
  intervals.forEach((iv, i) => (m = Math.max(m, offsets[i] + iv.size)));
  return m;
}
