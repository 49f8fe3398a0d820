import * as fs from 'fs';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { DTYPE_BYTES, IRModule } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';
import { buildApplication, fixedInput, runApplication } from './harness';

/** A backend that offloads nothing: everything runs through the host CPU strategies. */
class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

function inputsFor(graph: IRModule, seed: number): Uint8Array[] {
  const main = graph.functions.get('main')!;
  return main.params.map((p, i) => {
    const t = main.nodes.find((n) => n.name === p)!.type;
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (t.dtype === 'float32') {
      // Inputs in the model's useful range: small reals, not random bit patterns.
      const f = new Float32Array(n);
      for (let k = 0; k < n; k++) f[k] = ((((k + 1) * 7919 + seed * 104729) % 2001) - 1000) / 500;
      return new Uint8Array(f.buffer);
    }
    return fixedInput(n * DTYPE_BYTES[t.dtype], seed + i);
  });
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
    const inputs = inputsFor(graph, 7);
    const expected = interpret(graph, inputs);
    const dir = buildApplication(result, inputs);
    try {
      const run = runApplication(dir, expected.map((e) => e.length));
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.outputs.map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
