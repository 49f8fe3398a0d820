/**
 * 16x8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV and
 * UNIDIRECTIONAL_SEQUENCE_LSTM (its input gates) with an int64 bias accumulate in int64. A bias within a few thousand of INT64_MIN or INT64_MAX is past 2^53,
 * where a double no longer holds every integer: the interpreter rounded it (INT64_MAX - 1000
 * became 2^63, giving -512 where the C gave -500), and adding the products to it passes the
 * int64 range, a signed overflow in the generated C (UBSan: "-999 + -9223372036854775808
 * cannot be represented in type 'long int'"). Both now wrap modulo 2^64, as TFLite's C does in
 * practice, and requantize the wrapped value exactly (the product with the Q15 multiplier
 * wraps too). Built under UBSan every program must run cleanly and match the interpreter, and
 * the interpreter must give the value the wrapped arithmetic defines.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importTflite } from '../../src/frontend/tflite';
import { tfliteOptions, TfliteWriter, WriterOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { runCli } from '../helpers/cli';
import { INT8_SPECS, int8LstmInput, int8LstmModel } from './lstmInt8Models';

const UBSAN = 'gcc -fsanitize=undefined -fno-sanitize-recover=all';
const Q = (scale: number) => ({ scale: [scale], zeroPoint: [0] });
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-acc64-overflow-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * One 16x8 operator on a single int16 input element x (scale 1) with one int8 weight of 1
 * (scale 0.5) and an int64 bias: the accumulator is x + bias and the real multiplier 0.5,
 * quantized to 2^30 with shift 0, i.e. Q15 2^14 and a right shift of 15.
 */
function model(op: string, bias: bigint, options: WriterOptions): Uint8Array {
  const w = new TfliteWriter();
  const conv = op !== 'FULLY_CONNECTED';
  const x = w.addInput({ name: 'x', shape: conv ? [1, 1, 1, 1] : [1, 1], dtype: 'int16', quant: Q(1) });
  const weight = w.addConstant({ name: 'w', shape: conv ? [1, 1, 1, 1] : [1, 1], dtype: 'int8', quant: Q(0.5), data: [1] });
  const b = w.addConstant({ name: 'b', shape: [1], dtype: 'int64', quant: Q(0.5), data: [bias] });
  const y = w.addTensor({ name: 'y', shape: conv ? [1, 1, 1, 1] : [1, 1], dtype: 'int16', quant: Q(1) });
  const inputs = op === 'TRANSPOSE_CONV' ? [w.addConstant({ name: 'os', shape: [4], dtype: 'int32', data: [1, 1, 1, 1] }), weight, x, b] : [x, weight, b];
  w.addOperator({ op, inputs, outputs: [y], options });
  w.markOutput(y);
  return w.finish();
}

/** The output of `model`: (x + bias) wrapped to int64, times 2^14 plus 2^14 wrapped to int64, shifted right by 15, wrapped to int32, clamped to int16. */
function wrappedOutput(x: number, bias: bigint): number {
  const acc = BigInt.asIntN(64, BigInt(x) + bias);
  const scaled = Number(BigInt.asIntN(32, BigInt.asIntN(64, acc * 16384n + 16384n) >> 15n));
  return Math.min(Math.max(scaled, -32768), 32767);
}

const cases: [string, string, WriterOptions, bigint, number][] = [
  // x = 0: no overflow, only the rounding of the bias to a double.
  ['conv2d, bias INT64_MAX - 1000, no overflow', 'CONV_2D', tfliteOptions.conv2d({ padding: 'VALID' }), INT64_MAX - 1000n, 0],
  ['conv2d, bias INT64_MAX - 1000 + 2000', 'CONV_2D', tfliteOptions.conv2d({ padding: 'VALID' }), INT64_MAX - 1000n, 2000],
  ['depthwise conv2d, bias INT64_MAX - 1000 + 2000', 'DEPTHWISE_CONV_2D', tfliteOptions.depthwiseConv2d({ padding: 'VALID' }), INT64_MAX - 1000n, 2000],
  ['dense, bias INT64_MIN - 999', 'FULLY_CONNECTED', tfliteOptions.fullyConnected(), INT64_MIN, -999],
  ['transpose conv, bias INT64_MIN - 999', 'TRANSPOSE_CONV', tfliteOptions.transposeConv({ padding: 'VALID' }), INT64_MIN, -999],
];

describe('16x8 int64 accumulators near the int64 ends', () => {
  it.each(cases)('%s: the interpreter gives the wrapped value exactly', (_label, op, options, bias, x) => {
    const module = importTflite(model(op, bias, options), 'acc64.tflite');
    const [y] = interpret(module, [new Uint8Array(Int16Array.of(x).buffer)]);
    expect(new Int16Array(y.slice().buffer)[0]).toBe(wrappedOutput(x, bias));
  });

  it.each(cases)('%s: no signed overflow in the C, outputs match the interpreter', async (label, op, options, bias, x) => {
    const name = label.replace(/\W+/g, '_');
    const file = path.join(dir, `${name}.tflite`);
    fs.writeFileSync(file, model(op, bias, options));
    const input = path.join(dir, `${name}.bin`);
    fs.writeFileSync(input, new Uint8Array(Int16Array.of(x).buffer));
    const r = await runCli(['run', file, '--backend', 'vanilla', '--input', `x=${input}`, '--cc', UBSAN]);
    expect(r.err).not.toMatch(/runtime error|error:/);
    expect(r.code).toBe(0);
  });
});

test('the expected values are not the clamp limits (the wrap is observable)', () => {
  for (const [, , , bias, x] of cases) expect(Math.abs(wrappedOutput(x, bias))).toBeLessThan(1000);
});

describe('16x8 LSTM gate biases near the int64 ends', () => {
  // Random int16 inputs: some units' products pass +-1000 either way, so the C's bias add overflowed.
  const lstm = (bias: bigint): Uint8Array =>
    int8LstmModel({ ...INT8_SPECS[0][1], activation: 'int16', inputScale: 1 / 32767, hiddenScale: 1 / 32768, hiddenZeroPoint: 0, biasValue: bias }).bytes;

  it.each([
    ['INT64_MAX - 1000', INT64_MAX - 1000n],
    ['INT64_MIN + 1000', INT64_MIN + 1000n],
  ])('bias %s: no signed overflow in the C, outputs match the interpreter over 3 invocations', async (label, bias) => {
    const file = path.join(dir, `lstm_${label.replace(/\W+/g, '_')}.tflite`);
    fs.writeFileSync(file, lstm(bias));
    const r = await runCli(['run', file, '--backend', 'vanilla', '--runs', '3', '--cc', UBSAN]);
    expect(r.err).not.toMatch(/runtime error|error:/);
    expect(r.code).toBe(0);
  });

  it('the interpreter reads the bias exactly: INT64_MAX - 100 and INT64_MAX (the same double, 2^63) give different outputs', () => {
    const spec = { ...INT8_SPECS[0][1], activation: 'int16' as const, inputScale: 1 / 32767, hiddenScale: 1 / 32768, hiddenZeroPoint: 0 };
    const input = int8LstmInput(spec, 3);
    const run = (bias: bigint): number[] => Array.from(new Int16Array(interpret(importTflite(lstm(bias), 'lstm.tflite'), [input])[0].slice().buffer));
    expect(run(INT64_MAX - 100n)).not.toEqual(run(INT64_MAX));
  });
});
