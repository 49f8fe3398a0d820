import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { CallNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { expectRunsByteExact } from '../e2e/harness';
import { firstMismatch, runLiteRt } from '../oracle/litert';
import { DATA_MOVEMENT_CASES } from './dataMovementCases';
import { combinedTflite, Q8, randomInputs } from './tfliteModels';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

/** A backend that offloads nothing: every operator runs on the host CPU strategies. */
const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(VanillaBackend);

describe('data movement operators in generated C (gcc), byte-exact with the interpreter', () => {
  it('every case, all in one model, host only', () => {
    const model = importTflite(combinedTflite(DATA_MOVEMENT_CASES), 'combined');
    const inputs = DATA_MOVEMENT_CASES.flatMap((c, i) => randomInputs(c, 500 + i));
    const expected = interpret(model, inputs);
    expect(expected.length).toBe(DATA_MOVEMENT_CASES.reduce((s, c) => s + c.outputs.length, 0));
    const result = compileModel(model, { backend: 'host_only', registry });
    expectRunsByteExact(result, inputs, expected);
  });

  /**
   * x[1,4,4,6] → SPLIT(axis 3, 3 ways) → a, b, c; a + b → ADD → sum (output 0); c is a model
   * output as is (output 1); b → PAD → padded (output 2); a → CONV_2D → conv (output 3).
   */
  function splitConsumers(): Uint8Array {
    const w = new TfliteWriter();
    const q = Q8;
    const x = w.addInput({ name: 'x', shape: [1, 4, 4, 6], dtype: 'int8', quant: q });
    const axis = w.addConstant({ name: 'axis', shape: [], dtype: 'int32', data: [3] });
    const [a, b, c] = ['a', 'b', 'c'].map((name) => w.addTensor({ name, shape: [1, 4, 4, 2], dtype: 'int8', quant: q }));
    w.addOperator({ op: 'SPLIT', inputs: [axis, x], outputs: [a, b, c], options: tfliteOptions.split(3) });
    const sum = w.addTensor({ name: 'sum', shape: [1, 4, 4, 2], dtype: 'int8', quant: { scale: [0.08], zeroPoint: [2] } });
    w.addOperator({ op: 'ADD', inputs: [a, b], outputs: [sum], options: tfliteOptions.add() });
    const paddings = w.addConstant({ name: 'paddings', shape: [4, 2], dtype: 'int32', data: [0, 0, 1, 1, 1, 1, 0, 0] });
    const padded = w.addTensor({ name: 'padded', shape: [1, 6, 6, 2], dtype: 'int8', quant: q });
    w.addOperator({ op: 'PAD', inputs: [b, paddings], outputs: [padded] });
    const weights = w.addConstant({
      name: 'weights',
      shape: [4, 3, 3, 2],
      dtype: 'int8',
      quant: { scale: [0.02, 0.03, 0.01, 0.04], zeroPoint: [0, 0, 0, 0], axis: 0 },
      data: Array.from({ length: 72 }, (_, i) => ((i * 37) % 255) - 127),
    });
    const bias = w.addConstant({ name: 'bias', shape: [4], dtype: 'int32', quant: { scale: [0.001, 0.0015, 0.0005, 0.002] }, data: [10, -20, 30, -40] });
    const conv = w.addTensor({ name: 'conv', shape: [1, 2, 2, 4], dtype: 'int8', quant: { scale: [0.1], zeroPoint: [-5] } });
    w.addOperator({ op: 'CONV_2D', inputs: [a, weights, bias], outputs: [conv], options: tfliteOptions.conv2d({ padding: 'VALID', activation: 'RELU' }) });
    [sum, c, padded, conv].forEach((o) => w.markOutput(o));
    return w.finish();
  }

  it.each(['host_only', 'vanilla'])('split outputs feeding different consumers and a model output (%s)', (backend) => {
    const bytes = splitConsumers();
    const model = importTflite(bytes, 'split');
    const main = model.functions.get(MAIN_FUNCTION)!;
    const slices = main.nodes.filter((n): n is CallNode => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'strided_slice');
    expect(slices.map((s) => [s.name, s.attrs.tflite_operator, s.attrs.tflite_index, s.attrs.tflite_output])).toEqual([
      ['a', 'SPLIT', 0, 0],
      ['b', 'SPLIT', 0, 1],
      ['c', 'SPLIT', 0, 2],
    ]);
    const inputs = [new Uint8Array(Int8Array.from({ length: 96 }, (_, i) => ((i * 53) % 256) - 128).buffer)];
    const expected = interpret(model, inputs);
    const litert = runLiteRt(bytes, inputs);
    expected.forEach((e, k) => expect(firstMismatch('int8', e, litert[k].data)).toBeNull());
    const result = compileModel(model, { backend, registry });
    expectRunsByteExact(result, inputs, expected);
  });
});
