/** Binary searches over ascending Float64Arrays (live-range ends and starts). */

/** Number of entries of sorted `a` that are <= t (the upper bound of t). */
export function countAtMost(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of entries of sorted `a` that are < t (the lower bound of t). */
export function countBelow(a: Float64Array, t: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
