/**
 * int8 SOFTMAX over rows whose sum of exps reaches 512: at least 512 logits near the row's
 * maximum (a 1,000-class head on a blank image). TFLite Micro's final shift then passes 31,
 * which its kernel leaves undefined; the value shifted is below 2^31, so every probability
 * rounds to 0 and the output is its minimum, as LiteRT gives. A run used to fail there
 * ("reciprocal exponent 32 out of range"; the C kernel returned an error).
 */
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { i8, int8Bytes } from '../lower/helpers';
import { describeAgainstLiteRt } from './liteRtComparison';
import { expectCRunsByteExact, expectTirMatches, interpretCase, opCase, OpCase } from './opCases';

const PROBABILITIES = { scale: 1 / 256, zp: -128 };

/** Rows of `depth` logits: flat ones, a flat one with a few higher, and an ordinary one. */
function rows(depth: number): number[] {
  const flat = Array.from({ length: depth }, () => 20);
  const fewHigh = flat.map((v, i) => (i < 3 ? 23 : v));
  const ordinary = Array.from({ length: depth }, (_, i) => ((i * 37) % 200) - 100);
  return [...flat, ...fewHigh, ...ordinary];
}

const wide = (label: string, depth: number): OpCase =>
  opCase(label, 'softmax', i8([3, depth], 0.1, 0), i8([3, depth], PROBABILITIES.scale, PROBABILITIES.zp), { beta: 1 }, { data: int8Bytes(rows(depth)) });

const CASES = [wide('1000 classes', 1000), wide('600 classes', 600), wide('511 classes (below the limit)', 511)];

describe('int8 softmax over rows whose sum of exps reaches 512', () => {
  it('flat rows give the minimum everywhere, where fewer classes give a step above it', () => {
    const out = (depth: number) => Int8Array.from(interpretCase(wide('', depth)));
    const thousand = out(1000);
    expect(thousand.subarray(0, 1000).every((v) => v === -128)).toBe(true);
    // 3 logits 0.3 above the rest: each about 1.35/1,004 of the sum, 0.34 of a step.
    expect(thousand.subarray(1000, 2000).every((v) => v === -128)).toBe(true);
    // The ordinary row keeps its probabilities (few logits near its maximum).
    expect(Math.max(...thousand.subarray(2000))).toBeGreaterThan(-128);
    // 511 flat logits: each 256/511 of a step, rounded up.
    expect(out(511).subarray(0, 511).every((v) => v === -127)).toBe(true);
  });

  it.each(CASES.map((c, i) => [c.label, c, i] as const))('lowered TIR matches the interpreter: %s', (_label, c, i) => {
    expectTirMatches(c, 300 + i);
  });

  it('the generated C matches the interpreter', () => {
    expectCRunsByteExact(CASES);
  });
});

describeAgainstLiteRt(
  'int8 softmax over wide flat rows against LiteRT',
  () =>
    [1000, 600].map((depth) => {
      const w = new TfliteWriter();
      const x = w.addInput({ name: 'logits', shape: [3, depth], dtype: 'int8', quant: { scale: [0.1], zeroPoint: [0] } });
      const y = w.addTensor({ name: 'probs', shape: [3, depth], dtype: 'int8', quant: { scale: [PROBABILITIES.scale], zeroPoint: [PROBABILITIES.zp] } });
      w.addOperator({ op: 'SOFTMAX', inputs: [x], outputs: [y], options: tfliteOptions.softmax(1) });
      w.markOutput(y);
      return { name: `${depth} classes`, model: w.finish(), inputs: [int8Bytes(rows(depth))], outDtype: 'int8' };
    }),
  { tolerance: { lsb: 1 }, varied: true },
);
