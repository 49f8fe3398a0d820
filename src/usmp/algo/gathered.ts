/**
 * values[at[i]] for each i, as a new Float64Array: what `Float64Array.from(at, (b) => values[b])`
 * gives, without its iteration. TypedArray.from walks an array or typed array source through
 * its iterator and calls the mapping per element: in a cold plan that code mostly runs
 * unoptimized, and allocated an iterator result per element (about 10 MB per 2,000-buffer plan
 * from the exact core's regions and preorders).
 */
export function gathered(values: ArrayLike<number>, at: ArrayLike<number>): Float64Array {
  const out = new Float64Array(at.length);
  for (let i = 0; i < at.length; i++) out[i] = values[at[i]];
  return out;
}
