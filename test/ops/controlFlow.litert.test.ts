/**
 * TFLite control flow against LiteRT (the real TensorFlow Lite runtime): a simple RNN as a
 * counter WHILE loop (float32 and int8, several trip counts, 0 included; weights in the body or passed through the loop as
 * the converter passes a Keras layer's), a loop in a loop, and IF with constant
 * and run-time conditions, imported by unrolling/inlining; the interpreter must match LiteRT
 * (float within a small relative tolerance, int8 within 1 LSB) and the lowered TIR the
 * interpreter byte for byte.
 */
import { describeAgainstLiteRt, LiteRtCase } from './liteRtComparison';
import { badAxis, ifModel, ifOn, nestedLoopModel, relu, rnnLoopModel, unreferencedSubgraph, zeroTrips } from '../frontend/controlFlowModels';
import { ModelFormatError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { runLiteRtBatch } from '../oracle/litert';
import { errorOf } from '../helpers/errorOf';

function cases(): LiteRtCase[] {
  const out: LiteRtCase[] = [];
  for (const dtype of ['float32', 'int8'] as const) {
    for (const steps of [0, 1, 5]) {
      const { model, inputs } = rnnLoopModel({ dtype, steps, rows: 5, seed: 3 + steps });
      out.push({ name: `WHILE: ${dtype} RNN over ${steps} steps`, model, inputs, outDtype: dtype });
    }
    const keras = rnnLoopModel({ dtype, steps: 4, weightsInMain: true });
    out.push({ name: `WHILE: ${dtype} RNN over 4 steps, weights passed through the loop`, ...keras, outDtype: dtype });
    for (const condition of [true, false, 'computed', 'runtime'] as const) {
      const { model, inputs } = ifModel({ dtype, condition });
      for (const s of condition === 'runtime' ? [-1, 1] : [0]) {
        out.push({ name: `IF: ${dtype}, condition ${condition}${condition === 'runtime' ? ` (s = ${s})` : ''}`, model, inputs: inputs(s), outDtype: dtype });
      }
    }
  }
  out.push({ name: 'WHILE in a WHILE body: 2 x 3 steps', model: nestedLoopModel(), inputs: [new Uint8Array(Float32Array.from([1, -2]).buffer)], outDtype: 'float32' });
  return out;
}

describeAgainstLiteRt('WHILE and IF against LiteRT', cases, { tolerance: { lsb: 1, rel: 1e-5, abs: 1e-6 }, varied: false });

/**
 * Code that never runs: LiteRT prepares the branch a constant IF does not take and the body of
 * a WHILE that runs 0 times, so an operator it cannot prepare there (CONCATENATION on axis 5 of
 * a rank-1 tensor) makes it refuse the file, and uma-ts refuses it too. A subgraph no operator
 * runs is not prepared when subgraph 0 runs (without a signature naming it), and uma-ts
 * compiles subgraph 0 alone, as LiteRT runs it.
 */
describe('code that never runs, against LiteRT', () => {
  const x = new Uint8Array(Float32Array.from([1, -2]).buffer);
  const refused = { 'untaken IF branch': ifOn(true, relu, badAxis), '0-trip WHILE body': zeroTrips(badAxis) };
  const unreferenced = unreferencedSubgraph(badAxis);
  let results: ReturnType<typeof runLiteRtBatch>;
  beforeAll(() => {
    results = runLiteRtBatch([...Object.values(refused), unreferenced].map((model) => ({ model, inputs: [x] })));
  });

  it.each(Object.entries(refused).map(([name, model], i) => [name, model, i] as const))('%s: both refuse', (_name, model, i) => {
    expect(results[i]).toEqual({ error: expect.stringContaining('concatenation') });
    expect(errorOf(() => importTflite(model, 'dead.tflite'))).toBeInstanceOf(ModelFormatError);
  });

  it('a subgraph nothing runs: both run subgraph 0', () => {
    const r = results[Object.keys(refused).length];
    if ('error' in r) throw new Error(r.error);
    expect(Buffer.from(r.outputs[0].data).equals(Buffer.from(interpret(importTflite(unreferenced, 'unref.tflite'), [x])[0]))).toBe(true);
  });
});
