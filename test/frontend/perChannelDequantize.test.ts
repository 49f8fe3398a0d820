/**
 * DEQUANTIZE of a constant quantized per channel (the converter's weight-only quantization
 * of weights with no hybrid kernel: int8 conv weights along axis 0, depthwise along axis 3)
 * computes each channel with its own scale and zero point, as TFLite does. Regression: every
 * channel used the first channel's scale (TFLite Micro's kernel does so too), silently.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions, WriterQuantization } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { ConstantNode, MAIN_FUNCTION } from '../../src/ir/graph/types';
import { expectRunsByteExact } from '../e2e/harness';
import { firstMismatch, runLiteRtBatch } from '../oracle/litert';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);

const CONV_SCALES = [0.01, 0.02, 0.03];
const DW_SCALES = [0.5, 0.25, 0.125, 0.0625, 0.1, 0.3];
const convQ = new Int8Array(54).map((_, i) => ((i * 13) % 200) - 100);
const dwQ = new Int8Array(54).map((_, i) => ((i * 29) % 120) - 60);
const DW_ZP = [0, 3, -2, 1, 0, -1];

/** conv(x, DEQUANTIZE(w)) -> depthwise(., DEQUANTIZE(dw)); `dequantized` false: the same weights as float32 constants. */
function model(dequantized: boolean): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 4, 4, 2], dtype: 'float32' });
  const weights = (name: string, shape: number[], q: Int8Array, quant: WriterQuantization, channelOf: (i: number) => number): number => {
    if (!dequantized) {
      const values = Float32Array.from(q, (v, i) => Math.fround(quant.scale[channelOf(i)]) * (v - (quant.zeroPoint?.[channelOf(i)] ?? 0)));
      return w.addConstant({ name, shape, dtype: 'float32', data: values });
    }
    const wq = w.addConstant({ name: `${name}_int8`, shape, dtype: 'int8', quant, data: q });
    const wf = w.addTensor({ name, shape, dtype: 'float32' });
    w.addOperator({ op: 'DEQUANTIZE', inputs: [wq], outputs: [wf] });
    return wf;
  };
  const cw = weights('conv_w', [3, 3, 3, 2], convQ, { scale: CONV_SCALES, zeroPoint: [0, 0, 0], axis: 0 }, (i) => Math.floor(i / 18));
  const cb = w.addConstant({ name: 'conv_b', shape: [3], dtype: 'float32', data: [0.1, 0, -0.1] });
  const y = w.addTensor({ name: 'y', shape: [1, 4, 4, 3], dtype: 'float32' });
  w.addOperator({ op: 'CONV_2D', inputs: [x, cw, cb], outputs: [y], options: tfliteOptions.conv2d({ padding: 'SAME', activation: 'RELU' }) });
  const dw = weights('dw_w', [1, 3, 3, 6], dwQ, { scale: DW_SCALES, zeroPoint: DW_ZP, axis: 3 }, (i) => i % 6);
  const db = w.addConstant({ name: 'dw_b', shape: [6], dtype: 'float32', data: [0, 0.2, 0, -0.2, 0.1, 0] });
  const z = w.addTensor({ name: 'z', shape: [1, 4, 4, 6], dtype: 'float32' });
  w.addOperator({ op: 'DEPTHWISE_CONV_2D', inputs: [y, dw, db], outputs: [z], options: tfliteOptions.depthwiseConv2d({ padding: 'SAME', depthMultiplier: 2 }) });
  w.markOutput(z);
  return w.finish();
}

describe('DEQUANTIZE of a per-channel constant', () => {
  const input = new Uint8Array(Float32Array.from({ length: 32 }, (_, i) => Math.sin(i) * 2).buffer);
  const folded = importTflite(model(true), 'weight_only.tflite');
  const plain = importTflite(model(false), 'float_weights.tflite');
  const expected = interpret(folded, [input]);

  it('is the float constant of each channel\'s scale and zero point', () => {
    const constants = new Map(folded.functions.get(MAIN_FUNCTION)!.nodes.filter((n): n is ConstantNode => n.kind === 'constant').map((n) => [n.name, n]));
    const conv = new Float32Array(constants.get('conv_w')!.data.slice().buffer);
    expect(conv[17]).toBe(Math.fround(Math.fround(0.01) * convQ[17]));
    expect(conv[18]).toBe(Math.fround(Math.fround(0.02) * convQ[18]));
    const dw = new Float32Array(constants.get('dw_w')!.data.slice().buffer);
    expect(dw[1]).toBe(Math.fround(0.25 * (dwQ[1] - 3)));
    expect(dw[8]).toBe(Math.fround(0.125 * (dwQ[8] + 2)));
    expect(dw[11]).toBe(Math.fround(Math.fround(0.3) * (dwQ[11] + 1)));
    expect(Array.from(expected[0])).toEqual(Array.from(interpret(plain, [input])[0]));
  });

  it('agrees with LiteRT', () => {
    const [r] = runLiteRtBatch([{ model: model(true), inputs: [input] }]);
    if ('error' in r) throw new Error(r.error);
    expect(firstMismatch('float32', expected[0], r.outputs[0].data, { rel: 1e-5, abs: 1e-5 })).toBeNull();
  });

  it('compiles and runs byte-exact under gcc', () => {
    expectRunsByteExact(compileModel(folded, { backend: 'host_only', registry, timeBudgetMs: 100 }), [input], expected, ['-O0']);
  });

  it('a computed per-channel input is refused in one line', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 2], dtype: 'int8', quant: { scale: [0.1, 0.2], zeroPoint: [0, 0], axis: 1 } });
    const y = w.addTensor({ name: 'y', shape: [1, 2], dtype: 'float32' });
    w.addOperator({ op: 'DEQUANTIZE', inputs: [x], outputs: [y] });
    w.markOutput(y);
    expect(() => importTflite(w.finish(), 'm.tflite')).toThrow(/^unsupported per-channel quantization \(2 scales\) of a computed input on DEQUANTIZE at operator #0 in m\.tflite$/);
  });
});
