/**
 * Orders kept with their inverse (`pos[order[k]] === k`): the searches' placement orders and the
 * exact core's list of unplaced buffers.
 */

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
