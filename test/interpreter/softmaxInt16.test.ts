/**
 * TFLite Micro's int8 -> int16 softmax (output zero point -32768, scale 1/65536) and the
 * int16 -> int32 requantize that follows it in the keyword_scrambled models.
 */
import { runOp, q, t } from './helpers';

const INT16_OUT = q(1 / 65536, -32768);

function softmax16(rows: number[][], scale: number): number[] {
  const depth = rows[0].length;
  return runOp('softmax', [{ type: t([rows.length, depth], 'int8', q(scale, 0)), values: rows.flat() }], t([rows.length, depth], 'int16', INT16_OUT), {
    beta: 1,
  });
}

describe('softmax int8 -> int16', () => {
  it('equal logits split 1 exactly: 1/2 and 1/4 land on -32768 + 65536 * p', () => {
    // exp(0) is 1 - 2^-31 in Q0.31; a row of n equal values sums to n in Q12.19 and the
    // reciprocal rounds back to exactly 65536 / n.
    expect(softmax16([[5, 5]], 0.1)).toEqual([0, 0]);
    expect(softmax16([[-7, -7, -7, -7]], 0.1)).toEqual([-16384, -16384, -16384, -16384]);
  });

  it('one dominant logit saturates at 32767, the negligible ones sit at the zero point', () => {
    // With scale 1 the others are exp(-255): below diff_min, so exactly the output minimum.
    expect(softmax16([[127, -128, -128]], 1)).toEqual([32767, -32768, -32768]);
  });

  it('is within one step of the real softmax and keeps 8 more bits than the int8 output', () => {
    const rows = [
      [10, 20, 30, 40, -128, 127, 0, 0],
      [-3, -2, -1, 0, 1, 2, 3, 4],
    ];
    const scale = 0.1;
    const out16 = softmax16(rows, scale);
    const out8 = runOp('softmax', [{ type: t([2, 8], 'int8', q(scale, 0)), values: rows.flat() }], t([2, 8], 'int8', q(1 / 256, -128)), { beta: 1 });
    rows.forEach((row, r) => {
      const xs = row.map((v) => v * scale);
      const m = Math.max(...xs);
      const e = xs.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      e.forEach((v, c) => {
        const i = r * row.length + c;
        expect(Math.abs(out16[i] - Math.min(32767, (v / s) * 65536 - 32768))).toBeLessThanOrEqual(1);
        // Same pipeline, the final shift 8 bits shorter: the int8 value is the int16 one / 256.
        expect(Math.abs(out8[i] + 128 - (out16[i] + 32768) / 256)).toBeLessThanOrEqual(1);
      });
    });
    expect(new Set(out16).size).toBeGreaterThan(4);
  });

  it('rejects an int16 output quantized other than TFLite Micro requires', () => {
    expect(() =>
      runOp('softmax', [{ type: t([1, 2], 'int8', q(0.1, 0)), values: [1, 2] }], t([1, 2], 'int16', q(1 / 32768, 0)), { beta: 1 }),
    ).toThrow(/int16 output must have zero point -32768 and scale 1\/65536, got 0/);
  });

  it('accepts the converter scale 1/65535 (within TFLite Micro tolerance of 1/65536)', () => {
    const out = runOp('softmax', [{ type: t([1, 2], 'int8', q(0.1, 0)), values: [3, 3] }], t([1, 2], 'int16', q(1 / 65535, -32768)), { beta: 1 });
    expect(out).toEqual([0, 0]);
  });
});

describe('quantize int16 -> int32', () => {
  it('requantizes without an int16 clamp', () => {
    // real = q + 32768 in, 2 * real out: 0, 65536, 131070 (the last two beyond int16).
    const out = runOp('quantize', [{ type: t([3], 'int16', q(1, -32768)), values: [-32768, 0, 32767] }], t([3], 'int32', q(0.5, 0)));
    expect(out).toEqual([0, 65536, 131070]);
  });
});
