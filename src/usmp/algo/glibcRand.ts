/**
 * glibc's rand_r(): TVM's hill climb draws from `rand_r(&seed)` with seed 0 on Linux, so this
 * generator is what makes our hill_climb plans match TVM's. Three LCG steps, 11+10+10 bits.
 */
export class GlibcRandR {
  private state: number;

  constructor(seed = 0) {
    this.state = seed >>> 0;
  }

  /** Next value in [0, 2^31), exactly as rand_r returns it. */
  next(): number {
    let s = this.state;
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    let result = (s >>> 16) % 2048;
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    result = (result << 10) ^ ((s >>> 16) % 1024);
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    result = (result << 10) ^ ((s >>> 16) % 1024);
    this.state = s;
    return result;
  }
}
