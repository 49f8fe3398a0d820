/**
 * Fuzzing with small models built in the test (TfliteWriter): random chains of operators
 * over random shapes, dtypes and quantization (mostly valid, sometimes not), compiled for
 * every bundled backend through the in-process CLI.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TfliteWriter, tfliteOptions, WriterDType, WriterQuantization } from '../../src/frontend/tflite/writer';
import { assertCleanOutcome, FUZZ_SEED, runCli } from './harness';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-built-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type OpKind = 'ADD' | 'MUL' | 'FULLY_CONNECTED' | 'SOFTMAX' | 'RESHAPE' | 'CONV_2D' | 'AVERAGE_POOL_2D' | 'MAX_POOL_2D';

interface ModelCase {
  readonly dtype: WriterDType;
  readonly spatial: boolean;
  readonly dims: readonly number[];
  readonly ops: readonly { kind: OpKind; width: number; quant: WriterQuantization }[];
  readonly inputQuant: WriterQuantization;
}

const quant = fc.oneof(
  { weight: 6, arbitrary: fc.record({ scale: fc.double({ min: 1e-3, max: 1, noNaN: true }).map((s) => [s]), zeroPoint: fc.integer({ min: -20, max: 20 }).map((z) => [z]) }) },
  { weight: 1, arbitrary: fc.record({ scale: fc.constantFrom([0], [-1], [NaN], [Infinity], [1e-30]), zeroPoint: fc.constantFrom([0], [300], [-129], [-2147483648]) }) },
);

const modelCase: fc.Arbitrary<ModelCase> = fc.record({
  dtype: fc.constantFrom<WriterDType>('int8', 'int8', 'float32', 'int16', 'uint8'),
  spatial: fc.boolean(),
  dims: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 3, maxLength: 3 }),
  ops: fc.array(
    fc.record({
      kind: fc.constantFrom<OpKind>('ADD', 'ADD', 'MUL', 'FULLY_CONNECTED', 'FULLY_CONNECTED', 'SOFTMAX', 'RESHAPE', 'CONV_2D', 'CONV_2D', 'AVERAGE_POOL_2D', 'MAX_POOL_2D'),
      width: fc.integer({ min: 1, max: 8 }),
      quant,
    }),
    { minLength: 1, maxLength: 4 },
  ),
  inputQuant: quant,
});

function build(c: ModelCase): Uint8Array {
  const w = new TfliteWriter();
  const quantized = c.dtype !== 'float32';
  // int16 activations are symmetric in TFLite: keep the generated zero point only when it is invalid anyway.
  const q = (x: WriterQuantization) =>
    !quantized ? {} : { quant: c.dtype === 'int16' && Math.abs(x.zeroPoint?.[0] ?? 0) <= 20 ? { ...x, zeroPoint: [0] } : x };
  let shape: number[] = c.spatial ? [1, ...c.dims] : [1, c.dims[0] * c.dims[1]];
  let x = w.addInput({ name: 'input', shape, dtype: c.dtype, ...q(c.inputQuant) });
  c.ops.forEach((op, i) => {
    const name = `t${i}`;
    const elems = shape.reduce((a, d) => a * d, 1);
    const weightType: WriterDType = quantized ? 'int8' : 'float32';
    const biasType: WriterDType = !quantized ? 'float32' : c.dtype === 'int16' ? 'int64' : 'int32';
    const wq = quantized ? { quant: { scale: [0.02] } } : {};
    const bq = quantized ? { quant: { scale: [0.0001] } } : {};
    let outShape = shape;
    let inputs: number[];
    let options;
    // Spatial operators on a 2-d tensor are refused at import; mostly keep chains that get further.
    const kind: OpKind = shape.length !== 4 && ['CONV_2D', 'AVERAGE_POOL_2D', 'MAX_POOL_2D'].includes(op.kind) && i % 2 === 0 ? 'ADD' : op.kind;
    switch (kind) {
      case 'ADD':
      case 'MUL':
        inputs = [x, x];
        options = kind === 'ADD' ? tfliteOptions.add() : tfliteOptions.mul();
        break;
      case 'SOFTMAX':
        inputs = [x];
        options = tfliteOptions.softmax(1);
        break;
      case 'RESHAPE':
        outShape = [1, elems];
        inputs = [x];
        options = tfliteOptions.reshape(outShape);
        break;
      case 'FULLY_CONNECTED': {
        const inner = shape[shape.length - 1];
        outShape = [elems / inner, op.width];
        const weights = w.addConstant({ name: `${name}_w`, shape: [op.width, inner], dtype: weightType, data: Array.from({ length: op.width * inner }, (_, k) => (k % 5) - 2), ...wq });
        const bias = w.addConstant({ name: `${name}_b`, shape: [op.width], dtype: biasType, data: Array.from({ length: op.width }, (_, k) => k), ...bq });
        inputs = [x, weights, bias];
        options = tfliteOptions.fullyConnected();
        break;
      }
      case 'CONV_2D': {
        const inC = shape[shape.length - 1];
        outShape = shape.length === 4 ? [1, shape[1], shape[2], op.width] : shape;
        const weights = w.addConstant({ name: `${name}_w`, shape: [op.width, 1, 1, inC], dtype: weightType, data: Array.from({ length: op.width * inC }, (_, k) => (k % 3) - 1), ...wq });
        const bias = w.addConstant({ name: `${name}_b`, shape: [op.width], dtype: biasType, data: Array.from({ length: op.width }, () => 1), ...bq });
        inputs = [x, weights, bias];
        options = tfliteOptions.conv2d({ padding: 'SAME' });
        break;
      }
      default: {
        const filter = Math.min(2, shape[1] ?? 1);
        outShape = shape.length === 4 ? [1, Math.ceil(shape[1] / filter), Math.ceil(shape[2] / filter), shape[3]] : shape;
        inputs = [x];
        options = tfliteOptions.pool2d({ padding: 'SAME', strideW: filter, strideH: filter, filterW: filter, filterH: filter });
      }
    }
    const y = w.addTensor({ name, shape: outShape, dtype: c.dtype, ...q(op.quant) });
    w.addOperator({ op: kind, inputs, outputs: [y], options });
    x = y;
    shape = outShape;
  });
  w.markOutput(x);
  return w.finish();
}

describe('fuzz: models built in the test', () => {
  it('random operator chains compile or fail with one error line', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(modelCase, fc.constantFrom('vanilla', 'accel', 'dma_local'), async (c, backend) => {
        counter += 1;
        const file = path.join(dir, `m${counter}.tflite`);
        const out = path.join(dir, `o${counter}`);
        fs.writeFileSync(file, build(c));
        const r = await runCli(['compile', file, '--backend', backend, '--out', out]);
        assertCleanOutcome(r, out);
        seen.add(r.code);
        fs.rmSync(out, { recursive: true, force: true });
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    expect([...seen].sort()).toEqual([0, 1]);
  });
});
