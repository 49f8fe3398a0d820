import * as fs from 'fs';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { DTYPE_BYTES } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';
import { buildApplication, fixedInput, runApplication } from './harness';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

describe('host-only end to end', () => {
  const registry = new BackendRegistry();
  registry.register(NothingBackend);
  for (const model of ['hello_world_int8', 'hello_world_float', 'person_detect']) {
    it(`${model}: generated C matches the interpreter byte for byte`, () => {
      const file = `models/${model}.tflite`;
      const result = compileModel(file, { backend: 'nothing', registry });
      const graph = loadTfliteFile(file);
      const inputs = result.inputs.map((s, i) => fixedInput(s.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[s.dtype], 7 + i));
      if (model.startsWith('hello_world_float')) {
        inputs[0] = new Uint8Array(new Float32Array([1.25]).buffer);
      }
      const expected = interpret(graph, inputs);
      const dir = buildApplication(result, inputs);
      const run = runApplication(dir, expected.map((e) => e.length));
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.outputs.map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
});
