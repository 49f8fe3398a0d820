/**
 * Seeded random inputs of a model whose integer inputs are indices (token ids of a keyword
 * or transformer model): random bits were out of range, so `uma-ts run` / `verifyModel` of
 * such a model stopped at the interpreter's "index is outside" error. Index inputs now draw
 * values within the axis they index; other integer inputs keep any bit pattern.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { verifyModel } from '../../src';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { indexInputBounds } from '../../src/verify/indexInputs';
import { randomInvocations } from '../../src/verify/inputs';
import { ioSpecs } from '../../src/driver/compile';
import { runCli } from '../helpers/cli';

/** GATHER (int32 ids, axis 0 of 7 rows; int64 indices, axis 1 of 5), EMBEDDING_LOOKUP (6 rows), GATHER_ND (3 x 4 leading axes), and a plain int32 ADD input. */
function indexingModel(): Uint8Array {
  const w = new TfliteWriter();
  const f32 = (name: string, shape: number[]) => w.addTensor({ name, shape, dtype: 'float32' });
  const table = (name: string, shape: number[]) =>
    w.addConstant({ name, shape, dtype: 'float32', data: new Float32Array(shape.reduce((a, b) => a * b, 1)).map((_, i) => i * 0.5 - 3) });
  const ids = w.addInput({ name: 'ids', shape: [2, 3], dtype: 'int32' });
  const cols = w.addInput({ name: 'cols', shape: [4], dtype: 'int64' });
  const lookup = w.addInput({ name: 'lookup', shape: [5], dtype: 'int32' });
  const nd = w.addInput({ name: 'nd', shape: [3, 2], dtype: 'int32' });
  const counts = w.addInput({ name: 'counts', shape: [4], dtype: 'int32' });
  const g1 = f32('g1', [2, 3, 2]);
  w.addOperator({ op: 'GATHER', inputs: [table('t1', [7, 2]), ids], outputs: [g1], options: tfliteOptions.gather(0) });
  const g2 = f32('g2', [2, 4]);
  w.addOperator({ op: 'GATHER', inputs: [table('t2', [2, 5]), cols], outputs: [g2], options: tfliteOptions.gather(-1) });
  const g3 = f32('g3', [5, 2]);
  w.addOperator({ op: 'EMBEDDING_LOOKUP', inputs: [lookup, table('t3', [6, 2])], outputs: [g3] });
  const g4 = f32('g4', [3, 2]);
  w.addOperator({ op: 'GATHER_ND', inputs: [table('t4', [3, 4, 2]), nd], outputs: [g4] });
  const sum = w.addTensor({ name: 'sum', shape: [4], dtype: 'int32' });
  w.addOperator({ op: 'ADD', inputs: [counts, counts], outputs: [sum], options: tfliteOptions.add() });
  [g1, g2, g3, g4, sum].forEach((t) => w.markOutput(t));
  return w.finish();
}

describe('random inputs of index inputs', () => {
  const bytes = indexingModel();
  const graph = importTflite(bytes, 'indexing.tflite');

  it('finds the inputs read as indices and the rows each may address', () => {
    expect(Object.fromEntries(indexInputBounds(graph))).toEqual({ ids: 7, cols: 5, lookup: 6, nd: 3 });
  });

  it('draws index inputs within their bound (int32 and int64), other integers over every bit pattern', () => {
    const specs = ioSpecs(graph).inputs;
    const [run] = randomInvocations(specs, 5, 1, indexInputBounds(graph));
    const ids = Array.from(new Int32Array(run[0].slice().buffer));
    const cols = Array.from(new BigInt64Array(run[1].slice().buffer), Number);
    expect(ids.every((v) => v >= 0 && v < 7)).toBe(true);
    expect(new Set(ids).size).toBeGreaterThan(1);
    expect(cols.every((v) => v >= 0 && v < 5)).toBe(true);
    expect(Array.from(new Int32Array(run[2].slice().buffer)).every((v) => v >= 0 && v < 6)).toBe(true);
    expect(Array.from(new Int32Array(run[3].slice().buffer)).every((v) => v >= 0 && v < 3)).toBe(true);
    // The plain int32 input: full range (some value outside any small table).
    expect(Array.from(new Int32Array(run[4].slice().buffer)).some((v) => v < 0 || v > 1000)).toBe(true);
  });

  it('verifyModel and uma-ts run check the model on random inputs (they stopped at "index is outside")', async () => {
    const report = verifyModel(graph, { backend: 'vanilla', runs: 2, seed: 3 });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-index-inputs-'));
    try {
      const file = path.join(dir, 'indexing.tflite');
      fs.writeFileSync(file, bytes);
      const r = await runCli(['run', file, '--backend', 'vanilla', '--seed', '9']);
      expect(r.err).not.toMatch(/error:/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^ok: /m);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60000);
});
