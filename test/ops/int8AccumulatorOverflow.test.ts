/**
 * int8 FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D and BATCH_MATMUL accumulate in int32: a bias
 * near the int32 ends, or a deep dot product of extreme values (140,000 x 127 x 255 in an
 * ordinary 1x1 conv), passes int32. TFLite Micro's C wraps in practice and the interpreter
 * wraps (`| 0`); the generated C must wrap too, through uint32, instead of overflowing a signed
 * int (UBSan: "signed integer overflow: 1824 + 2147483647" in the dense, "2147479322 + 27940"
 * in the deep ones). Built under UBSan, every program must run cleanly and match the interpreter.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { tfliteOptions, TfliteWriter, WriterOptions } from '../../src/frontend/tflite/writer';
import { runCli } from '../helpers/cli';

const UBSAN = 'gcc -fsanitize=undefined -fno-sanitize-recover=all';
const Q = (scale: number, zeroPoint = 0) => ({ scale: [scale], zeroPoint: [zeroPoint] });
const INT32_MAX = 2147483647;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-acc-overflow-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One int8 operator: input x (zero point -128), a weight of 127s, an optional int32 bias. */
function model(op: string, xShape: number[], wShape: number[], bias: number | undefined, yShape: number[], options?: WriterOptions): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: xShape, dtype: 'int8', quant: Q(0.01, -128) });
  const weight = w.addConstant({ name: 'w', shape: wShape, dtype: 'int8', quant: Q(0.01), data: new Array<number>(wShape.reduce((a, b) => a * b, 1)).fill(127) });
  const inputs = [x, weight];
  if (bias !== undefined) inputs.push(w.addConstant({ name: 'b', shape: [wShape[0] === 1 && op === 'DEPTHWISE_CONV_2D' ? wShape[3] : wShape[0]], dtype: 'int32', quant: Q(0.0001), data: [bias] }));
  const y = w.addTensor({ name: 'y', shape: yShape, dtype: 'int8', quant: Q(1000) });
  w.addOperator({ op, inputs, outputs: [y], ...(options ? { options } : {}) });
  w.markOutput(y);
  return w.finish();
}

/** `uma-ts run` under UBSan with the input all 127 (255 above its zero point). */
async function runUnderUbsan(name: string, bytes: Uint8Array, inputElements: number, backend: string) {
  const file = path.join(dir, `${name}.tflite`);
  fs.writeFileSync(file, bytes);
  const input = path.join(dir, `${name}.bin`);
  fs.writeFileSync(input, new Uint8Array(inputElements).fill(127));
  return runCli(['run', file, '--backend', backend, '--input', `x=${input}`, '--cc', UBSAN]);
}

describe('int8 int32 accumulators that pass int32 in generated C', () => {
  it.each([
    ['dense, bias INT32_MAX', 'FULLY_CONNECTED', [1, 8], [1, 8], INT32_MAX, [1, 1], tfliteOptions.fullyConnected(), 'vanilla'],
    ['depthwise conv, bias INT32_MAX', 'DEPTHWISE_CONV_2D', [1, 2, 2, 1], [1, 2, 2, 1], INT32_MAX, [1, 1, 1, 1], tfliteOptions.depthwiseConv2d({ padding: 'VALID' }), 'vanilla'],
    ['conv on the CPU loops (dma_local), bias INT32_MAX', 'CONV_2D', [1, 2, 2, 1], [1, 2, 2, 1], INT32_MAX, [1, 1, 1, 1], tfliteOptions.conv2d({ padding: 'VALID' }), 'dma_local'],
    ['batch matmul, depth 70000', 'BATCH_MATMUL', [1, 1, 70000], [1, 70000, 1], undefined, [1, 1, 1], tfliteOptions.batchMatMul(), 'vanilla'],
  ] as const)('%s: no signed overflow, outputs match the interpreter', async (name, op, xShape, wShape, bias, yShape, options, backend) => {
    const r = await runUnderUbsan(name.replace(/\W+/g, '_'), model(op, [...xShape], [...wShape], bias, [...yShape], options), xShape.reduce((a: number, b: number) => a * b, 1), backend);
    expect(r.err).not.toMatch(/runtime error|error:/);
    expect(r.code).toBe(0);
  });
});
