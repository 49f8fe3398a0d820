/**
 * The largest of `values`, or `floor` when there are none (or all are below it). For per-buffer
 * and per-row lists: `Math.max(...list)` passes every entry as an argument and overflows the
 * call stack past about a hundred thousand of them (a 1,000,000-buffer plan's table did).
 */
export function maxOf(values: Iterable<number>, floor = -Infinity): number {
  let max = floor;
  for (const v of values) if (v > max) max = v;
  return max;
}
