/**
 * Every elementwise operator, each supported dtype: the CPU lowering run by the TIR
 * evaluator agrees byte for byte with the reference interpreter (TFLite Micro semantics).
 */
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { elementwiseCases } from './elementwiseCases';

describe('elementwise operators: interpreter vs TIR evaluator', () => {
  it.each(elementwiseCases().map((c) => [c.label, c] as const))('%s', (_label, c) => {
    const reference = interpret(c.module, c.inputs);
    const lowered = runMain(lowerForCpu(c.module), c.inputs, { externs: LOWERING_EXTERN_SIMULATIONS });
    expect(Buffer.from(lowered[0]).equals(Buffer.from(reference[0]))).toBe(true);
    // Guard against vacuous agreement (everything one value).
    expect(new Set(reference[0]).size).toBeGreaterThan(1);
  });
});
