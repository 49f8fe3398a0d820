/**
 * Mersenne Twister MT19937 with CPython's seeding (`random.seed(n)` goes through init_by_array)
 * and CPython's `randint` (rejection sampling on getrandbits). The Vela-style search in `auto`
 * draws from it so that, with Vela's seed, it makes exactly the choices Vela's allocator makes.
 */
const STATE = 624;
const SHIFT = 397;
const UPPER = 0x80000000;
const LOWER = 0x7fffffff;
const MATRIX = 0x9908b0df;

export class Mt19937 {
  private readonly state = new Uint32Array(STATE);
  private next = STATE;

  /** Same stream as CPython's `random.seed(seed)` for an integer 0 <= seed < 2^32. */
  constructor(seed: number) {
    this.seedByKey([seed >>> 0]);
  }

  private seedLinear(s: number): void {
    const mt = this.state;
    mt[0] = s >>> 0;
    for (let i = 1; i < STATE; i++) mt[i] = (Math.imul(1812433253, mt[i - 1] ^ (mt[i - 1] >>> 30)) + i) >>> 0;
  }

  private seedByKey(key: readonly number[]): void {
    const mt = this.state;
    this.seedLinear(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(STATE, key.length); k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1664525)) + key[j] + j) >>> 0;
      if (++i >= STATE) {
        mt[0] = mt[STATE - 1];
        i = 1;
      }
      if (++j >= key.length) j = 0;
    }
    for (let k = STATE - 1; k > 0; k--) {
      mt[i] = ((mt[i] ^ Math.imul(mt[i - 1] ^ (mt[i - 1] >>> 30), 1566083941)) - i) >>> 0;
      if (++i >= STATE) {
        mt[0] = mt[STATE - 1];
        i = 1;
      }
    }
    mt[0] = UPPER;
    this.next = STATE;
  }

  private regenerate(): void {
    const mt = this.state;
    for (let k = 0; k < STATE; k++) {
      const y = (mt[k] & UPPER) | (mt[(k + 1) % STATE] & LOWER);
      mt[k] = (mt[(k + SHIFT) % STATE] ^ (y >>> 1) ^ (y & 1 ? MATRIX : 0)) >>> 0;
    }
    this.next = 0;
  }

  /** Next tempered 32-bit output. */
  uint32(): number {
    if (this.next >= STATE) this.regenerate();
    let y = this.state[this.next++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** Uniform integer in [lo, hi], both inclusive, drawn as CPython draws it (hi - lo < 2^32). */
  randint(lo: number, hi: number): number {
    const span = hi - lo + 1;
    const bits = 32 - Math.clz32(span);
    let r = this.uint32() >>> (32 - bits);
    while (r >= span) r = this.uint32() >>> (32 - bits);
    return lo + r;
  }
}
