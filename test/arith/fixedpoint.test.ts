import { UnsupportedOperatorError } from '../../src/errors';
import {
  INT32_MAX,
  INT32_MIN,
  frexp,
  multiplyByQuantizedMultiplier,
  multiplyByQuantizedMultiplierGreaterThanOne,
  multiplyByQuantizedMultiplierSmallerThanOneExp,
  quantizeMultiplier,
  roundHalfAwayFromZero,
  roundingDivideByPOT,
  saturatingRoundingDoublingHighMul,
} from '../../src/arith/fixedpoint';

/** gemmlowp's definition transcribed with BigInt (C `/` truncates toward zero like BigInt `/`). */
function srdhmDefinition(a: number, b: number): number {
  if (a === INT32_MIN && b === INT32_MIN) return INT32_MAX;
  const ab = BigInt(a) * BigInt(b);
  const nudge = ab >= 0n ? 1n << 30n : 1n - (1n << 30n);
  return Number(BigInt.asIntN(32, (ab + nudge) / (1n << 31n)));
}

/** x / 2^e rounded to nearest with ties away from zero, in exact rational arithmetic. */
function rdbpotDefinition(x: number, e: number): number {
  const d = 1n << BigInt(e);
  const X = BigInt(x);
  const mag = X < 0n ? -X : X;
  const q = (2n * mag + d) / (2n * d); // floor(|x|/d + 1/2)
  return Number(X < 0n ? -q : q);
}

/** Deterministic int32 generator (xorshift) biased toward interesting magnitudes. */
function* int32s(seed: number, n: number): Generator<number> {
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    const bits = (s % 32) + 1;
    const v = s | 0;
    yield bits === 32 ? v : v >> (32 - bits);
  }
}

describe('frexp', () => {
  it('matches C frexp on exact cases', () => {
    expect(frexp(1)).toEqual({ fraction: 0.5, exponent: 1 });
    expect(frexp(0.5)).toEqual({ fraction: 0.5, exponent: 0 });
    expect(frexp(-3)).toEqual({ fraction: -0.75, exponent: 2 });
    expect(frexp(2 ** -1074)).toEqual({ fraction: 0.5, exponent: -1073 });
    expect(frexp(0)).toEqual({ fraction: 0, exponent: 0 });
  });
});

describe('roundHalfAwayFromZero', () => {
  it('rounds negative halves away from zero like std::round', () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(-2.4)).toBe(-2);
  });
});

describe('quantizeMultiplier', () => {
  it('encodes powers of two exactly', () => {
    expect(quantizeMultiplier(0.5)).toEqual({ multiplier: 2 ** 30, shift: 0 });
    expect(quantizeMultiplier(1)).toEqual({ multiplier: 2 ** 30, shift: 1 });
    expect(quantizeMultiplier(0.25)).toEqual({ multiplier: 2 ** 30, shift: -1 });
    expect(quantizeMultiplier(0)).toEqual({ multiplier: 0, shift: 0 });
  });
  it('applies the q == 2^31 fix-up', () => {
    // fraction 1 - 2^-33 times 2^31 is 2^31 - 1/4, which rounds to 2^31.
    expect(quantizeMultiplier(1 - 2 ** -33)).toEqual({ multiplier: 2 ** 30, shift: 1 });
  });
  it('rounds a negative significand tie away from zero', () => {
    // (0.5 + 2^-32) * 2^31 = 2^30 + 0.5
    expect(quantizeMultiplier(-(0.5 + 2 ** -32))).toEqual({ multiplier: -(2 ** 30 + 1), shift: 0 });
  });
  it('flushes shifts below -31 to zero and keeps -31', () => {
    expect(quantizeMultiplier(2 ** -40)).toEqual({ multiplier: 0, shift: 0 });
    expect(quantizeMultiplier(2 ** -32)).toEqual({ multiplier: 2 ** 30, shift: -31 });
  });
  it('refuses multipliers of 2^31 or more (a left shift of 32 or more, undefined in C), keeps shift 31', () => {
    // Fuzzed: an int8 MUL with an output scale 2^-32 of its inputs' product compiled, and the
    // generated C and the interpreter disagreed.
    expect(quantizeMultiplier(2 ** 30)).toEqual({ multiplier: 2 ** 30, shift: 31 });
    expect(() => quantizeMultiplier(2 ** 31)).toThrow(UnsupportedOperatorError);
    expect(() => quantizeMultiplier(1e28)).toThrow(/outside the 32-bit fixed-point range/);
  });
  it('reconstructs the real multiplier to Q31 precision', () => {
    for (const r of [0.0123, 0.7071, 1.5, 3.3e-5, 123.456]) {
      const { multiplier, shift } = quantizeMultiplier(r);
      expect(multiplier).toBeGreaterThanOrEqual(2 ** 30);
      expect(multiplier).toBeLessThan(2 ** 31);
      expect(Math.abs(multiplier * 2 ** (shift - 31) - r) / r).toBeLessThan(2 ** -30);
    }
  });
});

describe('saturatingRoundingDoublingHighMul', () => {
  it('saturates INT32_MIN * INT32_MIN only', () => {
    expect(saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MIN)).toBe(INT32_MAX);
    // -2^31 * (2^31 - 1) * 2 / 2^32 = -(2^31 - 1), exact
    expect(saturatingRoundingDoublingHighMul(INT32_MIN, INT32_MAX)).toBe(-INT32_MAX);
  });
  it('rounds ties upward (positive away from zero, negative toward zero)', () => {
    // 2 * 1 * 2^30 / 2^32 = 0.5 -> 1 ; -0.5 -> 0 ; -1.5 -> -1 ; 1.5 -> 2
    expect(saturatingRoundingDoublingHighMul(1, 2 ** 30)).toBe(1);
    expect(saturatingRoundingDoublingHighMul(-1, 2 ** 30)).toBe(0);
    expect(saturatingRoundingDoublingHighMul(-3, 2 ** 30)).toBe(-1);
    expect(saturatingRoundingDoublingHighMul(3, 2 ** 30)).toBe(2);
  });
  it('computes large products exactly', () => {
    expect(saturatingRoundingDoublingHighMul(2 ** 30, 2 ** 30)).toBe(2 ** 29);
    expect(saturatingRoundingDoublingHighMul(-(2 ** 30), 2 ** 30)).toBe(-(2 ** 29));
    expect(saturatingRoundingDoublingHighMul(INT32_MAX, INT32_MAX)).toBe(INT32_MAX - 1);
  });
  it('agrees with the BigInt definition on 20000 pairs', () => {
    const as = [...int32s(12345, 20000)];
    const bs = [...int32s(987654321, 20000)];
    for (let i = 0; i < as.length; i++) {
      const got = saturatingRoundingDoublingHighMul(as[i], bs[i]);
      if (got !== srdhmDefinition(as[i], bs[i])) {
        throw new Error(`SRDHM(${as[i]}, ${bs[i]}) = ${got}, expected ${srdhmDefinition(as[i], bs[i])}`);
      }
    }
  });
});

describe('roundingDivideByPOT', () => {
  it('rounds ties away from zero', () => {
    expect(roundingDivideByPOT(5, 1)).toBe(3);
    expect(roundingDivideByPOT(-5, 1)).toBe(-3);
    expect(roundingDivideByPOT(-1, 1)).toBe(-1);
    expect(roundingDivideByPOT(-3, 2)).toBe(-1);
    expect(roundingDivideByPOT(7, 0)).toBe(7);
  });
  it('handles exponent 31 at the int32 extremes', () => {
    expect(roundingDivideByPOT(INT32_MIN, 31)).toBe(-1);
    expect(roundingDivideByPOT(INT32_MAX, 31)).toBe(1);
    expect(roundingDivideByPOT(2 ** 30 - 1, 31)).toBe(0);
    expect(roundingDivideByPOT(2 ** 30, 31)).toBe(1);
    expect(roundingDivideByPOT(-(2 ** 30), 31)).toBe(-1);
  });
  it('agrees with exact rounding on many values and exponents', () => {
    let e = 0;
    for (const x of int32s(777, 20000)) {
      expect(roundingDivideByPOT(x, e)).toBe(rdbpotDefinition(x, e));
      e = (e + 7) % 32;
    }
  });
});

describe('multiplyByQuantizedMultiplier', () => {
  it('rounds twice, as TFLite does', () => {
    // 3 * 0.375: SRDHM(3, 2^30) = round(1.5) = 2, then 2 / 4 = 0.5 -> 1.
    expect(multiplyByQuantizedMultiplier(3, 2 ** 30, -2)).toBe(1);
    expect(multiplyByQuantizedMultiplier(100, 2 ** 30, -1)).toBe(25);
    expect(multiplyByQuantizedMultiplier(-100, 2 ** 30, -1)).toBe(-25);
  });
  it('applies a left shift before the multiply', () => {
    // 2^30 at shift 1 is 1.0; shift 3 multiplies by 4.
    expect(multiplyByQuantizedMultiplier(1000, 2 ** 30, 1)).toBe(1000);
    expect(multiplyByQuantizedMultiplier(1000, 2 ** 30, 3)).toBe(4000);
  });
  it('matches the composition of the BigInt definitions', () => {
    const xs = [...int32s(42, 5000)].map((v) => v >> 8);
    for (let i = 0; i < xs.length; i++) {
      const { multiplier, shift } = quantizeMultiplier(0.0001 + (i % 97) * 0.013);
      const left = shift > 0 ? shift : 0;
      const expected = rdbpotDefinition(srdhmDefinition(Math.imul(xs[i], 1 << left), multiplier), shift > 0 ? 0 : -shift);
      expect(multiplyByQuantizedMultiplier(xs[i], multiplier, shift)).toBe(expected);
    }
  });
  it('has the SmallerThanOneExp and GreaterThanOne forms', () => {
    expect(multiplyByQuantizedMultiplierSmallerThanOneExp(3, 2 ** 30, -2)).toBe(1);
    expect(multiplyByQuantizedMultiplierGreaterThanOne(1000, 2 ** 30, 3)).toBe(4000);
  });
});
