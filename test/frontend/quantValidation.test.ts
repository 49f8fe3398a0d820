/**
 * Quantization parameters are validated at import (issue 14, item 6): a zero point outside
 * its tensor type's range (int32/int64 tensors: only 0), a scale that is NaN, infinite, 0
 * or negative, per-tensor or per-channel, is an error naming the file, the tensor and the
 * operator, instead of being compiled into wrapped or zeroed constants.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { ModelFormatError, TypeInferenceError } from '../../src/errors';
import { IRModule, MAIN_FUNCTION, Quantization } from '../../src/ir/graph/types';
import { importTflite } from '../../src/frontend/tflite';
import { quantSlots } from './quantSlots';
import { TfliteWriter } from '../../src/frontend/tflite/writer';

const MODELS = join(__dirname, '..', '..', 'models');

const TYPE_INT32 = 2;
const TYPE_INT8 = 9;

function load(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(MODELS, name)));
}

function patched(bytes: Uint8Array, edit: (dv: DataView) => void): Uint8Array {
  const copy = new Uint8Array(bytes);
  edit(new DataView(copy.buffer));
  return copy;
}

function importError(bytes: Uint8Array, file: string): ModelFormatError {
  try {
    importTflite(bytes, file);
  } catch (e) {
    expect(e).toBeInstanceOf(ModelFormatError);
    expect((e as Error).message.split('\n')).toHaveLength(1);
    return e as ModelFormatError;
  }
  throw new Error('import succeeded');
}

describe('quantization parameters are validated at import', () => {
  const hello = load('hello_world_int8.tflite');
  const slots = quantSlots(hello);
  const int8 = slots.find((s) => s.type === TYPE_INT8 && s.scale.length === 1)!;
  const int32 = slots.find((s) => s.type === TYPE_INT32)!;

  it('finds the tensors it patches', () => {
    expect(int8).toBeDefined();
    expect(int32).toBeDefined();
    expect(() => importTflite(hello, 'hello.tflite')).not.toThrow();
  });

  it.each([
    [-2147483776n, /zero point -2147483776 is outside int8's range \[-128, 127\]/],
    [2n ** 63n - 128n, /zero point 9223372036854775680 is outside int8's range/],
    [128n, /zero point 128 is outside int8's range/],
  ])('int8 zero point %s', (zp, pattern) => {
    const bad = patched(hello, (dv) => dv.setBigInt64(int8.zeroPoint[0], zp, true));
    const e = importError(bad, 'hello.tflite');
    expect(e.message).toMatch(pattern);
    expect(e.message).toContain('hello.tflite');
    expect(e.message).toContain(`'${int8.name}'`);
    expect(e.message).toMatch(/(input|output) of [A-Z_0-9]+ at operator #\d+|model input/);
  });

  it('int32 (bias) zero point must be 0', () => {
    const bad = patched(hello, (dv) => dv.setBigInt64(int32.zeroPoint[0], 3n, true));
    const e = importError(bad, 'hello.tflite');
    expect(e.message).toMatch(/zero point 3 must be 0 for int32 tensors/);
    expect(e.message).toContain(`'${int32.name}'`);
    expect(e.message).toMatch(/input of FULLY_CONNECTED at operator #\d+/);
  });

  it.each([NaN, Infinity, -Infinity, 0, -1])('scale %s', (scale) => {
    const bad = patched(hello, (dv) => dv.setFloat32(int8.scale[0], scale, true));
    expect(importError(bad, 'hello.tflite').message).toMatch(new RegExp(`scale ${String(scale)} is not a finite number > 0`));
  });

  it('per-channel: the bad channel is named', () => {
    const model = load('person_detect.tflite');
    const perChannel = quantSlots(model).find((s) => s.type === TYPE_INT8 && s.scale.length > 4)!;
    expect(perChannel).toBeDefined();
    const bad = patched(model, (dv) => dv.setFloat32(perChannel.scale[3], NaN, true));
    const e = importError(bad, 'person_detect.tflite');
    expect(e.message).toMatch(/scale of channel 3 NaN is not a finite number > 0/);
    expect(e.message).toContain(`'${perChannel.name}'`);
  });
});

describe('a zero point numbers cannot hold exactly is refused whatever the type', () => {
  // Regression: a float tensor's zero point is not range-checked (calibration data), so 2^62 was
  // imported as 4611686018427388000; \`compile\` accepted the model and \`run\` (which checks the
  // imported graph again) refused it with "zero point 4611686018427388000 is not an integer".
  function reluWithOutputZeroPoint(zeroPoint: number): Uint8Array {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'float32' });
    const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'float32', quant: { scale: [1], zeroPoint: [zeroPoint] } });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    return w.finish();
  }

  it('a float tensor with zero point 2^62 is a ModelFormatError naming the tensor', () => {
    const e = importError(reluWithOutputZeroPoint(2 ** 62), 'relu.tflite');
    expect(e.message).toMatch(/relu\.tflite: invalid quantization of tensor #1 'y' \(float32, .*\): zero point 4611686018427387904 is outside -\(2\^53-1\)\.\.2\^53-1/);
  });

  it('a float tensor with a small zero point is still imported (calibration data)', () => {
    expect(() => importTflite(reluWithOutputZeroPoint(-7), 'relu.tflite')).not.toThrow();
    expect(() => importTflite(reluWithOutputZeroPoint(2 ** 53 - 1), 'relu.tflite')).not.toThrow();
  });
});

describe('graph-IR modules built in code get the same checks before compiling', () => {
  it('an out-of-range zero point or a NaN scale is a TypeInferenceError naming the node', () => {
    const graph = importTflite(load('hello_world_int8.tflite'), 'hello.tflite');
    const main = graph.functions.get(MAIN_FUNCTION)!;
    const target = main.nodes.find((n) => n.kind === 'call' && n.type.quant !== undefined)!;
    const withQuant = (quant: Quantization): IRModule => ({
      ...graph,
      functions: new Map([[MAIN_FUNCTION, { ...main, nodes: main.nodes.map((n) => (n === target ? { ...n, type: { ...n.type, quant } } : n)) }]]),
    });
    const registry = new BackendRegistry();
    registry.register(VanillaBackend);
    const compile = (m: IRModule) => () => compileModel(m, { backend: 'vanilla', registry });
    expect(compile(withQuant({ scale: [0.5], zeroPoint: [-2147483776], axis: 0 }))).toThrow(TypeInferenceError);
    expect(compile(withQuant({ scale: [0.5], zeroPoint: [-2147483776], axis: 0 }))).toThrow(
      `invalid quantization of '${target.name}' (int8) in main: zero point -2147483776 is outside int8's range [-128, 127]`,
    );
    expect(compile(withQuant({ scale: [NaN], zeroPoint: [0], axis: 0 }))).toThrow(/scale NaN is not a finite number > 0/);
    expect(compile(withQuant({ scale: [0.5], zeroPoint: [0.5], axis: 0 }))).toThrow(/zero point 0.5 is not an integer/);
    expect(() => compile(graph)()).not.toThrow();
  });
});
