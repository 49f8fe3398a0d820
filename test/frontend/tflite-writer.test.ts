import { readFileSync } from 'fs';
import { join } from 'path';
import { importTflite } from '../../src/frontend/tflite';
import * as S from '../../src/frontend/tflite/schema';
import { BUILTIN_OPTIONS, TfliteWriter, WriterDType, WriterOptions, tfliteOptions, writeTflite } from '../../src/frontend/tflite/writer';
import { checkFunctionTypes } from '../../src/ir/graph/typeInference';
import { CallNode, ConstantNode, MAIN_FUNCTION, VarNode } from '../../src/ir/graph/types';
import { RawTflite } from './rawTflite';

const MODELS = join(__dirname, '..', '..', 'models');

const DTYPE_OF: Record<number, WriterDType> = {
  [S.TensorTypeCode.FLOAT32]: 'float32',
  [S.TensorTypeCode.INT8]: 'int8',
  [S.TensorTypeCode.UINT8]: 'uint8',
  [S.TensorTypeCode.INT16]: 'int16',
  [S.TensorTypeCode.INT32]: 'int32',
  [S.TensorTypeCode.INT64]: 'int64',
  [S.TensorTypeCode.BOOL]: 'bool',
};
const ACT = ['NONE', 'RELU', 'RELU_N1_TO_1', 'RELU6', 'TANH', 'SIGN_BIT'] as const;
const PAD = ['SAME', 'VALID'] as const;

/** Rebuilds a model's options with the writer's typed helpers, read back through the importer's schema accessors. */
function rebuildOptions(op: S.Operator): WriterOptions | undefined {
  switch (op.builtinOptionsType) {
    case S.BuiltinOptionsType.NONE:
      return undefined;
    case S.BuiltinOptionsType.Conv2DOptions: {
      const o = op.builtinOptions(S.Conv2DOptions)!;
      return tfliteOptions.conv2d({
        padding: PAD[o.padding],
        strideW: o.strideW,
        strideH: o.strideH,
        activation: ACT[o.fusedActivation],
        dilationW: o.dilationW,
        dilationH: o.dilationH,
      });
    }
    case S.BuiltinOptionsType.DepthwiseConv2DOptions: {
      const o = op.builtinOptions(S.DepthwiseConv2DOptions)!;
      return tfliteOptions.depthwiseConv2d({
        padding: PAD[o.padding],
        strideW: o.strideW,
        strideH: o.strideH,
        depthMultiplier: o.depthMultiplier,
        activation: ACT[o.fusedActivation],
        dilationW: o.dilationW,
        dilationH: o.dilationH,
      });
    }
    case S.BuiltinOptionsType.Pool2DOptions: {
      const o = op.builtinOptions(S.Pool2DOptions)!;
      return tfliteOptions.pool2d({
        padding: PAD[o.padding],
        strideW: o.strideW,
        strideH: o.strideH,
        filterW: o.filterWidth,
        filterH: o.filterHeight,
        activation: ACT[o.fusedActivation],
      });
    }
    case S.BuiltinOptionsType.ReshapeOptions:
      return tfliteOptions.reshape(op.builtinOptions(S.ReshapeOptions)!.newShape);
    case S.BuiltinOptionsType.SoftmaxOptions:
      return tfliteOptions.softmax(op.builtinOptions(S.SoftmaxOptions)!.beta);
    case S.BuiltinOptionsType.FullyConnectedOptions: {
      const o = op.builtinOptions(S.FullyConnectedOptions)!;
      return tfliteOptions.fullyConnected({ activation: ACT[o.fusedActivation], keepNumDims: o.keepNumDims });
    }
    default:
      throw new Error(`no rebuild for options type ${op.builtinOptionsType}`);
  }
}

/** Writes a bundled model again, tensor by tensor and operator by operator. */
function rebuild(bytes: Uint8Array): Uint8Array {
  const model = S.Model.open(bytes, 'rebuild');
  const sg = model.subgraphs[0];
  const buffers = model.buffers;
  const codes = model.operatorCodes;
  const w = new TfliteWriter();
  for (const t of sg.tensors) {
    const q = t.quantization;
    const data = t.buffer > 0 ? buffers[t.buffer].data : null;
    w.addTensor({
      name: t.name,
      shape: t.shape,
      dtype: DTYPE_OF[t.type],
      quant: q && q.scale.length > 0 ? { scale: q.scale, zeroPoint: q.zeroPoint.map(Number), axis: q.quantizedDimension } : undefined,
      data: data && data.length > 0 ? data : undefined,
      isVariable: t.isVariable,
    });
  }
  for (const op of sg.operators) {
    const code = codes[op.opcodeIndex];
    w.addOperator({ op: code.effectiveBuiltinCode, version: code.version, inputs: op.inputs, outputs: op.outputs, options: rebuildOptions(op) });
  }
  sg.inputs.forEach((i) => w.markInput(i));
  sg.outputs.forEach((i) => w.markOutput(i));
  return w.finish();
}

describe('TfliteWriter', () => {
  it('writes a per-channel int8 conv2d that imports with every field intact', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 5, 5, 2], dtype: 'int8', quant: { scale: [0.05], zeroPoint: [-3] } });
    const weights = Array.from({ length: 3 * 3 * 3 * 2 }, (_, i) => (i % 11) - 5);
    const f = w.addConstant({
      name: 'w',
      shape: [3, 3, 3, 2],
      dtype: 'int8',
      quant: { scale: [0.01, 0.02, 0.03], zeroPoint: [0, 0, 0], axis: 0 },
      data: weights,
    });
    const bias = w.addConstant({ name: 'b', shape: [3], dtype: 'int32', quant: { scale: [5e-4, 1e-3, 1.5e-3] }, data: [100, -200, 70000] });
    const y = w.addTensor({ name: 'y', shape: [1, 2, 2, 3], dtype: 'int8', quant: { scale: [0.1], zeroPoint: [5] } });
    w.addOperator({ op: 'CONV_2D', inputs: [x, f, bias], outputs: [y], options: tfliteOptions.conv2d({ padding: 'VALID', strideW: 2, strideH: 2, activation: 'RELU6' }) });
    w.markOutput(y);
    const bytes = w.finish();

    const raw = new RawTflite(bytes);
    expect(raw.operatorBuiltins()).toEqual([3]);
    const mod = importTflite(bytes, 'conv.tflite');
    const fn = mod.functions.get(MAIN_FUNCTION)!;
    checkFunctionTypes(fn);
    expect(fn.params).toEqual(['x']);
    expect(fn.outputs).toEqual(['y']);
    const param = fn.nodes[0] as VarNode;
    expect(param.type).toEqual({ shape: [1, 5, 5, 2], dtype: 'int8', quant: { scale: [Math.fround(0.05)], zeroPoint: [-3], axis: 0 } });
    const wNode = fn.nodes.find((n) => n.name === 'w') as ConstantNode;
    expect(Array.from(new Int8Array(wNode.data.buffer, wNode.data.byteOffset, wNode.data.length))).toEqual(weights);
    expect(wNode.type.quant!.scale).toEqual([0.01, 0.02, 0.03].map(Math.fround));
    const bNode = fn.nodes.find((n) => n.name === 'b') as ConstantNode;
    expect(Array.from(new Int32Array(bNode.data.slice().buffer))).toEqual([100, -200, 70000]);
    const call = fn.nodes.find((n) => n.kind === 'call') as CallNode;
    expect(call.callee).toEqual({ kind: 'op', op: 'conv2d' });
    expect(call.args).toEqual(['x', 'w', 'b']);
    expect(call.attrs).toMatchObject({ strides: [2, 2], padding: [0, 0, 0, 0], activation: 'RELU6' });
  });

  it('stores constant data 16-byte aligned and opcodes with both builtin code fields', () => {
    const bytes = writeTflite({
      tensors: [
        { name: 'a', shape: [3], dtype: 'float32' },
        { name: 'c', shape: [3], dtype: 'float32', data: new Float32Array([1, 2, 3]) },
        { name: 'o', shape: [3], dtype: 'float32' },
        { name: 'o2', shape: [3], dtype: 'float32' },
      ],
      operators: [
        { op: 'ADD', inputs: [0, 1], outputs: [2], options: tfliteOptions.add() },
        { op: 'HARD_SWISH', inputs: [2], outputs: [3] },
      ],
      inputs: [0],
      outputs: [3],
    });
    const raw = new RawTflite(bytes);
    // buffer 1 = constant c: its data vector starts on a 16-byte boundary.
    const buf = raw.buffers[1];
    const dataPos = raw.fieldPos(buf, 0);
    const vec = dataPos + new DataView(bytes.buffer, bytes.byteOffset).getUint32(dataPos, true);
    expect((vec + 4) % 16).toBe(0);
    expect(Array.from(new Float32Array(bytes.slice(vec + 4, vec + 16).buffer))).toEqual([1, 2, 3]);
    const codes = raw.operatorCodes.map((c) => [raw.int8(c, 0, -99), raw.int32(c, 3, -99), raw.int32(c, 2, -99)]);
    expect(codes).toEqual([
      [0, 0, 1],
      [117, 117, 1],
    ]);
    // model version 3
    expect(raw.int32(raw.root, 0, 0)).toBe(3);
  });

  it('writes codes above 127 with the placeholder in the deprecated field', () => {
    const w = new TfliteWriter();
    const a = w.addInput({ shape: [1, 3], dtype: 'float32' });
    const s = w.addConstant({ shape: [2], dtype: 'int32', data: [2, 3] });
    const o = w.addTensor({ shape: [2, 3], dtype: 'float32' });
    w.addOperator({ op: 'BROADCAST_TO', inputs: [a, s], outputs: [o] });
    w.markOutput(o);
    const raw = new RawTflite(w.finish());
    const c = raw.operatorCodes[0];
    expect([raw.int8(c, 0, -1), raw.int32(c, 3, -1)]).toEqual([127, 130]);
    expect(raw.operatorBuiltins()).toEqual([130]);
  });

  it('writes omitted inputs as -1, variable tensors, int16/int64/bool data and options tables', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'int16', quant: { scale: [1 / 32768], zeroPoint: [0] } });
    const v = w.addTensor({ name: 'state', shape: [1, 4], dtype: 'int16', isVariable: true });
    const c64 = w.addConstant({ name: 'c64', shape: [2], dtype: 'int64', data: [-(2n ** 40n), 7n] });
    const cb = w.addConstant({ name: 'cb', shape: [3], dtype: 'bool', data: [1, 0, 1] });
    const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'int16' });
    w.addOperator({ op: 'STRIDED_SLICE', inputs: [x, -1, v, c64, cb], outputs: [y], options: tfliteOptions.stridedSlice({ beginMask: 5, shrinkAxisMask: 2, offset: true }) });
    w.markOutput(y);
    const bytes = w.finish();
    const model = S.Model.open(bytes, 'm');
    const sg = model.subgraphs[0];
    const op = sg.operators[0];
    expect(op.inputs).toEqual([0, -1, 1, 2, 3]);
    expect(op.builtinOptionsType).toBe(BUILTIN_OPTIONS.StridedSliceOptions);
    // Raw field reads of the options table: begin_mask 0, end_mask 1, shrink 4, offset 5.
    const raw = new RawTflite(bytes);
    const opts = raw.table(raw.operators()[0], 4);
    expect([0, 1, 2, 3, 4].map((id) => raw.int32(opts, id, -1))).toEqual([5, 0, 0, 0, 2]);
    expect(raw.int8(opts, 5, -1)).toBe(1);
    expect(sg.tensors[1].isVariable).toBe(true);
    expect(sg.tensors[0].type).toBe(S.TensorTypeCode.INT16);
    const d64 = model.buffers[sg.tensors[2].buffer].data!;
    expect(Array.from(new BigInt64Array(d64.slice().buffer))).toEqual([-(2n ** 40n), 7n]);
    expect(Array.from(model.buffers[sg.tensors[3].buffer].data!)).toEqual([1, 0, 1]);
  });

  it('rejects data of the wrong size and operators naming missing tensors', () => {
    const w = new TfliteWriter();
    expect(() => w.addConstant({ name: 'c', shape: [4], dtype: 'int16', data: [1, 2, 3] })).not.toThrow();
    expect(() => w.finish()).toThrow(/tensor 'c' has 6 data bytes, its 4 int16 elements need 8/);
    const w2 = new TfliteWriter();
    w2.addInput({ shape: [1], dtype: 'float32' });
    expect(() => w2.addOperator({ op: 'RELU', inputs: [0], outputs: [5] })).toThrow(/refers to tensor 5 of 1/);
    expect(() => w2.addOperator({ op: 'NOT_AN_OP', inputs: [0], outputs: [0] })).toThrow(/unknown builtin operator "NOT_AN_OP"/);
  });

  it('rebuilds person_detect operator by operator into the same graph', () => {
    const original = new Uint8Array(readFileSync(join(MODELS, 'person_detect.tflite')));
    const rebuilt = rebuild(original);
    const a = importTflite(original, 'm').functions.get(MAIN_FUNCTION)!;
    const b = importTflite(rebuilt, 'm').functions.get(MAIN_FUNCTION)!;
    expect(b.nodes.filter((n) => n.kind === 'call').length).toBeGreaterThan(20);
    expect(b).toEqual(a);
  });
});
