/**
 * Orders of buffer indices by several numeric keys, without a comparator. A typed-array sort
 * with a comparator calls back into JavaScript n log n times; in a fresh process those calls
 * run unoptimized at first, and `auto` sorts several orders per call (tens of ms cold on 2,000
 * buffers). Here every key is replaced by its dense rank and the ranks are folded into one
 * exact number, so each key costs a native numeric sort of n doubles. The order is the one a
 * comparator sort with the same keys gives: keys are compared exactly, ties fall to the index,
 * so the order is total and unique.
 */

/** One sort key: per index a finite number, and whether larger values come first. */
export interface SortKey {
  readonly values: ArrayLike<number>;
  readonly descending?: boolean;
}

/**
 * Indices 0..n-1 in lexicographic order of `keys` (most significant first), then by index,
 * ascending unless `indexDescending`.
 */
export function orderByKeys(n: number, keys: readonly SortKey[], indexDescending = false): Int32Array {
  // rank[i]: dense rank of i's keys so far (0 = first); `levels` distinct ranks.
  let rank = new Float64Array(n);
  let levels = 1;
  for (const key of keys) {
    const v = new Float64Array(n);
    signedValues(key.values, key.descending === true, v);
    const ranks = new Float64Array(n);
    const count = denseRanks(v, ranks);
    // Below n^2 <= 2^53 for any count of buffers a plan can hold: exact.
    fold(rank, count, ranks, v);
    rank = new Float64Array(n);
    levels = denseRanks(v, rank);
  }
  let scale = 1;
  while (scale < n) scale *= 2;
  const order = new Int32Array(n);
  if (levels * scale > 2 ** 53) comparatorOrder(rank, indexDescending, order);
  else packedOrder(rank, scale, indexDescending, order);
  return order;
}

/*
 * The passes below are small functions with nothing after their loops: V8 compiles long loops
 * on stack replacement, and such code that meets more after the loop is thrown away there; the
 * comparator sort, never used below 2^53, stays out of the compiled code of the others.
 */

/** values, negated when descending, into v (+ 0 turns -0 into 0, which a numeric sort would put apart). */
function signedValues(values: ArrayLike<number>, descending: boolean, v: Float64Array): void {
  for (let i = 0; i < v.length; i++) v[i] = (descending ? -values[i] : values[i]) + 0;
}

/** rank (count of values `count`) refined by ranks, into v. */
function fold(rank: Float64Array, count: number, ranks: Float64Array, v: Float64Array): void {
  for (let i = 0; i < v.length; i++) v[i] = rank[i] * count + ranks[i];
}

/** Indices by rank, then index, through one native sort of rank * scale + index. */
function packedOrder(rank: Float64Array, scale: number, indexDescending: boolean, order: Int32Array): void {
  const n = order.length;
  const packed = new Float64Array(n);
  for (let i = 0; i < n; i++) packed[i] = rank[i] * scale + (indexDescending ? n - 1 - i : i);
  packed.sort();
  for (let k = 0; k < n; k++) {
    const low = packed[k] % scale;
    order[k] = indexDescending ? n - 1 - low : low;
  }
}

function comparatorOrder(rank: Float64Array, indexDescending: boolean, order: Int32Array): void {
  for (let i = 0; i < order.length; i++) order[i] = i;
  order.sort((a, b) => rank[a] - rank[b] || (indexDescending ? b - a : a - b));
}

/**
 * Per entry of v, into `ranks`, the rank of its value among the distinct values (0 = smallest);
 * returns their count. (A number, not an object: the loops run on stack replacement, and code
 * compiled there that meets an object literal after them is thrown away at every call.)
 */
function denseRanks(v: Float64Array, ranks: Float64Array): number {
  const sorted = Float64Array.from(v).sort();
  let count = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[count++] = sorted[i];
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    let lo = 0;
    let hi = count - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    ranks[i] = lo;
  }
  return count;
}
