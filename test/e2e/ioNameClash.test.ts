/**
 * Model I/O names that lowering makes the same C name ('in/x' and 'in_x' are both 'in_x';
 * the second param becomes 'in_x_1'): the placements of I/O planned in the workspace were
 * matched back to the model's tensors by name, so such a model failed to compile ("main takes
 * 0 model inputs/outputs but the model has 2 outside the workspace"), and a made-unique name
 * equal to another tensor's ('x:0', 'x_0', 'x_0_1') could name the wrong tensor. They are
 * matched by position now (main binds inputs then outputs in order).
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel, ioParamTensorNames } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { expectRunsByteExact } from './harness';

class HostOnly extends UmaBackend {
  readonly targetName = 'host_only';
}

/** Inputs 'in/x' [1, 4] and 'in_x' [1, 1]; outputs 'x:0' [1, 4], 'x_0' [1, 4] and 'x_0_1' [1, 1] ('x:0' also read inside). */
function clashingModel(): Uint8Array {
  const w = new TfliteWriter();
  const a = w.addInput({ name: 'in/x', shape: [1, 4], dtype: 'float32' });
  const b = w.addInput({ name: 'in_x', shape: [1, 1], dtype: 'float32' });
  const sum = w.addTensor({ name: 'x:0', shape: [1, 4], dtype: 'float32' });
  w.addOperator({ op: 'ADD', inputs: [a, b], outputs: [sum], options: tfliteOptions.add() });
  const prod = w.addTensor({ name: 'x_0', shape: [1, 4], dtype: 'float32' });
  w.addOperator({ op: 'MUL', inputs: [sum, a], outputs: [prod], options: tfliteOptions.mul() });
  const small = w.addTensor({ name: 'x_0_1', shape: [1, 1], dtype: 'float32' });
  w.addOperator({ op: 'MUL', inputs: [b, b], outputs: [small], options: tfliteOptions.mul() });
  [sum, prod, small].forEach((t) => w.markOutput(t));
  return w.finish();
}

describe('model I/O whose names clash once C-safe', () => {
  const registry = new BackendRegistry();
  registry.register(HostOnly);
  const graph = importTflite(clashingModel(), 'clash.tflite');
  const inputs = [new Uint8Array(Float32Array.of(1, -2, 3.5, 0.25).buffer), new Uint8Array(Float32Array.of(-1.5).buffer)];
  const expected = interpret(graph, inputs);

  it.each([false, true])('compiles and runs byte-exact (I/O in the workspace: %s)', (ioInWorkspace) => {
    const result = compileModel(graph, { backend: 'host_only', registry, ioInWorkspace });
    expectRunsByteExact(result, inputs, expected, ['-O0']);
  });

  it('places each tensor in a slot of its own size', () => {
    const result = compileModel(graph, { backend: 'host_only', registry, ioInWorkspace: true });
    const slots = (ps: typeof result.usmp.inputs) => ps.map((p) => [p.name, p.sizeBytes]);
    const meta = result.artifacts.metadata;
    expect(meta.inputs.map((t) => t.name)).toEqual(['in/x', 'in_x']);
    expect(slots(result.usmp.inputs)).toHaveLength(2);
    const names = ioParamTensorNames(result.tir, result);
    expect([...names.values()]).toEqual(['in/x', 'in_x', 'x:0', 'x_0', 'x_0_1']);
    const sizes = new Map([...result.inputs, ...result.outputs].map((s) => [s.name, s.shape.reduce((x, y) => x * y, 1) * 4]));
    for (const p of [...result.usmp.inputs, ...result.usmp.outputs]) {
      const tensor = names.get(p.name) ?? p.name;
      expect([tensor, p.sizeBytes]).toEqual([tensor, sizes.get(tensor)]);
    }
  });
});
