/**
 * U4: model inputs and outputs planned inside the workspace pool. The application writes the
 * input through `map_inputs` pointers (here: run copies the app's buffers in and out), and
 * the result must still match the interpreter byte for byte.
 */
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

describe('I/O in the workspace', () => {
  it.each(['hello_world_int8', 'kws_ref_model'])('%s: inputs/outputs get pool offsets and the output is byte-exact', (model) => {
    const registry = new BackendRegistry();
    registry.register(NothingBackend);
    const file = `models/${model}.tflite`;
    const result = compileModel(file, { backend: 'nothing', registry, ioInWorkspace: true });
    expect(result.usmp.inputs.map((p) => p.pool)).toEqual(result.inputs.map(() => 'global_workspace'));
    expect(result.usmp.outputs).toHaveLength(result.outputs.length);
    const header = result.artifacts.files.find((f) => f.path.endsWith('tvmgen_default.h'))!.content;
    expect(header).toContain('tvmgen_default_map_inputs');
    const graph = loadTfliteFile(file);
    const main = graph.functions.get('main')!;
    const inputs = main.params.map((p, i) => {
      const t = main.nodes.find((n) => n.name === p)!.type;
      return fixedInput(t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype], 3 + i);
    });
    const expected = interpret(graph, inputs);
    const dir = buildApplication(result, inputs);
    try {
      const run = runApplication(dir, expected.map((e) => e.length));
      expect(run.status).toBe(0);
      expect(run.outputs.map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
