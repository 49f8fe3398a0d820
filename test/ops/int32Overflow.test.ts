/**
 * Unquantized int32 ADD, SUB, MUL, SQUARED_DIFFERENCE, NEG and ABS on values whose results
 * pass int32: TFLite's C++ wraps them in practice and the interpreter wraps (`| 0`,
 * `Math.imul`); the generated C must wrap too instead of overflowing a signed int (undefined
 * behaviour; the operator fuzz campaign's UBSan runs found `a - b` and `a * b` plain in the C).
 * Built under UBSan, the program must run cleanly and give the interpreter's bytes.
 */
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { interpret } from '../../src/interpreter';
import { tensorType } from '../../src/ir/graph/builder';
import { runCompiled } from '../../src/verify/runCompiled';
import { int32Bytes } from '../lower/helpers';
import { caseInputs, caseModule, expectTirMatches, opCase } from './opCases';

const MIN = -2147483648;
const MAX = 2147483647;
const t = tensorType([6], 'int32');
const A = [MAX, MIN, MIN, 2000000000, -75038560, MIN];
const B = [1, 1, -1, 3, -1991683141, MAX];
const bin = (op: string, attrs: Record<string, unknown> = { activation: 'NONE' }) =>
  opCase(`${op} int32`, op, t, t, attrs, { data: int32Bytes(A), moreInputs: [t], moreData: [int32Bytes(B)] });
const CASES = [
  bin('add'),
  bin('sub'),
  bin('mul'),
  bin('squared_difference', {}),
  opCase('neg int32', 'neg', t, t, {}, { data: int32Bytes(A) }),
  opCase('abs int32', 'abs', t, t, {}, { data: int32Bytes(A) }),
];
const wrap = (v: bigint): number => Number(BigInt.asIntN(32, v));
const big = (v: number): bigint => BigInt(v);
/** The int32 results, wrapped modulo 2^32, computed here in BigInt. */
const EXPECTED: Record<string, number[]> = {
  add: A.map((a, i) => wrap(big(a) + big(B[i]))),
  sub: A.map((a, i) => wrap(big(a) - big(B[i]))),
  mul: A.map((a, i) => wrap(big(a) * big(B[i]))),
  squared_difference: A.map((a, i) => {
    const d = wrap(big(a) - big(B[i]));
    return wrap(big(d) * big(d));
  }),
  neg: A.map((a) => wrap(-big(a))),
  abs: A.map((a) => wrap(a < 0 ? -big(a) : big(a))),
};

describe('int32 arithmetic that passes int32', () => {
  it.each(CASES.map((c) => [c.label, c] as const))('%s wraps modulo 2^32 in the interpreter and the TIR evaluator', (_label, c) => {
    const out = Array.from(new Int32Array(expectTirMatches(c).slice().buffer));
    expect(out).toEqual(EXPECTED[c.op]);
  });

  it('the generated C wraps them too, without signed overflow (UBSan)', () => {
    const registry = new BackendRegistry();
    registry.register(VanillaBackend);
    const module = caseModule(CASES);
    const inputs = CASES.flatMap((c) => caseInputs(c, 1));
    const expected = interpret(module, inputs);
    const result = compileModel(module, { backend: 'vanilla', registry, timeBudgetMs: 50 });
    const run = runCompiled(result.artifacts, { invocations: [inputs], cflags: ['-Werror', '-fsanitize=undefined', '-fno-sanitize-recover=all'] });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    run.outputs[0].forEach((o, k) => expect(Array.from(o)).toEqual(Array.from(expected[k])));
  });
});
