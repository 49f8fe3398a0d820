/**
 * A PyTorch-export-style MobileNetV2 (the bench's compile-time model, and a small chain of its
 * blocks for the tests) built with the TfliteWriter (int8): NCHW
 * input → TRANSPOSE to NHWC → PAD + strided CONV_2D stem (RELU6) → inverted residual blocks
 * (1x1 expand CONV_2D RELU6, depthwise 3x3 RELU6 with PAD before the strided ones, 1x1
 * project CONV_2D, ADD when shapes allow) → MEAN over H, W → FULLY_CONNECTED. Weights are
 * seeded; quantization follows the converter's shape (per-channel weights, int32 biases at
 * input scale x weight scale, RELU6 outputs on [0, 6]).
 */
import { TfliteWriter, tfliteOptions } from '../src/frontend/tflite/writer';
import { seededRandom } from '../src/util/random';

interface Act {
  readonly index: number;
  readonly shape: readonly number[];
  readonly scale: number;
  readonly zp: number;
}

const RELU6_SCALE = 6 / 255;

/** `everyActivation`: every intermediate is also a model output (to locate a divergence layer by layer). */
/** One inverted-residual stage: expansion t, output channels c, repeats n, first stride s. */
export interface MobilenetStage {
  readonly t: number;
  readonly c: number;
  readonly n: number;
  readonly s: number;
}

/** The small chain the tests compile for every backend (16x16 input). */
export const SMALL_STAGES: readonly MobilenetStage[] = [
  { t: 1, c: 8, n: 1, s: 1 },
  { t: 4, c: 12, n: 2, s: 2 },
  { t: 4, c: 16, n: 1, s: 2 },
];

/** MobileNetV2 1.0 (224x224, 1000 classes, about 3.5 M int8 weights). */
export const MOBILENET_V2_STAGES: readonly MobilenetStage[] = [
  { t: 1, c: 16, n: 1, s: 1 },
  { t: 6, c: 24, n: 2, s: 2 },
  { t: 6, c: 32, n: 3, s: 2 },
  { t: 6, c: 64, n: 4, s: 2 },
  { t: 6, c: 96, n: 3, s: 1 },
  { t: 6, c: 160, n: 3, s: 2 },
  { t: 6, c: 320, n: 1, s: 1 },
];

export interface MobilenetOptions {
  readonly size?: number;
  readonly seed?: number;
  readonly everyActivation?: boolean;
  readonly stem?: number;
  readonly stages?: readonly MobilenetStage[];
  /** Channels of the last 1x1 conv before the pooling (MobileNetV2: 1280); absent = none. */
  readonly head?: number;
  readonly classes?: number;
}

export function mobilenetV2Blocks(options: MobilenetOptions = {}): Uint8Array {
  const size = options.size ?? 16;
  const rnd = seededRandom(options.seed ?? 11);
  const w = new TfliteWriter('uma-ts MobileNetV2 block chain');
  let n = 0;
  const name = (base: string) => `${base}_${n++}`;
  const activations: number[] = [];
  const act = (shape: readonly number[], scale: number, zp: number, base: string): Act => {
    const index = w.addTensor({ name: name(base), shape, dtype: 'int8', quant: { scale: [scale], zeroPoint: [zp] } });
    activations.push(index);
    return { index, shape, scale, zp };
  };

  /** Per-channel int8 weights (OHWI or 1HWC) and an int32 bias. */
  function weights(shape: number[], channelAxis: number, inputScale: number, perTensor = false) {
    const channels = shape[channelAxis];
    const scales = Array.from({ length: perTensor ? 1 : channels }, () => 0.004 + rnd() * 0.01);
    const count = shape.reduce((a, b) => a * b, 1);
    // A multiplicative hash per weight (a generator call each takes seconds for MobileNetV2's 3.5 M weights).
    const data = new Int8Array(count);
    const salt = Math.floor(rnd() * 2 ** 31);
    for (let i = 0; i < count; i++) data[i] = Math.max(-127, ((Math.imul(i + salt, 2654435761) >>> 24) & 0xff) - 128);
    const wt = w.addConstant({ name: name('w'), shape, dtype: 'int8', quant: { scale: scales, zeroPoint: scales.map(() => 0), axis: perTensor ? 0 : channelAxis }, data });
    const biasScales = scales.map((s) => Math.fround(inputScale) * Math.fround(s));
    const bias = w.addConstant({
      name: name('b'),
      shape: [channels],
      dtype: 'int32',
      quant: { scale: biasScales, zeroPoint: biasScales.map(() => 0), axis: 0 },
      data: Array.from({ length: channels }, () => Math.round((rnd() * 2 - 1) * 2000)),
    });
    return { wt, bias };
  }

  function pad(x: Act, before: number, after: number): Act {
    const p = w.addConstant({ name: name('paddings'), shape: [4, 2], dtype: 'int32', data: [0, 0, before, after, before, after, 0, 0] });
    const y = act([x.shape[0], x.shape[1] + before + after, x.shape[2] + before + after, x.shape[3]], x.scale, x.zp, 'pad');
    w.addOperator({ op: 'PAD', inputs: [x.index, p], outputs: [y.index] });
    return y;
  }

  function conv(x: Act, out: number, k: number, stride: number, relu6: boolean, padding: 'SAME' | 'VALID'): Act {
    const { wt, bias } = weights([out, k, k, x.shape[3]], 0, x.scale);
    const oh = padding === 'SAME' ? Math.ceil(x.shape[1] / stride) : Math.floor((x.shape[1] - k) / stride) + 1;
    const ow = padding === 'SAME' ? Math.ceil(x.shape[2] / stride) : Math.floor((x.shape[2] - k) / stride) + 1;
    const y = relu6 ? act([1, oh, ow, out], RELU6_SCALE, -128, 'conv') : act([1, oh, ow, out], 0.06, 3, 'project');
    w.addOperator({
      op: 'CONV_2D',
      inputs: [x.index, wt, bias],
      outputs: [y.index],
      options: tfliteOptions.conv2d({ padding, strideW: stride, strideH: stride, activation: relu6 ? 'RELU6' : 'NONE' }),
    });
    return y;
  }

  function depthwise(x: Act, stride: number): Act {
    const c = x.shape[3];
    const { wt, bias } = weights([1, 3, 3, c], 3, x.scale);
    // PyTorch exports explicit PAD before strided depthwise convs, SAME otherwise.
    const input = stride > 1 ? pad(x, 1, 1) : x;
    const padding = stride > 1 ? 'VALID' : 'SAME';
    const oh = stride > 1 ? Math.floor((input.shape[1] - 3) / stride) + 1 : x.shape[1];
    const ow = stride > 1 ? Math.floor((input.shape[2] - 3) / stride) + 1 : x.shape[2];
    const y = act([1, oh, ow, c], RELU6_SCALE, -128, 'dw');
    w.addOperator({
      op: 'DEPTHWISE_CONV_2D',
      inputs: [input.index, wt, bias],
      outputs: [y.index],
      options: tfliteOptions.depthwiseConv2d({ padding, strideW: stride, strideH: stride, depthMultiplier: 1, activation: 'RELU6' }),
    });
    return y;
  }

  function block(x: Act, expand: number, out: number, stride: number): Act {
    const e = conv(x, x.shape[3] * expand, 1, 1, true, 'SAME');
    const d = depthwise(e, stride);
    const p = conv(d, out, 1, 1, false, 'SAME');
    if (stride !== 1 || out !== x.shape[3]) return p;
    const y = act(p.shape, 0.08, 0, 'add');
    w.addOperator({ op: 'ADD', inputs: [x.index, p.index], outputs: [y.index], options: tfliteOptions.add() });
    return y;
  }

  const nchw = w.addInput({ name: 'input', shape: [1, 3, size, size], dtype: 'int8', quant: { scale: [0.02], zeroPoint: [-1] } });
  const nhwc = act([1, size, size, 3], 0.02, -1, 'nhwc');
  const perm = w.addConstant({ name: 'perm', shape: [4], dtype: 'int32', data: [0, 2, 3, 1] });
  w.addOperator({ op: 'TRANSPOSE', inputs: [nchw, perm], outputs: [nhwc.index] });

  let x = conv(pad(nhwc, 1, 1), options.stem ?? 8, 3, 2, true, 'VALID');
  for (const stage of options.stages ?? SMALL_STAGES) {
    for (let i = 0; i < stage.n; i++) x = block(x, stage.t, stage.c, i === 0 ? stage.s : 1);
  }
  if (options.head) x = conv(x, options.head, 1, 1, true, 'SAME');

  const axes = w.addConstant({ name: 'axes', shape: [2], dtype: 'int32', data: [1, 2] });
  const pooled = act([1, x.shape[3]], 0.03, -20, 'mean');
  w.addOperator({ op: 'MEAN', inputs: [x.index, axes], outputs: [pooled.index], options: tfliteOptions.reducer(false) });

  const classes = options.classes ?? 10;
  // FULLY_CONNECTED weights are per-tensor, as the converter writes them.
  const fc = weights([classes, x.shape[3]], 0, pooled.scale, true);
  const logits = act([1, classes], 0.1, 5, 'logits');
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [pooled.index, fc.wt, fc.bias], outputs: [logits.index], options: tfliteOptions.fullyConnected() });
  if (options.everyActivation) activations.forEach((a) => w.markOutput(a));
  else w.markOutput(logits.index);
  return w.finish();
}
