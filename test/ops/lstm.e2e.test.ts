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
  const spec = INT8_SPECS[1][1];
  const graph = importTflite(int8LstmModel(spec).bytes);
  const invocations = [0, 1, 2].map((k) => [int8LstmInput(spec, 40 + k)]);
  const session = createSession(graph);
  const expected = invocations.map((inputs) => session.invoke(inputs));

  it.each(['nothing', 'accel'])('target %s: every invocation byte-exact (uma_ref_lstm_int8)', (backend) => {
    const poolsFile = `backends/${backend}/pools.json`;
    const pools = fs.existsSync(poolsFile) ? parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile) : undefined;
    const result = compileModel(graph, { backend, registry, ...(pools ? { pools } : {}) });
    const got = runStreaming(result, invocations);
    got.forEach((outs, k) => expect(Array.from(outs[0])).toEqual(Array.from(expected[k][0])));
  });
});
