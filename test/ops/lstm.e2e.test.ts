/**
 * A float LSTM keyword model (UNIDIRECTIONAL_SEQUENCE_LSTM with variable state -> RESHAPE ->
 * FULLY_CONNECTED -> SOFTMAX, built with the TFLite writer) compiled host-only and with every
 * bundled backend registered as the target, run under gcc over several invocations of one
 * loaded program: every output byte equals an interpreter session's, so the persistent
 * output/cell state carries over exactly.
 */
import * as fs from 'fs';
import { registerExampleBackends } from '../../backends';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { createSession } from '../../src/interpreter';
import { parsePoolsJson } from '../../src/usmp/pools';
import { runStreaming } from '../e2e/streamingHarness';
import { lstmInput, lstmModel, LstmModelSpec } from './lstmModels';
import { INT8_SPECS, int8LstmInput, int8LstmModel } from './lstmInt8Models';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

const KWS: LstmModelSpec = { time: 5, batch: 1, inputSize: 8, units: 6, cellClip: 3, classes: 4, seed: 70 };

describe('LSTM keyword model in generated C, streaming', () => {
  const registry = new BackendRegistry();
  registry.register(NothingBackend);
  registerExampleBackends(registry);
  const graph = importTflite(lstmModel(KWS));
  const invocations = [0, 1, 2, 3].map((k) => [lstmInput(KWS, 90 + k)]);
  const session = createSession(graph);
  const expected = invocations.map((inputs) => session.invoke(inputs));

  it('the interpreter session is not trivially constant', () => {
    expect(new Set(expected.map((o) => Array.from(o[0]).join(','))).size).toBe(invocations.length);
  });

  it.each(['nothing', 'vanilla', 'accel', 'dma_local'])('target %s: every invocation byte-exact', (backend) => {
    // accel and dma_local ship (internal) pools the backends' constraints name.
    const poolsFile = `backends/${backend}/pools.json`;
    const pools = fs.existsSync(poolsFile) ? parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile) : undefined;
    const result = compileModel(graph, { backend, registry, ...(pools ? { pools } : {}) });
    const got = runStreaming(result, invocations);
    got.forEach((outs, k) => expect(Array.from(outs[0])).toEqual(Array.from(expected[k][0])));
  });
});

describe('int8 LSTM (int16 cell state) in generated C, streaming', () => {
  const registry = new BackendRegistry();
  registry.register(NothingBackend);
  registerExampleBackends(registry);
  const run = (graph: ReturnType<typeof importTflite>, backend: string, invocations: Uint8Array[][], offloaded = false): void => {
    const session = createSession(graph);
    const expected = invocations.map((inputs) => session.invoke(inputs));
    expect(new Set(expected.map((o) => Array.from(o[0]).join(','))).size).toBeGreaterThan(1);
    const poolsFile = `backends/${backend}/pools.json`;
    const pools = fs.existsSync(poolsFile) ? parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile) : undefined;
    const result = compileModel(graph, { backend, registry, ...(pools ? { pools } : {}) });
    const targets = new Set([...result.tir.functions.values()].map((f) => f.attrs.target));
    expect(targets.has(backend)).toBe(offloaded);
    const got = runStreaming(result, invocations);
    got.forEach((outs, k) => expect(Array.from(outs[0])).toEqual(Array.from(expected[k][0])));
  };

  // A keyword model: int8 LSTM -> RESHAPE -> FULLY_CONNECTED (vanilla offloads it) -> SOFTMAX.
  const kws = { ...INT8_SPECS[1][1], time: 4, batch: 1, classes: 5 };
  it.each(['nothing', 'vanilla'])('keyword model, target %s: every invocation byte-exact', (backend) => {
    run(importTflite(int8LstmModel(kws).bytes), backend, [0, 1, 2, 3].map((k) => [int8LstmInput(kws, 40 + k)]), backend === 'vanilla');
  });

  // 16x8: int16 activations and states, int64 biases (uma_ref_lstm_int16).
  it('16x8 LSTM, host: every invocation byte-exact', () => {
    const spec = { ...INT8_SPECS[0][1], activation: 'int16' as const, inputScale: 1 / 32767, hiddenScale: 1 / 32768, hiddenZeroPoint: 0 };
    run(importTflite(int8LstmModel(spec).bytes), 'nothing', [0, 1, 2].map((k) => [int8LstmInput(spec, 60 + k)]));
  });

  // accel and dma_local run the LSTM on the host with their own pools (nothing to offload).
  it.each(['accel', 'dma_local'])('LSTM alone, target %s: every invocation byte-exact', (backend) => {
    const spec = INT8_SPECS[1][1];
    run(importTflite(int8LstmModel(spec).bytes), backend, [0, 1, 2].map((k) => [int8LstmInput(spec, 50 + k)]));
  });
});
