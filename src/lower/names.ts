/** Names the lowering gives TIR functions and buffers. */

/** A C-identifier-safe fragment of a graph name (TFLite tensor names contain ':' and '/'). */
export function sanitizeName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

/** Hands out `base`, `base_1`, `base_2`, ... (TVM's fused-function numbering). */
export class NameSupply {
  private readonly used = new Map<string, number>();

  fresh(base: string): string {
    const n = this.used.get(base);
    if (n === undefined) {
      this.used.set(base, 1);
      return base;
    }
    let k = n;
    while (this.used.has(`${base}_${k}`)) k++;
    this.used.set(base, k + 1);
    this.used.set(`${base}_${k}`, 1);
    return `${base}_${k}`;
  }
}
