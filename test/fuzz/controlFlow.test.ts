/**
 * Fuzzing control-flow import: WHILE and IF models (an RNN loop, a loop in a loop, a run-time
 * IF) with bytes overwritten at random, and counter loops naming random subgraphs with random
 * trip counts. Importing must end quickly in a module or a UmaError (corrupt file, unsupported
 * uses), never another exception, a stack overflow or an endless loop.
 */
import fc from 'fast-check';
import { isUmaError, ModelFormatError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { accumulateLoop, ifModel, nestedLoopModel, rnnLoopModel } from '../frontend/controlFlowModels';
import { FUZZ_SEED } from './harness';

const MODELS: readonly Uint8Array[] = [rnnLoopModel({ dtype: 'int8', steps: 3 }).model, nestedLoopModel(), ifModel({ dtype: 'float32', condition: 'runtime' }).model];

/** The outcome of importing `bytes`: 'module' or the error's class; anything but a UmaError fails. */
function outcome(bytes: Uint8Array): string {
  const started = Date.now();
  try {
    importTflite(bytes, 'damaged.tflite');
    return 'module';
  } catch (e) {
    if (!isUmaError(e)) throw e;
    return e.constructor.name;
  } finally {
    expect(Date.now() - started).toBeLessThan(20000);
  }
}

describe('damaged control-flow models', () => {
  it('bytes overwritten: a module or a UmaError', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.nat(MODELS.length - 1), fc.array(fc.tuple(fc.nat(1 << 20), fc.nat(255)), { minLength: 1, maxLength: 3 }), (which, edits) => {
        const bytes = MODELS[which].slice();
        for (const [at, value] of edits) bytes[at % bytes.length] = value;
        seen.add(outcome(bytes));
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
    expect(seen).toContain('module');
    expect(seen).toContain(ModelFormatError.name);
  });

  it('random subgraph indices and trip counts: a module or a UmaError', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.integer({ min: -2, max: 4 }), fc.integer({ min: -2, max: 4 }), fc.oneof(fc.integer({ min: -3, max: 50 }), fc.integer({ min: 0, max: 40000 })), (cond, body, steps) => {
        seen.add(outcome(accumulateLoop({ steps, options: () => tfliteOptions.while({ cond, body }) })));
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    expect([...seen].sort()).toEqual(['module', ModelFormatError.name, UnsupportedOperatorError.name].sort());
  });
});
