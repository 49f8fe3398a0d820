/**
 * int64BiasRequantize against the int64 arithmetic written out on bigints: sum + bias wrapped
 * modulo 2^64, times the Q15 multiplier plus the rounding bit wrapped modulo 2^64, shifted,
 * wrapped to int32. Biases around 2^53 (where the double path must hand over to bigints)
 * and the int64 ends (where the add and the product wrap).
 */
import { int64BiasRequantize } from '../../src/arith/int64Bias';

function reference(sum: number, bias: bigint, multiplier: number, shift: number): number {
  const reduced = BigInt(multiplier < 0x7fff0000 ? (multiplier + 32768) >> 16 : 0x7fff);
  const totalShift = BigInt(15 - shift);
  const acc = BigInt.asIntN(64, BigInt(sum) + bias);
  return Number(BigInt.asIntN(32, BigInt.asIntN(64, acc * reduced + (1n << (totalShift - 1n))) >> totalShift));
}

const P53 = 2n ** 53n;
const P63 = 2n ** 63n;
const biases = [0n, 1n, -1n, P53 - 1n, P53, P53 + 1n, -P53 + 1n, -P53, -P53 - 1n, P63 - 1n, P63 - 1000n, -P63, -P63 + 1001n, 123456789012345n];
const sums = [0, 1, -1, 999, -999, 2 ** 30 + 7, -(2 ** 30) - 7, 2 ** 52 - 3, -(2 ** 52) + 3];
const scales = [
  [1 << 30, 0],
  [1518500250, -3],
  [0x7fffffff, 7],
  [1073741824, -20],
] as const;

describe('int64BiasRequantize', () => {
  it.each(biases.map((b) => [b.toString(), b]))('bias %s: every sum and scale as the wrapped int64 arithmetic', (_label, bias) => {
    const requantize = int64BiasRequantize(BigInt64Array.of(bias as bigint));
    for (const sum of sums)
      for (const [m, s] of scales) expect([sum, m, s, requantize(sum, 0, m, s)]).toEqual([sum, m, s, reference(sum, bias as bigint, m, s)]);
  });

  it('reads the bias of the channel it is given; no bias and an int16 bias add nothing or exactly', () => {
    const perChannel = int64BiasRequantize(BigInt64Array.of(5n, P63 - 1000n));
    expect(perChannel(0, 0, 1 << 30, 0)).toBe(reference(0, 5n, 1 << 30, 0));
    expect(perChannel(0, 1, 1 << 30, 0)).toBe(-500);
    expect(int64BiasRequantize(undefined)(-6, 0, 1 << 30, -1)).toBe(-1);
    expect(int64BiasRequantize(Int16Array.of(-32768))(1000, 0, 1 << 30, 0)).toBe(reference(1000, -32768n, 1 << 30, 0));
  });
});
