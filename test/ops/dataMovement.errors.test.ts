import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { UnsupportedOperatorError } from '../../src/errors';
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { tfliteOptions } from '../../src/frontend/tflite/writer';
import { i32c, importErrorOf, SingleOp, singleOpTflite, t } from './tfliteModels';

describe('data movement: unsupported parameters are one-line errors naming operator, index and parameter', () => {
  it.each([
    [
      'non-constant paddings',
      { name: 'p', op: 'PAD', inputs: [t([2, 3], 'float32'), { shape: [2, 2], dtype: 'int32' }], outputs: [t([4, 5], 'float32')] } as SingleOp,
      'unsupported non-constant paddings (input 1) on PAD at operator #0 in m.tflite',
    ],
    [
      'ellipsis_mask',
      {
        name: 'e',
        op: 'STRIDED_SLICE',
        inputs: [t([4, 4], 'int8'), i32c([0, 0]), i32c([2, 2]), i32c([1, 1])],
        outputs: [t([2, 2], 'int8')],
        options: tfliteOptions.stridedSlice({ ellipsisMask: 1 }),
      } as SingleOp,
      'unsupported ellipsis_mask 1 (TFLite Micro ignores it) on STRIDED_SLICE at operator #0 in m.tflite',
    ],
    [
      'new_axis_mask',
      {
        name: 'n',
        op: 'STRIDED_SLICE',
        inputs: [t([4, 4], 'int8'), i32c([0, 0]), i32c([2, 2]), i32c([1, 1])],
        outputs: [t([1, 2, 2], 'int8')],
        options: tfliteOptions.stridedSlice({ newAxisMask: 1 }),
      } as SingleOp,
      'unsupported new_axis_mask 1 (TFLite Micro ignores it) on STRIDED_SLICE at operator #0 in m.tflite',
    ],
    [
      // Fuzzed (opfuzz2): the refusal was a shape clash naming the slice's [0, 4].
      'a shrunk axis with a negative stride',
      {
        name: 's',
        op: 'STRIDED_SLICE',
        inputs: [t([4, 4], 'int8'), i32c([1, 0]), i32c([2, 4]), i32c([-1, 1])],
        outputs: [t([4], 'int8')],
        options: tfliteOptions.stridedSlice({ shrinkAxisMask: 1 }),
      } as SingleOp,
      "unsupported shrink_axis_mask on axis 0 with begin 1 and stride -1: TFLite Micro's kernel copies no element of that axis, so it never writes the output (a shrunk axis needs a positive stride and a begin inside the axis) on STRIDED_SLICE at operator #0 in m.tflite",
    ],
    [
      'a shrunk axis whose begin is past the axis',
      {
        name: 's',
        op: 'STRIDED_SLICE',
        inputs: [t([4, 4], 'int8'), i32c([0, 7]), i32c([4, 8]), i32c([1, 1])],
        outputs: [t([4], 'int8')],
        options: tfliteOptions.stridedSlice({ shrinkAxisMask: 2 }),
      } as SingleOp,
      "unsupported shrink_axis_mask on axis 1 with begin 7 and stride 1: TFLite Micro's kernel copies no element of that axis, so it never writes the output (a shrunk axis needs a positive stride and a begin inside the axis) on STRIDED_SLICE at operator #0 in m.tflite",
    ],
    [
      'int8 concatenation inputs with another scale',
      {
        name: 'c',
        op: 'CONCATENATION',
        inputs: [t([1, 2], 'int8'), { shape: [1, 2], dtype: 'int8', quant: { scale: [0.1], zeroPoint: [-3] } }],
        outputs: [t([1, 4], 'int8')],
        options: tfliteOptions.concatenation(1),
      } as SingleOp,
      'unsupported input 1 quantization (scale 0.10000000149011612, zero point -3) differing from the output\'s (scale 0.05000000074505806, zero point -3): TFLite Micro does not rescale int8 on CONCATENATION at operator #0 in m.tflite',
    ],
    [
      'a fused activation on CONCATENATION',
      {
        name: 'a',
        op: 'CONCATENATION',
        inputs: [t([1, 2], 'float32'), t([1, 2], 'float32')],
        outputs: [t([1, 4], 'float32')],
        options: tfliteOptions.concatenation(1, 'RELU'),
      } as SingleOp,
      'unsupported fused activation RELU (TFLite Micro concatenates without one) on CONCATENATION at operator #0 in m.tflite',
    ],
    [
      'an int16 MIRROR_PAD',
      {
        name: 'm',
        op: 'MIRROR_PAD',
        inputs: [t([3], 'int16'), i32c([1, 1], [1, 2])],
        outputs: [t([5], 'int16')],
        options: tfliteOptions.mirrorPad('REFLECT'),
      } as SingleOp,
      'unsupported input dtype int16 (supported: float32, int8) on MIRROR_PAD at operator #0 in m.tflite',
    ],
    [
      'a REFLECT padding as large as the axis',
      {
        name: 'r',
        op: 'MIRROR_PAD',
        inputs: [t([3], 'float32'), i32c([3, 0], [1, 2])],
        outputs: [t([6], 'float32')],
        options: tfliteOptions.mirrorPad('REFLECT'),
      } as SingleOp,
      'unsupported paddings [3, 0] of axis 0 (REFLECT of size 3 allows 0..2) on MIRROR_PAD at operator #0 in m.tflite',
    ],
    [
      // Fuzzed (opfuzz2): these named the dtype but not the ones the operator takes.
      'an int32 DEPTH_TO_SPACE',
      { name: 'd', op: 'DEPTH_TO_SPACE', inputs: [t([1, 1, 1, 4], 'int32')], outputs: [t([1, 2, 2, 1], 'int32')], options: tfliteOptions.depthToSpace(2) } as SingleOp,
      'unsupported input dtype int32 (supported: float32, int8) on DEPTH_TO_SPACE at operator #0 in m.tflite',
    ],
    [
      'a bool GATHER',
      { name: 'g', op: 'GATHER', inputs: [t([3], 'bool'), i32c([0, 2])], outputs: [t([2], 'bool')], options: tfliteOptions.gather(0) } as SingleOp,
      'unsupported input dtype bool (supported: float32, int8, int16, int32) on GATHER at operator #0 in m.tflite',
    ],
    [
      'an int32 ARG_MAX',
      { name: 'a', op: 'ARG_MAX', inputs: [t([2, 3], 'int32'), i32c([1])], outputs: [t([2], 'int32')], options: tfliteOptions.argMax() } as SingleOp,
      "unsupported input dtype int32 (supported: float32, int8, int16) on ARG_MAX at operator #0 in m.tflite: TFLite Micro's ARG_MAX kernel (arg_min_max.cc) does not support int32 inputs",
    ],
    [
      'an int32 TRANSPOSE',
      { name: 'f', op: 'TRANSPOSE', inputs: [t([2, 3], 'int32'), i32c([1, 0])], outputs: [t([3, 2], 'int32')] } as SingleOp,
      "unsupported input dtype int32 (supported: float32, int8, int16) on TRANSPOSE at operator #0 in m.tflite: TFLite Micro's TRANSPOSE kernel (transpose.cc) does not support int32 inputs",
    ],
  ])('%s', (_name, c, message) => {
    const e = importErrorOf(c);
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toBe(message);
  });

  it('SPLIT_V whose inferred piece would be negative is refused naming SPLIT_V (fuzzed: named a strided_slice)', () => {
    const e = importErrorOf({
      name: 's',
      op: 'SPLIT_V',
      inputs: [t([2, 3], 'float32'), i32c([5, -1]), i32c([1], [])],
      outputs: [t([2, 5], 'float32'), t([2, 1], 'float32')],
      options: tfliteOptions.splitV(2),
    });
    expect(e.message).toMatch(/size_splits \[5,-1\] do not split axis 1 of length 3 \(SPLIT_V at operator #0\)$/);
  });

  it('STRIDED_SLICE declaring another size than its slice names the shape without the shrunk axes (fuzzed: showed [3, 1])', () => {
    const e = importErrorOf({
      name: 's',
      op: 'STRIDED_SLICE',
      inputs: [t([4, 4], 'int8'), i32c([1, 2]), i32c([4, 3]), i32c([1, 1])],
      outputs: [t([4], 'int8')],
      options: tfliteOptions.stridedSlice({ shrinkAxisMask: 2 }),
    });
    expect(e.message).toMatch(/output declared \[4\], but the slice gives \[3\] \(shrunk axes dropped\) \(STRIDED_SLICE at operator #0\)$/);
  });

  it('inspect labels each output of a multi-output operator with the original', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-dm-'));
    try {
      const path = join(dir, 'unpack.tflite');
      writeFileSync(
        path,
        singleOpTflite({ name: 'u', op: 'UNPACK', inputs: [t([2, 3], 'float32')], outputs: [t([3], 'float32'), t([3], 'float32')], options: tfliteOptions.unpack(2, 0) }),
      );
      const io = memoryIO();
      expect(await main(['node', 'uma-ts', 'inspect', path], io)).toBe(0);
      const out = io.stdout.join('\n');
      expect(out).toMatch(/^\s+0\s+strided_slice \(UNPACK #0 output 0\)\s+y0\s+\[3\]\s+float32$/m);
      expect(out).toMatch(/^\s+1\s+strided_slice \(UNPACK #0 output 1\)\s+y1\s+\[3\]\s+float32$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the checker collects every bad data-movement operator of a model', () => {
    const c = checkTflite(
      singleOpTflite({ name: 'p', op: 'PAD', inputs: [t([2, 3], 'float32'), { shape: [2, 2], dtype: 'int32' }], outputs: [t([4, 5], 'float32')] }),
    );
    expect(c.unsupported.map((u) => [u.operator, u.index, u.unknownOperator])).toEqual([['PAD', 0, false]]);
  });
});

describe('data movement: raw copies where TFLite Micro checks no quantization', () => {
  it('PAD int8 with an input scale other than the output copies raw values and pads with the output zero point', () => {
    const model = singleOpTflite({
      name: 'p',
      op: 'PAD',
      inputs: [{ shape: [3], dtype: 'int8', quant: { scale: [0.5], zeroPoint: [4] } }, i32c([1, 2], [1, 2])],
      outputs: [{ shape: [6], dtype: 'int8', quant: { scale: [0.25], zeroPoint: [-7] } }],
    });
    const { interpret } = jest.requireActual('../../src/interpreter');
    const [out] = interpret(importTflite(model), [new Uint8Array(Int8Array.of(10, -20, 30).buffer)]);
    expect(Array.from(new Int8Array(out.buffer, out.byteOffset, out.length))).toEqual([-7, 10, -20, 30, -7, -7]);
  });

  it('an int8 PADV2 constant must carry the output quantization', () => {
    const e = importErrorOf({
      name: 'pv',
      op: 'PADV2',
      inputs: [t([3], 'int8'), i32c([1, 1], [1, 2]), { shape: [], dtype: 'int8', quant: { scale: [0.5], zeroPoint: [0] }, data: [3] }],
      outputs: [t([5], 'int8')],
    });
    expect(e.message).toMatch(/^unsupported constant_values quantization \(scale 0\.5, zero point 0\) differing from the output's .* on PADV2 at operator #0 in m\.tflite$/);
  });
});
