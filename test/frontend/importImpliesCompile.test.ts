/**
 * What the importer accepts, compile accepts: single-operator models over every graph-IR dtype
 * either show up in `checkTflite(...).unsupported` (so `inspect` lists them, with the operator
 * named) or compile through the CPU lowering. A model the importer let through but compile
 * refused (QUANTIZE of int32, SOFTMAX with a quantization TFLite Micro rejects, a pool or ADD
 * of a dtype without a kernel...) is the failure this sweep catches.
 */
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { checkTflite } from '../../src/frontend/tflite/importer';
import { TfliteWriter, tfliteOptions, WriterDType, WriterOptions } from '../../src/frontend/tflite/writer';

const registry = new BackendRegistry();
registry.register(VanillaBackend);

const DTYPES = ['float32', 'int8', 'int16', 'int32', 'int64', 'bool', 'uint8'] as const;
type Dt = (typeof DTYPES)[number];

/** Quantized tensors get scale 0.1 and zero point 0; the rest none. */
const quantOf = (dtype: Dt) => (dtype === 'int8' || dtype === 'int16' || dtype === 'uint8' ? { scale: [0.1], zeroPoint: [0] } : undefined);

interface Operand {
  readonly shape: number[];
  /** Constant int32 contents (a parameter input); absent = a model input of the case dtype. */
  readonly data?: number[];
}

function singleOp(op: string, dtype: Dt, operands: readonly Operand[], outputs: number[][], options?: WriterOptions, outDtype: Dt = dtype): Uint8Array {
  const w = new TfliteWriter();
  const inputs = operands.map((o, k) =>
    o.data ? w.addConstant({ name: `c${k}`, shape: o.shape, dtype: 'int32', data: o.data }) : w.addInput({ name: `x${k}`, shape: o.shape, dtype: dtype as WriterDType, quant: quantOf(dtype) }),
  );
  const ys = outputs.map((shape, k) => w.addTensor({ name: `y${k}`, shape, dtype: outDtype as WriterDType, quant: quantOf(outDtype) }));
  w.addOperator({ op, inputs, outputs: ys, options });
  ys.forEach((y) => w.markOutput(y));
  return w.finish();
}

/** Every case: [name, model]. */
function cases(): [string, Uint8Array][] {
  const out: [string, Uint8Array][] = [];
  const v4 = { shape: [4] };
  const pool = tfliteOptions.pool2d({ filterW: 2, filterH: 2, strideW: 2, strideH: 2 });
  for (const dt of DTYPES) {
    const add = (name: string, model: Uint8Array): void => void out.push([`${name} ${dt}`, model]);
    add('RESHAPE', singleOp('RESHAPE', dt, [{ shape: [2, 3] }], [[6]], tfliteOptions.reshape([6])));
    add('TRANSPOSE', singleOp('TRANSPOSE', dt, [{ shape: [2, 3] }, { shape: [2], data: [1, 0] }], [[3, 2]]));
    add('CONCATENATION', singleOp('CONCATENATION', dt, [{ shape: [2, 3] }, { shape: [2, 3] }], [[4, 3]], tfliteOptions.concatenation(0)));
    add('STRIDED_SLICE', singleOp('STRIDED_SLICE', dt, [v4, { shape: [1], data: [1] }, { shape: [1], data: [3] }, { shape: [1], data: [1] }], [[2]], tfliteOptions.stridedSlice()));
    add('SLICE', singleOp('SLICE', dt, [v4, { shape: [1], data: [1] }, { shape: [1], data: [2] }], [[2]]));
    add('PAD', singleOp('PAD', dt, [v4, { shape: [1, 2], data: [1, 1] }], [[6]]));
    add('MIRROR_PAD', singleOp('MIRROR_PAD', dt, [v4, { shape: [1, 2], data: [1, 1] }], [[6]], tfliteOptions.mirrorPad('REFLECT')));
    add('PACK', singleOp('PACK', dt, [v4, v4], [[2, 4]], tfliteOptions.pack(2, 0)));
    add('UNPACK', singleOp('UNPACK', dt, [{ shape: [2, 4] }], [[4], [4]], tfliteOptions.unpack(2, 0)));
    add('SPLIT', singleOp('SPLIT', dt, [{ shape: [], data: [0] }, v4], [[2], [2]], tfliteOptions.split(2)));
    add('GATHER', singleOp('GATHER', dt, [v4, { shape: [2], data: [0, 3] }], [[2]], tfliteOptions.gather(0)));
    add('BROADCAST_TO', singleOp('BROADCAST_TO', dt, [{ shape: [1, 4] }, { shape: [2], data: [2, 4] }], [[2, 4]]));
    for (const op of ['MAXIMUM', 'MINIMUM', 'SQUARED_DIFFERENCE']) add(op, singleOp(op, dt, [v4, v4], [[4]]));
    add('ADD', singleOp('ADD', dt, [v4, v4], [[4]], tfliteOptions.add()));
    add('SUB', singleOp('SUB', dt, [v4, v4], [[4]], tfliteOptions.sub()));
    add('MUL', singleOp('MUL', dt, [v4, v4], [[4]], tfliteOptions.mul()));
    add('DIV', singleOp('DIV', dt, [v4, v4], [[4]], tfliteOptions.div()));
    for (const op of ['ABS', 'NEG', 'RELU', 'RELU6', 'RELU_N1_TO_1', 'LOGISTIC', 'TANH', 'HARD_SWISH', 'ELU', 'EXP', 'LOG', 'SQRT', 'RSQRT']) add(op, singleOp(op, dt, [v4], [[4]]));
    add('LEAKY_RELU', singleOp('LEAKY_RELU', dt, [v4], [[4]], tfliteOptions.leakyRelu(0.2)));
    add('SOFTMAX', singleOp('SOFTMAX', dt, [{ shape: [1, 4] }], [[1, 4]], tfliteOptions.softmax()));
    add('LOG_SOFTMAX', singleOp('LOG_SOFTMAX', dt, [{ shape: [1, 4] }], [[1, 4]]));
    add('L2_NORMALIZATION', singleOp('L2_NORMALIZATION', dt, [{ shape: [1, 4] }], [[1, 4]]));
    for (const op of ['MEAN', 'SUM', 'REDUCE_MAX', 'REDUCE_MIN']) add(op, singleOp(op, dt, [{ shape: [2, 4] }, { shape: [1], data: [1] }], [[2]], tfliteOptions.reducer(false)));
    add('ARG_MAX', singleOp('ARG_MAX', dt, [{ shape: [2, 4] }, { shape: [1], data: [1] }], [[2]], tfliteOptions.argMax('int32'), 'int32'));
    add('MAX_POOL_2D', singleOp('MAX_POOL_2D', dt, [{ shape: [1, 2, 2, 1] }], [[1, 1, 1, 1]], pool));
    add('AVERAGE_POOL_2D', singleOp('AVERAGE_POOL_2D', dt, [{ shape: [1, 2, 2, 1] }], [[1, 1, 1, 1]], pool));
    add('DEPTH_TO_SPACE', singleOp('DEPTH_TO_SPACE', dt, [{ shape: [1, 1, 1, 4] }], [[1, 2, 2, 1]], tfliteOptions.depthToSpace(2)));
    add('RESIZE_NEAREST_NEIGHBOR', singleOp('RESIZE_NEAREST_NEIGHBOR', dt, [{ shape: [1, 2, 2, 1] }, { shape: [2], data: [4, 4] }], [[1, 4, 4, 1]], tfliteOptions.resizeNearestNeighbor()));
    add('RESIZE_BILINEAR', singleOp('RESIZE_BILINEAR', dt, [{ shape: [1, 2, 2, 1] }, { shape: [2], data: [4, 4] }], [[1, 4, 4, 1]], tfliteOptions.resizeBilinear()));
    add('BATCH_MATMUL', singleOp('BATCH_MATMUL', dt, [{ shape: [2, 3] }, { shape: [3, 2] }], [[2, 2]], tfliteOptions.batchMatMul()));
    add('DEQUANTIZE', singleOp('DEQUANTIZE', dt, [v4], [[4]], undefined, 'float32'));
    for (const to of DTYPES) {
      out.push([`QUANTIZE ${dt} -> ${to}`, singleOp('QUANTIZE', dt, [v4], [[4]], undefined, to)]);
      if (to !== dt) out.push([`CAST ${dt} -> ${to}`, singleOp('CAST', dt, [v4], [[4]], tfliteOptions.cast(dt as WriterDType, to as WriterDType), to)]);
    }
  }
  return out;
}

describe('a model the importer accepts compiles', () => {
  it('over single-operator models of every dtype, or the importer names what it refuses', () => {
    const escaped: string[] = [];
    let accepted = 0;
    for (const [name, model] of cases()) {
      const check = checkTflite(model, name);
      if (check.unsupported.length > 0) {
        // Refusals name the operator and its index, one line each.
        for (const u of check.unsupported) expect(u.message).toMatch(/ at operator #0 | operator #0\b/);
        continue;
      }
      accepted++;
      try {
        compileModel(importTflite(model, name), { backend: 'vanilla', registry });
      } catch (e) {
        escaped.push(`${name}: ${(e as Error).message}`);
      }
    }
    expect(escaped).toEqual([]);
    // The sweep must exercise real compiles, not only refusals.
    expect(accepted).toBeGreaterThan(150);
  });

  it('over the weighted operators: every input / weight / bias dtype combination', () => {
    const weightedCases: [string, Uint8Array][] = [];
    const quant = (dt: string, n: number) =>
      dt === 'float32' ? undefined : { scale: Array<number>(n).fill(dt === 'int32' || dt === 'int64' ? 0.01 : 0.1), zeroPoint: Array<number>(n).fill(0) };
    for (const input of ['float32', 'int8', 'int16', 'int32', 'uint8'] as const) {
      for (const weight of ['float32', 'int8', 'int4', 'int16', 'uint8'] as const) {
        for (const bias of ['none', 'float32', 'int32', 'int64', 'int16'] as const) {
          for (const op of ['CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED']) {
            const w = new TfliteWriter();
            const x = w.addInput({ name: 'x', shape: op === 'FULLY_CONNECTED' ? [1, 4] : [1, 3, 3, 2], dtype: input, quant: quant(input, 1) });
            const shape = op === 'FULLY_CONNECTED' ? [2, 4] : op === 'DEPTHWISE_CONV_2D' ? [1, 2, 2, 2] : [2, 2, 2, 2];
            const wq = quant(weight, 2);
            const wt = w.addConstant({ name: 'w', shape, dtype: weight, data: Array<number>(16).fill(1).slice(0, shape.reduce((a, b) => a * b, 1)), quant: wq && { ...wq, axis: op === 'DEPTHWISE_CONV_2D' ? 3 : 0 } });
            const b = bias === 'none' ? -1 : w.addConstant({ name: 'b', shape: [2], dtype: bias, data: bias === 'int64' ? [1n, 2n] : [1, 2], quant: quant(bias, 2) });
            const y = w.addTensor({ name: 'y', shape: op === 'FULLY_CONNECTED' ? [1, 2] : [1, 2, 2, 2], dtype: input, quant: quant(input, 1) });
            const options =
              op === 'CONV_2D' ? tfliteOptions.conv2d({ padding: 'VALID' }) : op === 'DEPTHWISE_CONV_2D' ? tfliteOptions.depthwiseConv2d({ padding: 'VALID' }) : tfliteOptions.fullyConnected();
            w.addOperator({ op, inputs: [x, wt, b], outputs: [y], options });
            w.markOutput(y);
            weightedCases.push([`${op} input ${input} weights ${weight} bias ${bias}`, w.finish()]);
          }
        }
      }
    }
    const escaped: string[] = [];
    let accepted = 0;
    for (const [name, model] of weightedCases) {
      if (checkTflite(model, name).unsupported.length > 0) continue;
      accepted++;
      try {
        compileModel(importTflite(model, name), { backend: 'vanilla', registry });
      } catch (e) {
        escaped.push(name);
      }
    }
    // A 16x8 depthwise with an int32 bias (TFLite Micro reads int64) is refused by the type
    // rule at import too, since a differential fuzz campaign met it past import.
    expect(escaped).toEqual([]);
    expect(accepted).toBeGreaterThan(20);
  });

  it('refusals that used to surface only at compile are now reported at import', () => {
    const refused = (model: Uint8Array): string => checkTflite(model, 'm.tflite').unsupported.map((u) => u.message).join('\n');
    const v4 = { shape: [4] };
    expect(refused(singleOp('DEQUANTIZE', 'float32', [v4], [[4]], undefined, 'float32'))).toMatch(/input dtype float32 \(supported: int8, uint8, int16\) on DEQUANTIZE/);
    expect(refused(singleOp('QUANTIZE', 'int32', [v4], [[4]], undefined, 'int8'))).toMatch(/input int32 tensor without quantization on QUANTIZE/);
    expect(refused(singleOp('ADD', 'int64', [v4, v4], [[4]], tfliteOptions.add()))).toMatch(/input 0 dtype int64 .* on ADD/);
    expect(refused(singleOp('SOFTMAX', 'int8', [{ shape: [1, 4] }], [[1, 4]], tfliteOptions.softmax()))).toMatch(/int8 output must have zero point -128 and scale 1\/256, got 0 .* on SOFTMAX/);
    expect(refused(singleOp('SOFTMAX', 'int32', [{ shape: [1, 4] }], [[1, 4]], tfliteOptions.softmax()))).toMatch(/dtypes int32 -> int32 \(supported: int8 -> int8/);
    // Weighted operators: the graph type rule compile applies runs at import.
    const weighted = (input: Dt, weight: WriterDType, bias: WriterDType): Uint8Array => {
      const w = new TfliteWriter();
      const x = w.addInput({ name: 'x', shape: [1, 4], dtype: input as WriterDType, quant: quantOf(input) });
      const wq = weight === 'float32' ? undefined : { scale: [0.1, 0.1], zeroPoint: [0, 0] };
      const wt = w.addConstant({ name: 'w', shape: [2, 4], dtype: weight, data: [1, 2, 3, 4, 5, 6, 7, 0], quant: wq });
      const bq = bias === 'float32' ? undefined : { scale: [0.01, 0.01], zeroPoint: [0, 0] };
      const b = w.addConstant({ name: 'b', shape: [2], dtype: bias, data: bias === 'int64' ? [1n, 2n] : [1, 2], quant: bq });
      const y = w.addTensor({ name: 'y', shape: [1, 2], dtype: input as WriterDType, quant: quantOf(input) });
      w.addOperator({ op: 'FULLY_CONNECTED', inputs: [x, wt, b], outputs: [y], options: tfliteOptions.fullyConnected() });
      w.markOutput(y);
      return w.finish();
    };
    expect(refused(weighted('int8', 'float32', 'int32'))).toMatch(/dense: weight dtype float32 does not fit input dtype int8.* on FULLY_CONNECTED at operator #0/);
    expect(refused(weighted('int16', 'int8', 'int16'))).toMatch(/dense: bias dtype int16 does not fit input dtype int16.* on FULLY_CONNECTED at operator #0/);
    expect(refused(weighted('int8', 'int8', 'int64'))).toMatch(/dense: bias dtype int64 does not fit input dtype int8: an int8 input takes an int32 bias/);
    expect(refused(weighted('uint8', 'int8', 'int32'))).toMatch(/dense: input dtype uint8 is not float32, int8 or int16/);
    expect(refused(weighted('int8', 'int8', 'int32'))).toBe('');
    expect(refused(singleOp('MAX_POOL_2D', 'int32', [{ shape: [1, 2, 2, 1] }], [[1, 1, 1, 1]], tfliteOptions.pool2d({ filterW: 2, filterH: 2 })))).toMatch(
      /input dtype int32 \(supported: float32, int8, int16\) on MAX_POOL_2D/,
    );
    // Block shapes and crops that do not fit the input: named by operator (before: only by
    // the output tensor's name, when compile checked the graph).
    const blocks = (op: string, crops: number[], out: number[]) => singleOp(op, 'int8', [{ shape: [4, 1, 1, 1] }, { shape: [2], data: [2, 2] }, { shape: [2, 2], data: crops }], [out]);
    expect(refused(blocks('BATCH_TO_SPACE_ND', [1, 1, 0, 0], [1, 0, 2, 1]))).toMatch(/batch_to_space_nd: crops leave no output \(\[0, 2\]\).* on BATCH_TO_SPACE_ND at operator #0/);
    expect(refused(blocks('BATCH_TO_SPACE_ND', [0, 0, 0, 0], [1, 2, 2, 1]))).toBe('');
    expect(refused(singleOp('SPACE_TO_DEPTH', 'int8', [{ shape: [1, 3, 2, 1] }], [[1, 1, 1, 4]], tfliteOptions.spaceToDepth(2)))).toMatch(
      /height 3 and width 2 must be multiples of block_size 2.* on SPACE_TO_DEPTH at operator #0/,
    );
  });

  it('int8/int16 operands without quantization of the operators TFLite Micro rescales are refused at import, each compiling once quantized', () => {
    // Found by fuzzing stateful int16 models: MUL of unquantized int16 tensors imported, then
    // compile and the interpreter refused it ("lhs ... has no quantization parameters").
    const cases: [string, (dt: 'int8' | 'int16', quantized: boolean) => Uint8Array][] = [
      ['ADD', (dt, q) => plainOp('ADD', dt, q, 2, [4], tfliteOptions.add())],
      ['SUB', (dt, q) => plainOp('SUB', dt, q, 2, [4], tfliteOptions.sub())],
      ['MUL', (dt, q) => plainOp('MUL', dt, q, 2, [4], tfliteOptions.mul())],
      ['SQUARED_DIFFERENCE', (dt, q) => plainOp('SQUARED_DIFFERENCE', dt, q, 2, [4])],
      ['MEAN', (dt, q) => plainOp('MEAN', dt, q, 1, [1], tfliteOptions.reducer(true))],
      ['SUM', (dt, q) => plainOp('SUM', dt, q, 1, [1], tfliteOptions.reducer(true))],
    ];
    for (const [op, model] of cases) {
      for (const dt of ['int8', 'int16'] as const) {
        const unsupported = checkTflite(model(dt, false), 'm.tflite').unsupported;
        expect(unsupported.map((u) => u.message)).toEqual([expect.stringMatching(new RegExp(`^unsupported input 0 ${dt} tensor without quantization on ${op} at operator #0 in m\\.tflite$`))]);
        compileModel(importTflite(model(dt, true), 'q.tflite'), { backend: 'vanilla', registry });
      }
    }
    expect(checkTflite(plainOp('DIV', 'int8', false, 2, [4], tfliteOptions.div()), 'm.tflite').unsupported[0].message).toMatch(/input 0 int8 tensor without quantization on DIV/);
  });
});

/** `op` over `inputs` [4] tensors of `dtype` (a constant axis 0 for the reducers), quantized (scale 0.1, zero point 0) or not. */
function plainOp(op: string, dtype: 'int8' | 'int16', quantized: boolean, inputs: number, outShape: number[], options?: WriterOptions): Uint8Array {
  const w = new TfliteWriter();
  const quant = quantized ? { scale: [0.1], zeroPoint: [0] } : undefined;
  const xs = Array.from({ length: inputs }, (_, k) => w.addInput({ name: `x${k}`, shape: [4], dtype, quant }));
  if (op === 'MEAN' || op === 'SUM') xs.push(w.addConstant({ name: 'axis', shape: [1], dtype: 'int32', data: [0] }));
  const y = w.addTensor({ name: 'y', shape: outShape, dtype, quant });
  w.addOperator({ op, inputs: xs, outputs: [y], options });
  w.markOutput(y);
  return w.finish();
}
