import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { importTflite, loadTfliteFile } from '../../src/frontend/tflite';
import { resolvePadding } from '../../src/frontend/tflite/padding';
import { checkFunctionTypes } from '../../src/ir/graph/typeInference';
import { CallNode, GraphFunction, isOpCall, MAIN_FUNCTION, tensorBytes } from '../../src/ir/graph/types';
import { RawTflite } from './rawTflite';

const MODELS = join(__dirname, '..', '..', 'models');
const modelFiles = readdirSync(MODELS).filter((f) => f.endsWith('.tflite')).sort();

/** The brief's builtin → canonical op table, written out independently of the importer. */
const CANONICAL: Record<number, string> = {
  0: 'add',
  1: 'avg_pool2d',
  3: 'conv2d',
  4: 'depthwise_conv2d',
  6: 'dequantize',
  9: 'dense',
  17: 'max_pool2d',
  22: 'reshape',
  25: 'softmax',
  27: 'svdf',
  114: 'quantize',
};

function mainOf(file: string): GraphFunction {
  return loadTfliteFile(join(MODELS, file)).functions.get(MAIN_FUNCTION)!;
}

function calls(fn: GraphFunction): CallNode[] {
  return fn.nodes.filter((n): n is CallNode => n.kind === 'call');
}

function counts(ops: readonly string[]): Record<string, number> {
  const c: Record<string, number> = {};
  for (const op of ops) c[op] = (c[op] ?? 0) + 1;
  return c;
}

describe('TFLite importer on every model in models/', () => {
  it('finds the models', () => {
    expect(modelFiles.length).toBeGreaterThanOrEqual(16);
  });

  it.each(modelFiles)('%s imports, type-checks and matches a second reader', (file) => {
    const bytes = new Uint8Array(readFileSync(join(MODELS, file)));
    const raw = new RawTflite(bytes);
    const fn = importTflite(bytes, file).functions.get(MAIN_FUNCTION)!;
    expect(() => checkFunctionTypes(fn)).not.toThrow();

    // Same operators, in the same order, as the raw FlatBuffer walk sees.
    const rawOps = raw.operatorBuiltins().map((b) => CANONICAL[b] ?? `builtin ${b}`);
    const imported = calls(fn).map((c) => (c.callee.kind === 'op' ? c.callee.op : '?'));
    expect(imported).toEqual(rawOps);

    // Names are unique and every node is defined before use.
    const seen = new Set<string>();
    for (const n of fn.nodes) {
      expect(seen.has(n.name)).toBe(false);
      if (n.kind === 'call') for (const a of n.args) expect(seen.has(a)).toBe(true);
      seen.add(n.name);
    }
    // Params and outputs are subgraph 0's inputs and outputs.
    expect(fn.params.length).toBe(raw.ints(raw.subgraph0, 1).length);
    expect(fn.outputs.length).toBe(raw.ints(raw.subgraph0, 2).length);

    // Each constant's bytes are its type's size.
    for (const n of fn.nodes) if (n.kind === 'constant') expect(n.data.length).toBe(tensorBytes(n.type));
  });
});

describe('operator counts', () => {
  it('person_detect is MobileNet v1 (raw reader: 14 conv, 14 depthwise)', () => {
    const raw = new RawTflite(new Uint8Array(readFileSync(join(MODELS, 'person_detect.tflite'))));
    const rawCounts = counts(raw.operatorBuiltins().map((b) => CANONICAL[b]));
    expect(rawCounts).toEqual({ conv2d: 14, depthwise_conv2d: 14, avg_pool2d: 1, reshape: 1, softmax: 1 });
    expect(counts(calls(mainOf('person_detect.tflite')).map((c) => (c.callee as { op: string }).op))).toEqual(rawCounts);
  });

  it('hello_world is three fully connected layers, the first two with RELU', () => {
    for (const file of ['hello_world_int8.tflite', 'hello_world_float.tflite']) {
      const cs = calls(mainOf(file));
      expect(cs.map((c) => (c.callee as { op: string }).op)).toEqual(['dense', 'dense', 'dense']);
      expect(cs.map((c) => c.attrs.activation)).toEqual(['RELU', 'RELU', 'NONE']);
      expect(cs.map((c) => c.type.shape)).toEqual([[1, 16], [1, 16], [1, 1]]);
    }
  });

  it('vww_96 int8 and float have the same structure', () => {
    const opsOf = (f: string) => calls(mainOf(f)).map((c) => (c.callee as { op: string }).op);
    expect(opsOf('vww_96_int8.tflite')).toEqual(opsOf('vww_96_float.tflite'));
  });

  it('simple_add_model is one add of two inputs', () => {
    const fn = mainOf('simple_add_model.tflite');
    expect(fn.params).toHaveLength(2);
    const [add] = calls(fn);
    expect(isOpCall(add, 'add')).toBe(true);
    expect(add.args).toEqual(fn.params);
    expect(fn.outputs).toEqual([add.name]);
  });
});

describe('attributes', () => {
  it('resolves asymmetric SAME padding of kws_ref_model\'s first conv like TFLite', () => {
    const bytes = new Uint8Array(readFileSync(join(MODELS, 'kws_ref_model.tflite')));
    const raw = new RawTflite(bytes);
    expect(raw.operatorBuiltins()[0]).toBe(3); // CONV_2D
    const options = raw.table(raw.operators()[0], 4);
    // Conv2DOptions: padding (field 0) SAME = 0, stride_w (1), stride_h (2).
    expect(raw.int8(options, 0, 0)).toBe(0);
    expect([raw.int32(options, 2, 0), raw.int32(options, 1, 0)]).toEqual([2, 2]);

    const conv = calls(importTflite(bytes, 'kws').functions.get(MAIN_FUNCTION)!)[0];
    expect(conv.callee).toEqual({ kind: 'op', op: 'conv2d' });
    expect(conv.type.shape).toEqual([1, 25, 5, 64]);
    // Input 49x10, filter 10x4, stride 2. H: out 25, total 24*2 + 10 - 49 = 9 -> 4 top, 5 bottom.
    // W: out 5, total 4*2 + 4 - 10 = 2 -> 1 left, 1 right.
    expect(conv.attrs.padding).toEqual([4, 1, 5, 1]);
    expect(conv.attrs.strides).toEqual([2, 2]);
    expect(conv.attrs.dilation).toEqual([1, 1]);
  });

  it('resolves SAME padding of person_detect\'s first (depthwise, multiplier 8) layer', () => {
    const first = calls(mainOf('person_detect.tflite'))[0];
    expect(first.callee).toEqual({ kind: 'op', op: 'depthwise_conv2d' });
    // 96 input, 3x3 filter, stride 2: out 48, total 47*2 + 3 - 96 = 1 -> top 0, bottom 1.
    expect(first.attrs.padding).toEqual([0, 0, 1, 1]);
    expect(first.attrs.depth_multiplier).toBe(8);
  });

  it('keeps per-channel quantization with its axis', () => {
    const fn = mainOf('person_detect.tflite');
    const byName = new Map(fn.nodes.map((n) => [n.name, n]));
    const depthwise = calls(fn)[0];
    const dwWeight = byName.get(depthwise.args[1])!.type;
    expect(dwWeight.quant!.axis).toBe(3);
    expect(dwWeight.quant!.scale).toHaveLength(dwWeight.shape[3]);
    const conv = calls(fn).find((c) => isOpCall(c, 'conv2d'))!;
    const convWeight = byName.get(conv.args[1])!.type;
    expect(convWeight.quant!.axis).toBe(0);
    expect(convWeight.quant!.scale).toHaveLength(convWeight.shape[0]);
    expect(byName.get(fn.params[0])!.type.quant!.scale).toHaveLength(1);
  });

  it('derives depthwise depth_multiplier and drops the reshape shape input', () => {
    const fn = mainOf('kws_ref_model.tflite');
    for (const c of calls(fn)) {
      if (isOpCall(c, 'depthwise_conv2d')) expect(c.attrs.depth_multiplier).toBe(1);
      if (isOpCall(c, 'reshape')) expect(c.args).toHaveLength(1);
    }
  });

  it('imports SVDF state as a zero constant and keeps the bias slot', () => {
    const fn = mainOf('keyword_scrambled.tflite');
    const raw = new RawTflite(new Uint8Array(readFileSync(join(MODELS, 'keyword_scrambled.tflite'))));
    const svdfs = calls(fn).filter((c) => isOpCall(c, 'svdf'));
    expect(svdfs.length).toBeGreaterThan(0);
    expect(svdfs.length).toBe(raw.operatorBuiltins().filter((b) => b === 27).length);
    for (const s of svdfs) {
      const state = fn.nodes.find((n) => n.name === s.args[s.args.length - 1])!;
      expect(state.kind).toBe('constant');
      if (state.kind === 'constant') expect(state.data.every((b) => b === 0)).toBe(true);
      expect(s.attrs.rank).toBeGreaterThanOrEqual(1);
    }
  });

  it('keeps TFLite input and output tensor names', () => {
    const fn = mainOf('hello_world_int8.tflite');
    expect(fn.params).toEqual(['serving_default_dense_input:0']);
    expect(fn.outputs).toEqual(['StatefulPartitionedCall:0']);
    expect(fn.attrs.tflite_input_names).toEqual(['serving_default_dense_input:0']);
  });
});

describe('resolvePadding (TFLite ComputePaddingHeightWidth)', () => {
  it.each([
    // [input, filter, stride, dilation, mode, expected [top, left, bottom, right]]
    [5, 3, 2, 1, 'SAME', [1, 1, 1, 1]], // out 3: total 2*2+3-5 = 2
    [4, 3, 2, 1, 'SAME', [0, 0, 1, 1]], // out 2: total 1*2+3-4 = 1
    [7, 3, 1, 2, 'SAME', [2, 2, 2, 2]], // dilated filter 5: total 6+5-7 = 4
    [10, 1, 1, 1, 'SAME', [0, 0, 0, 0]],
    [9, 3, 2, 1, 'VALID', [0, 0, 0, 0]],
  ] as const)('in %i filter %i stride %i dilation %i %s', (input, filter, stride, dilation, mode, expected) => {
    expect(
      resolvePadding(mode, { input: [input, input], filter: [filter, filter], strides: [stride, stride], dilation: [dilation, dilation] }),
    ).toEqual(expected);
  });

  it('pads height and width independently', () => {
    expect(resolvePadding('SAME', { input: [4, 5], filter: [3, 3], strides: [2, 2], dilation: [1, 1] })).toEqual([0, 1, 1, 1]);
  });
});

describe('variable tensors', () => {
  it('start as TFLite Micro resets them: int8 state at its zero point, int16 state at 0', () => {
    const check = (file: string): { dtype: string; zp: number; values: number[] }[] => {
      const main = loadTfliteFile(file).functions.get('main')!;
      return main.nodes
        .filter((n): n is Extract<typeof n, { kind: 'constant' }> => n.kind === 'constant' && n.variable === true)
        .map((n) => ({
          dtype: n.type.dtype,
          zp: n.type.quant?.zeroPoint[0] ?? 0,
          values: [...new Set(n.type.dtype === 'int8' ? Array.from(new Int8Array(n.data.slice().buffer)) : Array.from(new Int16Array(n.data.slice().buffer)))],
        }));
    };
    const int8 = check('models/keyword_scrambled_8bit.tflite');
    expect(int8.length).toBeGreaterThan(0);
    expect(int8.some((v) => v.zp !== 0)).toBe(true);
    for (const v of int8) expect(v).toEqual({ dtype: 'int8', zp: v.zp, values: [v.zp] });
    const int16 = check('models/keyword_scrambled.tflite');
    expect(int16.length).toBeGreaterThan(0);
    for (const v of int16) expect(v.values).toEqual([0]);
  });
});
