/**
 * The alignment of a pool's array in the generated C (and of each concurrent model's part of a
 * shared pool): the pool's alignment rounded up to a power of two, at least 16, so that any
 * offset the plan aligned within the pool is aligned in memory too.
 */
export function poolBaseAlignment(alignment: number): number {
  let a = 16;
  while (a < alignment) a *= 2;
  return a;
}
