import { readFileSync } from 'fs';
import { join } from 'path';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { seededRandom } from '../../src/util/random';
import { elementsOf, firstMismatch, runLiteRtBatch } from './litert';

const MODELS = join(__dirname, '..', '..', 'models');

function randomBytes(n: number, seed: number): Uint8Array {
  const rnd = seededRandom(seed);
  return Uint8Array.from({ length: n }, () => Math.floor(rnd() * 256));
}

describe('LiteRT oracle', () => {
  // One runner process for every case of this file.
  const kws = new Uint8Array(readFileSync(join(MODELS, 'kws_ref_model.tflite')));
  const ad01 = new Uint8Array(readFileSync(join(MODELS, 'ad01_int8.tflite')));
  const adFloat = new Uint8Array(readFileSync(join(MODELS, 'ad01_fp32.tflite')));
  const floatInput = new Uint8Array(new Float32Array(640).map((_, i) => Math.sin(i) * 3).buffer);

  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [2, 3], dtype: 'float32' });
  const c = w.addConstant({ name: 'c', shape: [3], dtype: 'float32', data: [1.5, -2, 0.25] });
  const y = w.addTensor({ name: 'y', shape: [2, 3], dtype: 'float32' });
  w.addOperator({ op: 'ADD', inputs: [x, c], outputs: [y], options: tfliteOptions.add('RELU') });
  w.markOutput(y);
  const written = w.finish();

  const jobs = [
    { model: kws, inputs: [randomBytes(490, 1)] },
    { model: kws, inputs: [randomBytes(490, 2)] },
    { model: ad01, inputs: [randomBytes(640, 3)] },
    { model: adFloat, inputs: [floatInput] },
    { model: written, inputs: [new Uint8Array(new Float32Array([0, 1, 2, -3, -4, 5]).buffer)] },
    { model: kws, inputs: [new Uint8Array(3)] },
  ];
  let results: ReturnType<typeof runLiteRtBatch>;
  beforeAll(() => {
    results = runLiteRtBatch(jobs);
  });

  it.each([0, 1, 2])('int8 bundled model (job %d) agrees with the uma-ts interpreter within 1 LSB', (i) => {
    const r = results[i];
    if ('error' in r) throw new Error(r.error);
    const mine = interpret(importTflite(jobs[i].model), jobs[i].inputs);
    expect(r.outputs.map((o) => o.dtype)).toEqual(mine.map(() => 'int8'));
    r.outputs.forEach((o, k) => expect(firstMismatch('int8', mine[k], o.data)).toBeNull());
  });

  it('float bundled model agrees with the interpreter within a small relative tolerance', () => {
    const r = results[3];
    if ('error' in r) throw new Error(r.error);
    const mine = interpret(importTflite(adFloat), [floatInput]);
    expect(r.outputs[0].shape).toEqual([1, 640]);
    expect(firstMismatch('float32', mine[0], r.outputs[0].data, { rel: 1e-4, abs: 1e-6 })).toBeNull();
  });

  it('runs a model built by the TfliteWriter', () => {
    const r = results[4];
    if ('error' in r) throw new Error(r.error);
    expect(r.outputs[0].shape).toEqual([2, 3]);
    expect(elementsOf('float32', r.outputs[0].data)).toEqual([1.5, 0, 2.25, 0, 0, 5.25]);
  });

  it('reports a bad input as an error of that job only', () => {
    const r = results[5];
    expect('error' in r && r.error).toMatch(/input 0 has 3 bytes, the model expects 490/);
  });

  it('tolerance checks fail on real differences', () => {
    expect(firstMismatch('int8', Int8Array.of(1, 2, 3) as unknown as Uint8Array, new Uint8Array(Int8Array.of(1, 4, 3).buffer))).toMatch(/element 1: 2 vs LiteRT's 4/);
    expect(firstMismatch('int8', new Uint8Array(Int8Array.of(1, 2).buffer), new Uint8Array(Int8Array.of(2, 1).buffer))).toBeNull();
    const f = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);
    expect(firstMismatch('float32', f([1, 100]), f([1, 100.01]))).toMatch(/element 1/);
    expect(firstMismatch('float32', f([1, 100]), f([1, 100.0001]))).toBeNull();
  });
});
