/**
 * int8 operators at extreme scale ratios, against values computed with TensorFlow Lite
 * Micro's reference kernels (transcribed in the differential harness of the int8 campaign:
 * each expected vector is what TFLM's Prepare and reference kernel give for these bytes).
 * Each case also runs through the TIR evaluator and, batched, through gcc: byte for byte.
 */
import { tensorType } from '../../src/ir/graph/builder';
import { q } from '../lower/helpers';
import { expectCRunsByteExact, expectTirMatches, interpretCase, opCase, OpCase } from './opCases';

const i8 = (n: number, scale: number, zp: number) => tensorType([n], 'int8', q(scale, zp));
const bytes = (values: readonly number[]) => new Uint8Array(Int8Array.from(values).buffer);
const values = (b: Uint8Array) => Array.from(new Int8Array(b.buffer, b.byteOffset, b.length));

describe('HARD_SWISH int8 with an output multiplier exponent of -16 or less', () => {
  // reference/hard_swish.h: gemmlowp::RoundingDivideByPOT(preshift_output_value, -exponent)
  // on int16_t: (1ll << exponent) - 1 narrowed to int16 is -1 from exponent 16 on, so every
  // value >= 0 rounds to 1 and every value < 0 to -1.
  const input = [-128, -3, -1, 0, 1, 3, 64, 127];
  const cases: [string, OpCase, number[]][] = [
    // (1/128) / 1024 = 2^-17 = 0.5 * 2^-16: exponent -16
    ['input 1, output 1024', opCase('hs1024', 'hard_swish', i8(8, 1, 0), i8(8, 1024, 0), {}, { data: bytes(input) }), [1, 1, -1, 1, 1, 1, 1, 1]],
    // exponent -17, output zero point 5: 5 + 1 where TFLM's preshift value is 0 or more
    ['input 14.614739, output 18756.516 (zero points -50, -46)', opCase('hs18756', 'hard_swish', i8(8, 14.614739418029785, -50), i8(8, 18756.515625, -46), {}, { data: bytes(input) }), [-45, -45, -45, -45, -45, -45, -45, -45]],
  ];
  it.each(cases)('%s: as TFLite Micro', (_label, c, want) => {
    expect(values(interpretCase(c))).toEqual(want);
    expectTirMatches(c);
  });
  it('the generated C agrees', () => {
    expectCRunsByteExact(cases.map(([, c]) => c));
  });
});
