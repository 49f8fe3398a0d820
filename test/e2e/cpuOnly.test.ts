import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { expectRunsByteExact, modelInputs } from './harness';

/** A backend that offloads nothing: everything runs through the host CPU strategies. */
class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}


const CASES: [string, string][] = [
  ['hello_world_int8', 'auto'],
  ['hello_world_float', 'auto'],
  ['simple_add_model', 'auto'],
  ['micro_speech_quantized', 'auto'],
  ['ad01_int8', 'auto'],
  ['vww_96_int8', 'auto'],
  ['person_detect', 'auto'],
  ['person_detect', 'greedy_by_size'],
  ['person_detect', 'greedy_by_conflicts'],
  ['person_detect', 'hill_climb'],
  ['kws_ref_model', 'auto'],
  ['kws_ref_model', 'greedy_by_conflicts'],
  ['pretrainedResnet_quant', 'hill_climb'],
];

describe('host-only end to end: generated C matches the interpreter byte for byte', () => {
  const registry = new BackendRegistry();
  registry.register(NothingBackend);
  it.each(CASES)('%s planned with %s', (model, algorithm) => {
    const file = `models/${model}.tflite`;
    const result = compileModel(file, { backend: 'nothing', registry, algorithm });
    // The plan is real: never below the liveness lower bound, never above no-reuse packing.
    for (const pool of result.report.pools.filter((p) => p.kind === 'workspace')) {
      const placed = result.report.buffers.filter((b) => b.pool === pool.name);
      const noReuse = placed.reduce((s, b) => s + Math.ceil(b.sizeBytes / 16) * 16, 0);
      expect(pool.sizeBytes).toBeGreaterThanOrEqual(pool.lowerBoundBytes);
      expect(pool.sizeBytes).toBeLessThanOrEqual(noReuse);
    }
    const graph = loadTfliteFile(file);
    const inputs = modelInputs(graph, 7);
    const expected = interpret(graph, inputs);
    expectRunsByteExact(result, inputs, expected);
  });
});
