/**
 * Unrolled WHILE loops and inlined IF through the whole compile pipeline and gcc, byte-exact
 * with the interpreter: the float32 and int8 RNN loops, a trip count of 0 (outputs that are
 * constants), a loop in a loop, and IF with a run-time condition (select); and a loop as large as
 * the unroll cap allows still compiles.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UnsupportedOperatorError } from '../../src/errors';
import { MAX_INLINED_OPERATORS } from '../../src/frontend/tflite/controlFlow';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { expectRunsByteExact } from '../e2e/harness';
import { ifModel, nestedLoopModel, rnnLoopModel } from '../frontend/controlFlowModels';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

function expectCompiledMatches(model: Uint8Array, inputs: Uint8Array[], name: string): void {
  const registry = new BackendRegistry();
  registry.register(HostOnlyBackend);
  const graph = importTflite(model, name);
  const expected = interpret(graph, inputs);
  expectRunsByteExact(compileModel(graph, { backend: 'host_only', registry }), inputs, expected);
}

describe('the unroll cap', () => {
  it('a loop as large as the cap allows compiles; one step more is refused', () => {
    // The RNN body has 6 operators: 1365 steps inline 8190.
    const steps = Math.floor(MAX_INLINED_OPERATORS / 6);
    const registry = new BackendRegistry();
    registry.register(HostOnlyBackend);
    const graph = importTflite(rnnLoopModel({ dtype: 'int8', steps, weightsInMain: true }).model, 'rnn_cap.tflite');
    expect(compileModel(graph, { backend: 'host_only', registry }).tir.functions.size).toBeGreaterThan(steps);
    expect(() => importTflite(rnnLoopModel({ dtype: 'int8', steps: steps + 1 }).model, 'rnn_cap.tflite')).toThrow(UnsupportedOperatorError);
  });
});

describe('control flow compiled and run under gcc', () => {
  it.each([
    ['float32', 6],
    ['int8', 6],
    ['float32', 0],
  ] as const)('%s RNN loop over %d steps', (dtype, steps) => {
    const { model, inputs } = rnnLoopModel({ dtype, steps, rows: 6 });
    expectCompiledMatches(model, inputs, `rnn_${dtype}_${steps}.tflite`);
  });

  it.each(['float32', 'int8'] as const)('%s RNN loop with its weights passed through the loop', (dtype) => {
    const { model, inputs } = rnnLoopModel({ dtype, steps: 4, weightsInMain: true });
    expectCompiledMatches(model, inputs, `rnn_keras_${dtype}.tflite`);
  });

  it('a loop in a loop', () => {
    expectCompiledMatches(nestedLoopModel(), [new Uint8Array(Float32Array.from([1, -2]).buffer)], 'nested.tflite');
  });

  it.each(['float32', 'int8'] as const)('%s IF with a run-time condition, both ways', (dtype) => {
    const { model, inputs } = ifModel({ dtype, condition: 'runtime' });
    for (const s of [-1, 1]) expectCompiledMatches(model, inputs(s), `if_${dtype}.tflite`);
  });
});
