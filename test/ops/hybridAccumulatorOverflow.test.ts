/**
 * Hybrid (float32 input, int8 weights) FULLY_CONNECTED, CONV_2D and DEPTHWISE_CONV_2D sum
 * w * (q - zero_point) in int32, the input quantized to int8 per row at run time. A row of
 * equal positive values quantizes to 127 with zero point -128, so every term of a weight of
 * 127 is 127 * 255 = 32385, and 70,000 of them (2,266,950,000) pass int32: a signed overflow
 * in the generated C (UBSan) where the interpreter wraps (`| 0`), as TFLite's and XNNPack's
 * int32 accumulators do in practice. The C must wrap too, through uint32: built under UBSan,
 * every program must run cleanly and match the interpreter. The C keeps a plain int32 sum up to
 * 65,793 terms, where even the largest terms, -128 * (-128 - 127) = 32640 from a row of equal
 * negative values, fit; one more of those passes int32.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importTflite } from '../../src/frontend/tflite';
import { tfliteOptions, TfliteWriter, WriterOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { runCli } from '../helpers/cli';

const UBSAN = 'gcc -fsanitize=undefined -fno-sanitize-recover=all';
const WEIGHT_SCALE = 0.01;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-hybrid-overflow-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A hybrid operator whose single output sums `depth` products of weight `wv` with one input value, no bias. */
interface Case {
  readonly op: 'FULLY_CONNECTED' | 'CONV_2D' | 'DEPTHWISE_CONV_2D';
  readonly depth: number;
  readonly weight: number;
  readonly input: number;
  /** CONV_2D: kernel rows (the depth split over rows and channels; 1 = a 1x1 conv, quantized per pixel). */
  readonly rows?: number;
}

function shapes(c: Case): { x: number[]; w: number[]; y: number[]; options: WriterOptions } {
  if (c.op === 'FULLY_CONNECTED') return { x: [1, c.depth], w: [1, c.depth], y: [1, 1], options: tfliteOptions.fullyConnected() };
  if (c.op === 'DEPTHWISE_CONV_2D') return { x: [1, 1, c.depth, 1], w: [1, 1, c.depth, 1], y: [1, 1, 1, 1], options: tfliteOptions.depthwiseConv2d({ padding: 'VALID' }) };
  const rows = c.rows ?? 1;
  return { x: [1, rows, 1, c.depth / rows], w: [1, rows, 1, c.depth / rows], y: [1, 1, 1, 1], options: tfliteOptions.conv2d({ padding: 'VALID' }) };
}

function model(c: Case): Uint8Array {
  const s = shapes(c);
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: s.x, dtype: 'float32' });
  const axis = c.op === 'DEPTHWISE_CONV_2D' ? 3 : 0;
  const weight = w.addConstant({ name: 'w', shape: s.w, dtype: 'int8', quant: { scale: [WEIGHT_SCALE], zeroPoint: [0], axis }, data: new Array<number>(c.depth).fill(c.weight) });
  const y = w.addTensor({ name: 'y', shape: s.y, dtype: 'float32' });
  w.addOperator({ op: c.op, inputs: [x, weight, -1], outputs: [y], options: s.options });
  w.markOutput(y);
  return w.finish();
}

const inputOf = (c: Case): Uint8Array => new Uint8Array(new Float32Array(c.depth).fill(c.input).buffer);

/** The row quantizes to 127 (zero point -128) for a positive value, -128 (zero point 127) for a negative one. */
const term = (c: Case): number => c.weight * (c.input > 0 ? 255 : -255);

const cases: [string, Case][] = [
  ['dense, 70,000 terms of 32385', { op: 'FULLY_CONNECTED', depth: 70000, weight: 127, input: 1 }],
  ['conv2d 1x1 (a row per pixel), 70,000 terms', { op: 'CONV_2D', depth: 70000, weight: 127, input: 1 }],
  ['conv2d 2x1 (a row per image), 70,000 terms', { op: 'CONV_2D', depth: 70000, weight: 127, input: 1, rows: 2 }],
  ['depthwise conv2d, a 1 x 70,000 window', { op: 'DEPTHWISE_CONV_2D', depth: 70000, weight: 127, input: 1 }],
  ['dense, 65,793 terms of 32640 (the int32 sum at its bound)', { op: 'FULLY_CONNECTED', depth: 65793, weight: -128, input: -1 }],
  ['dense, 65,794 terms of 32640 (one past it)', { op: 'FULLY_CONNECTED', depth: 65794, weight: -128, input: -1 }],
];

describe('hybrid int32 accumulators that pass int32', () => {
  it.each(cases)('%s: the interpreter sums modulo 2^32', (_label, c) => {
    const [y] = interpret(importTflite(model(c), 'hybrid.tflite'), [inputOf(c)]);
    const wrapped = (c.depth * term(c)) | 0;
    // (float)acc * filter scale * row scale (1/255), in either order: the wrapped sum's sign and size.
    expect(new Float32Array(y.slice().buffer)[0]).toBeCloseTo((wrapped * WEIGHT_SCALE) / 255, -1);
  });

  it('the cases pass int32 but for the one at the bound', () => {
    expect(cases.map(([, c]) => c.depth * term(c) > 0x7fffffff)).toEqual([true, true, true, true, false, true]);
  });

  it.each(cases)('%s: no signed overflow in the C, outputs match the interpreter', async (label, c) => {
    const name = label.replace(/\W+/g, '_');
    const file = path.join(dir, `${name}.tflite`);
    fs.writeFileSync(file, model(c));
    const input = path.join(dir, `${name}.bin`);
    fs.writeFileSync(input, inputOf(c));
    const r = await runCli(['run', file, '--backend', 'vanilla', '--input', `x=${input}`, '--cc', UBSAN]);
    expect(r.err).not.toMatch(/runtime error|error:/);
    expect(r.code).toBe(0);
  });
});
