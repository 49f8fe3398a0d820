/**
 * The eight small operators imported from one TFLite file (constant scalars, constant dims,
 * run-time indices, chains between them) through the whole compile pipeline and gcc,
 * byte-exact with the interpreter.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { BackendRegistry } from '../../src/backend/registry';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { expectRunsByteExact } from '../e2e/harness';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

/**
 * x[1,4,4,2] → L2_POOL_2D → REVERSE_V2(axis 2) → CUMSUM(axis 3, exclusive) (output 0);
 * SHAPE(x) (1); FILL([2,3], 0.5) (2); ZEROS_LIKE of the reversed pool (3);
 * GATHER_ND(constant params, run-time indices) (4); hybrid EMBEDDING_LOOKUP(run-time ids) (5);
 * FILL int8 of a constant scalar (6).
 */
function model(): Uint8Array {
  const w = new TfliteWriter();
  const f32 = (name: string, shape: number[]) => w.addTensor({ name, shape, dtype: 'float32' });
  const i32 = (name: string, shape: number[], data: number[]) => w.addConstant({ name, shape, dtype: 'int32', data });
  const x = w.addInput({ name: 'x', shape: [1, 4, 4, 2], dtype: 'float32' });
  const indices = w.addInput({ name: 'indices', shape: [2, 2], dtype: 'int32' });
  const ids = w.addInput({ name: 'ids', shape: [3], dtype: 'int32' });
  const pooled = f32('pooled', [1, 2, 2, 2]);
  w.addOperator({ op: 'L2_POOL_2D', inputs: [x], outputs: [pooled], options: tfliteOptions.pool2d({ filterH: 2, filterW: 2, strideH: 2, strideW: 2, padding: 'VALID' }) });
  const reversed = f32('reversed', [1, 2, 2, 2]);
  w.addOperator({ op: 'REVERSE_V2', inputs: [pooled, i32('axis', [1], [2])], outputs: [reversed] });
  const summed = f32('summed', [1, 2, 2, 2]);
  w.addOperator({ op: 'CUMSUM', inputs: [reversed, i32('cumsum_axis', [], [3])], outputs: [summed], options: tfliteOptions.cumsum({ exclusive: true }) });
  const shape = w.addTensor({ name: 'shape', shape: [4], dtype: 'int32' });
  w.addOperator({ op: 'SHAPE', inputs: [x], outputs: [shape], options: tfliteOptions.shape() });
  const filled = f32('filled', [2, 3]);
  w.addOperator({ op: 'FILL', inputs: [i32('dims', [2], [2, 3]), w.addConstant({ name: 'half', shape: [], dtype: 'float32', data: [0.5] })], outputs: [filled] });
  const zeros = f32('zeros', [1, 2, 2, 2]);
  w.addOperator({ op: 'ZEROS_LIKE', inputs: [reversed], outputs: [zeros] });
  const params = w.addConstant({ name: 'params', shape: [3, 4], dtype: 'float32', data: Array.from({ length: 12 }, (_, i) => i * 0.25 - 1) });
  const gathered = f32('gathered', [2]);
  w.addOperator({ op: 'GATHER_ND', inputs: [params, indices], outputs: [gathered] });
  const table = w.addConstant({ name: 'table', shape: [4, 3], dtype: 'int8', quant: { scale: [0.03], zeroPoint: [0] }, data: [5, -7, 127, -128, 0, 3, 9, 11, -13, 1, 2, 3] });
  const looked = f32('looked', [3, 3]);
  w.addOperator({ op: 'EMBEDDING_LOOKUP', inputs: [ids, table], outputs: [looked] });
  const q = { scale: [0.1], zeroPoint: [2] };
  const filled8 = w.addTensor({ name: 'filled8', shape: [3], dtype: 'int8', quant: q });
  w.addOperator({ op: 'FILL', inputs: [i32('dims8', [1], [3]), w.addConstant({ name: 'v8', shape: [], dtype: 'int8', quant: q, data: [-9] })], outputs: [filled8] });
  [summed, shape, filled, zeros, gathered, looked, filled8].forEach((o) => w.markOutput(o));
  return w.finish();
}

describe('REVERSE_V2 ... CUMSUM imported, compiled and run under gcc', () => {
  it('every output byte-exact with the interpreter', () => {
    const registry = new BackendRegistry();
    registry.register(HostOnlyBackend);
    const graph = importTflite(model(), 'misc.tflite');
    const inputs = [
      new Uint8Array(Float32Array.from({ length: 32 }, (_, i) => Math.sin(i) * 3).buffer),
      new Uint8Array(Int32Array.from([2, 3, 0, 1]).buffer),
      new Uint8Array(Int32Array.from([3, 0, 3]).buffer),
    ];
    const expected = interpret(graph, inputs);
    expect(Array.from(new Int32Array(expected[1].slice().buffer))).toEqual([1, 4, 4, 2]);
    expect(Array.from(new Float32Array(expected[2].slice().buffer))).toEqual([0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
    expect(Array.from(new Float32Array(expected[4].slice().buffer))).toEqual([1.75, -0.75]);
    expect(Array.from(new Int8Array(expected[6].slice().buffer))).toEqual([-9, -9, -9]);
    expectRunsByteExact(compileModel(graph, { backend: 'host_only', registry }), inputs, expected);
  });
});

describe('uma-ts inspect', () => {
  it('lists the eight operators with nothing unsupported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-misc-'));
    try {
      const path = join(dir, 'misc.tflite');
      writeFileSync(path, model());
      const io = memoryIO();
      expect(await main(['node', 'uma-ts', 'inspect', path], io)).toBe(0);
      const out = io.stdout.join('\n');
      // Supported operators are listed by their graph op.
      for (const name of ['l2_pool2d', 'reverse', 'cumsum', 'shape', 'fill', 'zeros_like', 'gather_nd', 'embedding_lookup']) {
        expect(out).toMatch(new RegExp(`^\\s+\\d+\\s+${name}\\s`, 'm'));
      }
      expect(out).toContain('unsupported operators: none');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
