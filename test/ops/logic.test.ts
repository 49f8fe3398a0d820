/**
 * Comparisons, logical operators and SELECT_V2: the CPU lowering run by the TIR evaluator
 * agrees byte for byte with the reference interpreter (TFLite Micro semantics) on every case,
 * and all cases compiled into one program and built with strict gcc agree with it too.
 */
import fc from 'fast-check';
import { comparisonRescale, rescaleForComparison, rescaleIsStrictlyIncreasing } from '../../src/arith/comparison';
import { interpret } from '../../src/interpreter';
import { printModule } from '../../src/ir/tir/printer';
import { caseModule, expectCRunsByteExact, expectTirMatches, OpCase } from './opCases';
import { bytesOf, COMPARISON_OPS, logicCases, qt, tt } from './logicCases';
import { lowerForCpu } from '../lower/helpers';

const bool = (shape: number[]) => tt(shape, 'bool');

describe('comparisons, logical ops, select: interpreter vs TIR evaluator', () => {
  it.each(logicCases().map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const reference = expectTirMatches(c);
    // Both outcomes occur (bool), or several values (select), so agreement is not vacuous.
    expect(new Set(reference).size).toBeGreaterThan(1);
  });
});

describe('quantized comparison arithmetic (TFLM ComparisonWithScaling)', () => {
  it('rescales (x - zp) << 8 by the operand scale, as TFLM', () => {
    const r1 = comparisonRescale(Math.fround(0.5), -5);
    const r2 = comparisonRescale(Math.fround(0.25), 5);
    if (typeof r1 === 'string' || typeof r2 === 'string') throw new Error('rejected');
    // 7.0 in both: lhs stored 14 - 5 = 9, rhs stored 28 + 5 = 33; both rescale to 7 * 256.
    expect(rescaleForComparison(r1, 9)).toBe(7 * 256);
    expect(rescaleForComparison(r2, 33)).toBe(7 * 256);
  });

  it('rejects scales TFLM cannot turn into a multiplier below one', () => {
    expect(comparisonRescale(1, 0)).toMatch(/0 < scale < 1/);
    expect(comparisonRescale(2.5, 0)).toMatch(/0 < scale < 1/);
    expect(comparisonRescale(0, 0)).toMatch(/0 < scale < 1/);
    expect(comparisonRescale(Math.fround(0.99999999), 0)).toMatch(/0 < scale < 1/);
  });

  it('a tiny common scale makes distinct stored values compare equal, as TFLM (and the lowering keeps the rescale, as a table)', () => {
    const type = qt([8], 'int8', 2 ** -20, 0);
    const r = comparisonRescale(type.quant!.scale[0], 0);
    if (typeof r === 'string') throw new Error(r);
    expect(rescaleIsStrictlyIncreasing(r, 'int8')).toBe(false);
    const c: OpCase = {
      label: 'equal tiny scale',
      op: 'equal',
      input: type,
      moreInputs: [type],
      out: bool([8]),
      attrs: {},
      data: bytesOf(type, [1, 2, 3, 4, -1, -2, 100, -100]),
      moreData: [bytesOf(type, [0, 1, 3, 5, 1, 2, 0, 0])],
    };
    expect(Array.from(expectTirMatches(c))).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    const printed = printModule(lowerForCpu(caseModule([c])));
    // One table serves both operands (they share the rescale); no per-element arithmetic.
    expect(printed.match(/_rescaled/g)?.length).toBeGreaterThan(0);
    expect(printed).not.toContain('_lhs_rescaled');
    expect(printed).not.toContain('q_multiply_shift');
  });

  it('operands sharing an order-preserving quantization compare their stored values without arithmetic', () => {
    const type = qt([5], 'int8', 0.1, 3);
    const c: OpCase = { label: 'less same q', op: 'less', input: type, moreInputs: [type], out: bool([5]), attrs: {}, data: bytesOf(type, [-128, 0, 5, 127, 7]), moreData: [bytesOf(type, [-127, 0, 4, 127, 8])] };
    expect(Array.from(expectTirMatches(c))).toEqual([1, 0, 0, 0, 1]);
    expect(printModule(lowerForCpu(caseModule([c])))).not.toContain('q_multiply_shift');
  });
});

describe('quantized comparisons under random quantization', () => {
  it('the lowering (rescaled or direct) agrees with the interpreter for any scales and zero points', () => {
    const quant = fc.record({ scale: fc.double({ min: 2 ** -14, max: 0.99, noNaN: true }), zp: fc.integer({ min: -128, max: 127 }) });
    const op = fc.constantFrom(...COMPARISON_OPS);
    const values = fc.array(fc.integer({ min: -128, max: 127 }), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(op, quant, quant, fc.boolean(), values, values, (o, q1, q2, shared, a, b) => {
        const lhs = qt([12], 'int8', q1.scale, q1.zp);
        const rhs = shared ? lhs : qt([12], 'int8', q2.scale, q2.zp);
        const c: OpCase = { label: o, op: o, input: lhs, moreInputs: [rhs], out: bool([12]), attrs: {}, data: bytesOf(lhs, a), moreData: [bytesOf(rhs, b)] };
        expectTirMatches(c);
      }),
      { numRuns: 60, seed: 11 },
    );
  });
});

describe('interpreter semantics', () => {
  it('compares int64 exactly beyond 2^53', () => {
    const type = tt([3], 'int64');
    const big = 2n ** 60n;
    const lhs = new Uint8Array(BigInt64Array.from([big, big + 1n, -big]).buffer);
    const rhs = new Uint8Array(BigInt64Array.from([big + 1n, big + 1n, -big - 1n]).buffer);
    for (const [op, want] of [
      ['less', [1, 0, 0]],
      ['equal', [0, 1, 0]],
      ['greater', [0, 0, 1]],
    ] as const) {
      const c: OpCase = { label: op, op, input: type, moreInputs: [type], out: bool([3]), attrs: {}, data: lhs, moreData: [rhs] };
      expect(Array.from(interpret(caseModule([c]), [lhs, rhs])[0])).toEqual(want);
    }
  });

  it('select copies the chosen stored value, NaN and -0 included', () => {
    const f = tt([4], 'float32');
    const c: OpCase = {
      label: 'select',
      op: 'select',
      input: bool([4]),
      moreInputs: [f, f],
      out: f,
      attrs: {},
      data: bytesOf(bool([4]), [1, 0, 1, 0]),
      moreData: [bytesOf(f, [-0, 1, NaN, 3]), bytesOf(f, [9, -0, 7, 6])],
    };
    const out = new Float32Array(expectTirMatches(c).slice().buffer);
    expect(Object.is(out[0], -0)).toBe(true);
    expect(Object.is(out[1], -0)).toBe(true);
    expect(Number.isNaN(out[2])).toBe(true);
    expect(out[3]).toBe(6);
  });

  it('rejects an unsupported operand dtype with a one-line error naming the op', () => {
    const t = tt([2], 'int16');
    const c: OpCase = { label: 'less int16', op: 'less', input: t, moreInputs: [t], out: bool([2]), attrs: {}, data: bytesOf(t, [1, 2]), moreData: [bytesOf(t, [1, 2])] };
    expect(() => interpret(caseModule([c]), [c.data!, c.moreData![0]])).toThrow(/less 'y0': unsupported operand dtype int16 \(supported: float32, int8, int32, int64\)/);
  });
});

describe('comparisons, logical ops, select: generated C vs interpreter under gcc', () => {
  it('every case in one program, byte for byte (int64 beyond 2^53 included)', () => {
    const type = tt([4], 'int64');
    const big = 2n ** 62n;
    const int64Big: OpCase[] = COMPARISON_OPS.map((op) => ({
      label: `${op} int64 big`,
      op,
      input: type,
      moreInputs: [type],
      out: bool([4]),
      attrs: {},
      data: new Uint8Array(BigInt64Array.from([big, big + 1n, -big, 3n]).buffer),
      moreData: [new Uint8Array(BigInt64Array.from([big + 1n, big + 1n, -big - 1n, 3n]).buffer)],
    }));
    expectCRunsByteExact([...logicCases(), ...int64Big]);
  });
});
