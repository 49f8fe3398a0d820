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

  // ARG_MAX over int16: TFLite's kernel has no int16 case, so LiteRT fails to prepare the
  // node but still hands back an output buffer nobody wrote (heap left by earlier jobs).
  const a = new TfliteWriter();
  const ax = a.addInput({ name: 'x', shape: [3], dtype: 'int16', quant: { scale: [0.01], zeroPoint: [0] } });
  const axis = a.addConstant({ name: 'axis', shape: [1], dtype: 'int32', data: [0] });
  const az = a.addTensor({ name: 'z', shape: [], dtype: 'int32' });
  a.addOperator({ op: 'ARG_MAX', inputs: [ax, axis], outputs: [az], options: tfliteOptions.argMax() });
  a.markOutput(az);
  const argMaxInt16 = a.finish();
  const argMaxInput = new Uint8Array(Int16Array.of(5, 900, -3).buffer);

  const jobs = [
    { model: kws, inputs: [randomBytes(490, 1)] },
    { model: kws, inputs: [randomBytes(490, 2)] },
    { model: ad01, inputs: [randomBytes(640, 3)] },
    { model: adFloat, inputs: [floatInput] },
    { model: written, inputs: [new Uint8Array(new Float32Array([0, 1, 2, -3, -4, 5]).buffer)] },
    { model: kws, inputs: [new Uint8Array(3)] },
    { model: argMaxInt16, inputs: [argMaxInput] },
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

  it('a node LiteRT fails to prepare is an error of that job, in a batch and alone', () => {
    const alone = runLiteRtBatch([{ model: argMaxInt16, inputs: [argMaxInput] }])[0];
    for (const r of [results[6], alone]) {
      expect('error' in r && r.error).toMatch(/LiteRT failed to run the model: .*Node number 0 \(ARG_MAX\) failed to prepare/);
    }
    // Each error names its own job's LiteRT lines only.
    expect('error' in results[5] && results[5].error).not.toMatch(/ARG_MAX/);
  });

  it('tolerance checks fail on real differences', () => {
    expect(firstMismatch('int8', Int8Array.of(1, 2, 3) as unknown as Uint8Array, new Uint8Array(Int8Array.of(1, 4, 3).buffer))).toMatch(/element 1: 2 vs LiteRT's 4/);
    expect(firstMismatch('int8', new Uint8Array(Int8Array.of(1, 2).buffer), new Uint8Array(Int8Array.of(2, 1).buffer))).toBeNull();
    const f = (v: number[]) => new Uint8Array(new Float32Array(v).buffer);
    expect(firstMismatch('float32', f([1, 100]), f([1, 100.01]))).toMatch(/element 1/);
    expect(firstMismatch('float32', f([1, 100]), f([1, 100.0001]))).toBeNull();
  });
});
