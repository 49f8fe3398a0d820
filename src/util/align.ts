/** `n` rounded up to a multiple of `alignment` (a positive integer). */
export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}
