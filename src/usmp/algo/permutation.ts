/**
 * Orders kept with their inverse (`pos[order[k]] === k`): the searches' placement orders and the
 * exact core's list of unplaced buffers; and orders by value (the placement engine's collected
 * neighbours, a plan's buffers for the top's re-solve).
 */

/** Keys at or above this are not exact doubles. */
const MAX_EXACT_KEY = 2 ** 53;

/** Exchanges positions i and j of `order`, keeping `pos` its inverse. */
export function swapInPermutation(order: Int32Array, pos: Int32Array, i: number, j: number): void {
  if (i === j) return;
  const bi = order[i];
  const bj = order[j];
  order[i] = bj;
  order[j] = bi;
  pos[bj] = i;
  pos[bi] = j;
}

/** Exchanges entries i and j of `values` (a copy kept in step with a permutation). */
export function swapEntries(values: Float64Array | Int32Array, i: number, j: number): void {
  const v = values[i];
  values[i] = values[j];
  values[j] = v;
}

/**
 * The positions 0..m-1 of `values` in ascending value order, ties by position, into
 * `out.subarray(0, m)` (returned); `keys` is scratch of at least m. Whole values make each
 * (value, position) pair one exact number, value * scale + position, which sorts numerically
 * with no comparator called per pair (several times faster); otherwise a comparator sort.
 */
export function stableOrderByValue(values: ArrayLike<number>, m: number, keys: Float64Array, out: Int32Array): Int32Array {
  stableOrderInto(values, m, keys, out);
  return out.subarray(0, m);
}

/**
 * stableOrderByValue's order into out[0..m-1], returning `out` itself (its entries from m on
 * left as they were): the placement engine's row sorts, about 20,000 per cold plan, call this
 * and make no view of `out` each time.
 */
export function stableOrderInto(values: ArrayLike<number>, m: number, keys: Float64Array, out: Int32Array): Int32Array {
  if (orderByU32Keys(values, m, out)) return out;
  let scale = 1;
  while (scale < m) scale *= 2;
  const idx = out.subarray(0, m);
  let exact = true;
  for (let i = 0; i < m && exact; i++) exact = Number.isInteger(values[i]) && values[i] * scale < MAX_EXACT_KEY;
  if (exact) {
    const k = keys.subarray(0, m);
    for (let i = 0; i < m; i++) k[i] = values[i] * scale + i;
    k.sort();
    for (let s = 0; s < m; s++) idx[s] = k[s] - Math.floor(k[s] / scale) * scale;
    return out;
  }
  if (fitsWideKeys(values, m, scale)) orderByWideKeys(values, m, scale, idx);
  else {
    for (let i = 0; i < m; i++) idx[i] = i;
    idx.sort((x, y) => values[x] - values[y] || x - y);
  }
  return out;
}

/** Packed keys below this fit a Uint32Array. */
const U32_KEYS = 2 ** 32;

/**
 * Scratch for packed keys that fit 32 bits, grown as needed, and its views of each length
 * asked for (made once: a view per sort was about a sixth of a row sort's time). V8 sorts a
 * Uint32Array with std::sort's own compare, a Float64Array through a compare function called
 * per pair (for NaN and -0), about 2.3 times slower on 16-300 keys; the same keys, so the same
 * order. The placement engine's rows (offsets of a few MB, up to a few hundred entries), the
 * push-down's and the preorders' keys fit.
 */
let u32Keys = new Uint32Array(0);
let u32Views: Uint32Array[] = [];

/**
 * stableOrderInto's order into out[0..m-1] by packed 32-bit keys, when every value is whole,
 * at least 0 and packs with its position into 32 bits; false (out's entries then undefined)
 * otherwise.
 */
function orderByU32Keys(values: ArrayLike<number>, m: number, out: Int32Array): boolean {
  let scale = 1;
  while (scale < m) scale *= 2;
  if (u32Keys.length < m) {
    u32Keys = new Uint32Array(Math.max(m, 2 * u32Keys.length));
    u32Views = [];
  }
  // Whole values from 0 to this one pack with their positions into 32 bits: (value + 1) * scale <= 2^32.
  const greatest = U32_KEYS / scale - 1;
  const k32 = u32Keys;
  for (let i = 0; i < m; i++) {
    const v = values[i];
    if (!(v >= 0 && v <= greatest && Math.floor(v) === v)) return false;
    k32[i] = v * scale + i;
  }
  let view = u32Views[m];
  if (view === undefined) view = u32Views[m] = k32.subarray(0, m);
  view.sort();
  const low = scale - 1;
  for (let s = 0; s < m; s++) out[s] = k32[s] & low;
  return true;
}

/** Scratch of denseRanksDescending's order, grown as needed. */
let rankOrder = new Int32Array(0);

/** Scratch of orderByWideKeys, grown as needed. */
let wideKeys = new BigUint64Array(0);

/** Whether every value is a whole number, at least 0, whose packed key fits 64 bits. */
function fitsWideKeys(values: ArrayLike<number>, m: number, scale: number): boolean {
  const limit = 2 ** 64 / scale;
  for (let i = 0; i < m; i++) if (!(Number.isInteger(values[i]) && values[i] >= 0 && values[i] < limit)) return false;
  return true;
}

/**
 * The same order for values past a double's exact range (sizes near 2^47 make offsets that
 * large): the packed keys as 64-bit integers, which also sort natively, about four times
 * faster than the comparator sort (a fuzzed 2,000-buffer set spent 0.45 s in it).
 */
function orderByWideKeys(values: ArrayLike<number>, m: number, scale: number, idx: Int32Array): Int32Array {
  if (wideKeys.length < m) wideKeys = new BigUint64Array(Math.max(m, 2 * wideKeys.length));
  const k = wideKeys.subarray(0, m);
  const wideScale = BigInt(scale);
  for (let i = 0; i < m; i++) k[i] = BigInt(values[i]) * wideScale + BigInt(i);
  k.sort();
  for (let s = 0; s < m; s++) idx[s] = Number(k[s] % wideScale);
  return idx;
}

/**
 * The positions 0..n-1 by the first column, descending, ties by the next columns, then by
 * position: one sort by a composite key of dense ranks (stableOrderByValue's packed keys), with
 * no comparator called per pair. (The exact core's preorders: a comparator sort took about 2%
 * of a cold 2,000-buffer plan, 40 preorders, most of it before V8 had compiled the comparator.)
 * Keys that cannot be packed (the product of the columns' distinct counts past 2^53, or a NaN)
 * take a comparator sort, in the same order.
 */
export function orderByColumnsDescending(columns: readonly Float64Array[], n: number): Int32Array {
  const composite = new Float64Array(n);
  const rank = new Float64Array(n);
  let span = 1;
  for (const column of columns) {
    const distinct = denseRanksDescending(column, n, rank);
    span *= distinct;
    if (distinct < 0 || span > Number.MAX_SAFE_INTEGER) return orderByComparator(columns, n);
    addRanks(composite, n, rank, distinct);
  }
  return stableOrderByValue(composite, n, new Float64Array(n), new Int32Array(n));
}

/** composite = composite * radix + rank, per position. */
function addRanks(composite: Float64Array, n: number, rank: Float64Array, radix: number): void {
  for (let i = 0; i < n; i++) composite[i] = composite[i] * radix + rank[i];
}

/**
 * Into rank: each of values[0..n-1]'s place among the distinct values, the greatest 0 (equal
 * values share one). Returns the count of distinct values, or -1 when one is NaN.
 */
function denseRanksDescending(values: Float64Array, n: number, rank: Float64Array): number {
  if (rankOrder.length < n) rankOrder = new Int32Array(Math.max(n, 2 * rankOrder.length));
  // Values that pack into 32-bit keys: ranks read off their order in one pass, with no copy of
  // the values and no search per value (about 4,000 calls of 10-30 values per plan).
  if (orderByU32Keys(values, n, rankOrder)) {
    let count = 0;
    let previous = 0;
    for (let s = 0; s < n; s++) {
      const i = rankOrder[s];
      if (s === 0 || values[i] !== previous) {
        count++;
        previous = values[i];
      }
      rank[i] = count - 1;
    }
    for (let i = 0; i < n; i++) rank[i] = count - 1 - rank[i];
    return count;
  }
  const distinct = values.slice(0, n).sort();
  if (n > 0 && Number.isNaN(distinct[n - 1])) return -1;
  let count = 0;
  for (let i = 0; i < n; i++) if (count === 0 || distinct[i] !== distinct[count - 1]) distinct[count++] = distinct[i];
  for (let i = 0; i < n; i++) {
    const v = values[i];
    let lo = 0;
    let hi = count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (distinct[mid] < v) lo = mid + 1;
      else hi = mid;
    }
    rank[i] = count - 1 - lo;
  }
  return count;
}

/** orderByColumnsDescending's order by a comparator. */
function orderByComparator(columns: readonly Float64Array[], n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => {
    for (const k of columns) if (k[a] !== k[b]) return k[b] - k[a];
    return a - b;
  });
}
