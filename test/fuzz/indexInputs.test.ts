/**
 * `uma-ts run` on models whose integer inputs are indices (verify/indexInputs.ts draws them
 * within the axis they index): GATHER over random axes (negative ones too), batch_dims, int32
 * and int64 indices, axes of size 0 and 1, the same input also read by GATHER_ND or
 * EMBEDDING_LOOKUP or added to itself. Every run ends cleanly (a table, or one `error:` line),
 * and a model whose every indexed axis has rows runs through.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { assertCleanOutcome, FUZZ_SEED, runCli } from './harness';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-index-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const indexCase = fc.record({
  dims: fc.array(fc.constantFrom<number>(0, 1, 1, 2, 3, 5), { minLength: 1, maxLength: 3 }),
  axisPick: fc.nat(5),
  negativeAxis: fc.boolean(),
  batchDims: fc.constantFrom(0, 0, 1),
  indicesShape: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 2 }),
  int64: fc.boolean(),
  also: fc.constantFrom('none', 'add', 'gather_nd', 'embedding_lookup'),
  otherRows: fc.constantFrom(1, 2, 4),
  seed: fc.nat(50),
});
type Case = typeof indexCase extends fc.Arbitrary<infer T> ? T : never;

/** The model, and whether every axis its index input addresses has rows (then it must run). */
function build(c: Case): { model: Uint8Array; runnable: boolean } {
  const w = new TfliteWriter();
  const rank = c.dims.length;
  const axis = c.axisPick % rank;
  const batchDims = Math.min(c.batchDims, axis);
  // batch_dims: the indices' leading axes are the input's.
  const indicesShape = [...c.dims.slice(0, batchDims), ...c.indicesShape];
  const count = c.dims.reduce((a, b) => a * b, 1);
  const table = w.addConstant({ name: 'table', shape: c.dims, dtype: 'float32', data: Array.from({ length: count }, (_, i) => i * 0.25 - 1) });
  const also = c.int64 && c.also !== 'none' ? 'none' : c.also;
  const ids = w.addInput({ name: 'ids', shape: indicesShape, dtype: c.int64 ? 'int64' : 'int32' });
  const outShape = [...c.dims.slice(0, axis), ...indicesShape.slice(batchDims), ...c.dims.slice(axis + 1)];
  const g = w.addTensor({ name: 'g', shape: outShape, dtype: 'float32' });
  w.addOperator({ op: 'GATHER', inputs: [table, ids], outputs: [g], options: tfliteOptions.gather(c.negativeAxis ? axis - rank : axis, batchDims) });
  w.markOutput(g);
  let rows = c.dims[axis];
  if (also === 'add') {
    const s = w.addTensor({ name: 's', shape: indicesShape, dtype: 'int32' });
    w.addOperator({ op: 'ADD', inputs: [ids, ids], outputs: [s], options: tfliteOptions.add() });
    w.markOutput(s);
  } else if (also === 'gather_nd') {
    // The indices' last axis is the depth: the leading axes of a [otherRows, 3, 2] table.
    const nd = indicesShape[indicesShape.length - 1];
    if (nd <= 3) {
      const params = [c.otherRows, 3, 2];
      const t2 = w.addConstant({ name: 't2', shape: params, dtype: 'float32', data: Array.from({ length: 6 * c.otherRows }, (_, i) => i) });
      const y = w.addTensor({ name: 'y', shape: [...indicesShape.slice(0, -1), ...params.slice(nd)], dtype: 'float32' });
      w.addOperator({ op: 'GATHER_ND', inputs: [t2, ids], outputs: [y] });
      w.markOutput(y);
      rows = Math.min(rows, ...params.slice(0, nd));
    }
  } else if (also === 'embedding_lookup' && indicesShape.length === 1) {
    const t3 = w.addConstant({ name: 't3', shape: [c.otherRows, 2], dtype: 'float32', data: Array.from({ length: 2 * c.otherRows }, (_, i) => i) });
    const y = w.addTensor({ name: 'y', shape: [indicesShape[0], 2], dtype: 'float32' });
    w.addOperator({ op: 'EMBEDDING_LOOKUP', inputs: [ids, t3], outputs: [y] });
    w.markOutput(y);
    rows = Math.min(rows, c.otherRows);
  }
  return { model: w.finish(), runnable: rows > 0 };
}

describe('fuzz: uma-ts run with index inputs', () => {
  it('runs, or ends with one error line; index inputs over axes with rows always run', async () => {
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(indexCase, async (c) => {
        counter += 1;
        const file = path.join(dir, `m${counter}.tflite`);
        const { model, runnable } = build(c);
        fs.writeFileSync(file, model);
        const r = await runCli(['run', file, '--backend', 'vanilla', '--seed', String(c.seed), '--runs', '2']);
        assertCleanOutcome(r);
        if (runnable && r.code !== 0) throw new Error(`a runnable model failed: ${r.problems.join('\n')}\n${JSON.stringify(c)}`);
        if (r.code === 0) ran += 1;
      }),
      { seed: FUZZ_SEED + 42, numRuns: 30 },
    );
    expect(ran).toBeGreaterThan(3);
  });
});
