/**
 * Networks as the TFLite converter emits Keras models, beyond test/models/realisticNets.ts:
 * a dynamic batch (shape_signature -1, Flatten as SHAPE -> STRIDED_SLICE -> PACK -> RESHAPE),
 * unfused batch norm, PADV2, SPLIT_V, STRIDED_SLICE with masks, depthwise with a depth
 * multiplier, dilated convs (in the options, and an old converter's SPACE_TO_BATCH_ND /
 * BATCH_TO_SPACE_ND), CONCATENATION inputs requantized to the output's scale; and 16x8
 * networks (int16 activations) with and without a float interface.
 */
import { Network, NetMode, NetInputs } from './netBuilder';
import { audioGru, converterQuirks, detectorHead, floats, resDenseEffNet } from './realisticNets';

/**
 * A Keras CNN with an unknown batch: PADV2 + stride-2 VALID conv without bias, batch norm
 * left unfused (MUL, ADD per channel), RELU; a depthwise with depth_multiplier 2; a dilated
 * conv (CONV_2D dilation 2) beside an old converter's SPACE_TO_BATCH_ND / conv /
 * BATCH_TO_SPACE_ND spelling of the same (float32, int8); SPLIT_V; a CONCATENATION whose inputs are
 * requantized to its scale; STRIDED_SLICE with begin/end masks and a stride; MEAN over the
 * spatial axes; Flatten by a computed shape; two heads.
 */
export const kerasCnn: Network = (b) => kerasCnnOf(true)(b);

/** `spaceToBatch` false: the second dilated conv in CONV_2D's options too (16x8: TFLite Micro's SPACE_TO_BATCH_ND / BATCH_TO_SPACE_ND take float32 and int8 only, uma-ts refuses int16 alike). */
export const kerasCnnOf = (spaceToBatch: boolean): Network => (b) =>
  b.dynamicBatch(() => {
    const x = b.input('input_1', [1, 12, 12, 3]);
    const padded = b.padV2(x, 'model/zero_padding2d/Pad', [[0, 0], [1, 1], [1, 1], [0, 0]], -0.25);
    const c1 = b.conv(padded, 'model/conv2d/Conv2D', 8, 3, 2, 'VALID');
    const bnScale = Array.from(floats([8], 31, 0.5), (v) => 1 + v);
    const bnShift = Array.from(floats([8], 32, 0.3));
    const bn = b.binary('ADD', b.binary('MUL', c1, b.constant('model/bn/mul_1/y', [8], bnScale), 'model/bn/mul_1'), b.constant('model/bn/add_1/y', [8], bnShift), 'model/bn/add_1');
    const r1 = b.unary('RELU', bn, 'model/re_lu/Relu');
    const dw = b.depthwise(r1, 'model/depthwise/depthwise', 3, 1, 'SAME', 'RELU6', { multiplier: 2 });
    const dilated = b.conv(dw, 'model/dilated/Conv2D', 8, 3, 1, 'SAME', 'RELU', 2);
    const atrous = !spaceToBatch ? b.conv(dw, 'model/atrous', 8, 3, 1, 'SAME', 'RELU', 2) : b.atrousConv(dw, 'model/atrous', 8, 3, 2, 'RELU');
    const [narrow, wide] = b.splitV(dw, 'model/split', [4, 12], 3);
    const cat = b.concatRequantized([dilated, atrous, narrow], 3, 'model/concatenate/concat');
    const mix = b.conv(cat, 'model/mix/Conv2D', 12, 1, 1, 'SAME', 'RELU');
    // Every other column, the first 8 channels: begin/end masks on the batch and rows.
    const sliced = b.stridedSlice(mix, 'model/slice', { begin: [0, 0, 1, 0], end: [0, 0, 6, 8], strides: [1, 1, 2, 1], beginMask: 0b0011, endMask: 0b0011 }, [1, 6, 3, 8]);
    const gap = b.mean(sliced, [1, 2], false, 'model/global_average_pooling2d/Mean');
    b.output(b.fc(gap, 'model/dense_gap/MatMul', 4));
    const pooled = b.maxPool(b.binary('ADD', mix, b.conv(wide, 'model/wide/Conv2D', 12, 1, 1, 'SAME'), 'model/add/add'), 'model/max_pooling2d/MaxPool', 2, 2, 'VALID');
    const flat = b.flattenDynamic(pooled, 'model/flatten/Reshape', [108]);
    b.output(b.softmax(b.fc(flat, 'model/dense/MatMul', 10, { activation: 'RELU' }), 'model/dense_1/Softmax'));
  });

/**
 * A 16x8 CNN with the converter's default float interface: QUANTIZE float -> int16 at the
 * input, conv/depthwise/pools/residual ADD/MEAN/FULLY_CONNECTED/SOFTMAX on int16 with int8
 * weights and int64 biases, DEQUANTIZE at the output (float mode: the same float network).
 */
export const cnn16x8: Network = (b) => {
  const xf = b.input('serving_default_input:0', [1, 10, 10, 3], 'float32');
  const x = b.quantize(xf, 'model/quantize');
  const c1 = b.conv(x, 'model/conv1', 8, 3, 2, 'SAME', 'RELU');
  const dw = b.depthwise(c1, 'model/dw', 3, 1, 'SAME', 'RELU6');
  const c2 = b.conv(dw, 'model/conv2', 8, 1, 1, 'SAME');
  const res = b.binary('ADD', c1, c2, 'model/add', 'RELU');
  const pooled = b.maxPool(res, 'model/maxpool', 2, 2, 'SAME');
  const ap = b.avgPool(b.conv(pooled, 'model/conv3', 12, 3, 1, 'SAME', 'RELU'), 'model/avgpool', 2, 1, 'VALID');
  const gap = b.mean(ap, [1, 2], false, 'model/gap');
  const probs = b.softmax(b.fc(gap, 'model/dense', 6), 'model/probs');
  b.output(b.dequantize(probs, 'StatefulPartitionedCall:0'));
};

/** A 16x8 fully connected net: int16 input, dense layers with RELU, TANH and LOGISTIC heads, a SOFTMAX one. */
export const fc16x8: Network = (b) => {
  const x = b.input('features', [1, 20]);
  const h1 = b.fc(x, 'dense1', 16, { activation: 'RELU' });
  const h2 = b.unary('TANH', b.fc(h1, 'dense2', 12), 'tanh');
  const d3 = b.fc(h2, 'dense3', 8);
  b.output(b.unary('LOGISTIC', d3, 'sigmoid'));
  b.output(b.softmax(b.fc(b.binary('MUL', d3, b.fc(h2, 'gate', 8), 'gated'), 'dense4', 5), 'probs'));
};

/**
 * More Keras spellings: a depthwise with depth_multiplier 8 on a one-channel input (a
 * grayscale stem), a dilated depthwise, a reversal (STRIDED_SLICE with stride -1, a negative
 * begin and masks), SPLIT_V with a -1 size, a Dense on a 3-D input without keep_num_dims
 * (rows flattened), and Flatten packing (batch, -1).
 */
export const kerasMisc: Network = (b) =>
  b.dynamicBatch(() => {
    const x = b.input('input_gray', [1, 9, 9, 1]);
    const dw = b.depthwise(x, 'model/stem_dw', 3, 2, 'SAME', 'RELU', { multiplier: 8 });
    const dw2 = b.depthwise(dw, 'model/dilated_dw', 3, 1, 'SAME', 'RELU6', { dilation: 2 });
    const rev = b.stridedSlice(dw2, 'model/reverse', { begin: [0, -1, 0, 0], end: [0, 0, 0, 0], strides: [1, -1, 1, 1], beginMask: 0b1101, endMask: 0b1111 }, [1, 5, 5, 8]);
    const sum = b.binary('ADD', dw2, rev, 'model/add');
    const [a, rest] = b.splitV(sum, 'model/split', [3, -1], 3);
    const seq = b.reshape(rest, 'model/to_seq', [1, 25, 5]);
    const rows = b.fc(seq, 'model/time_dense', 6, { activation: 'RELU' });
    b.output(b.mean(b.reshape(rows, 'model/rows', [1, 25, 6]), [1], false, 'model/time_mean'));
    const flat = b.flattenDynamic(a, 'model/flatten/Reshape', [75], true);
    b.output(b.softmax(b.fc(flat, 'model/dense', 4), 'model/probs'));
  });

/**
 * Keyword spotting as MLPerf Tiny's DS-CNN and Edge Impulse's 1-D CNNs are converted: a flat
 * feature input RESHAPEd to (frames, coefficients); a DS-CNN branch with a rectangular 10x4
 * stride-2 conv, a depthwise-separable block and an AVERAGE_POOL over the whole map; a 1-D
 * branch of Conv1D (EXPAND_DIMS -> CONV_2D 1xk -> SQUEEZE) and MaxPooling1D, flattened; the
 * two concatenated into the classifier.
 */
export const kwsNet: Network = (b) => {
  const x = b.input('x_input', [1, 20 * 10]);
  const frames = b.reshape(x, 'reshape/Reshape', [1, 20, 10]);
  const img = b.reshape(frames, 'reshape_1/Reshape', [1, 20, 10, 1]);
  const c0 = b.conv(img, 'ds/conv0', 8, [10, 4], [2, 2], 'SAME', 'RELU');
  const dw = b.depthwise(c0, 'ds/dw1', 3, 1, 'SAME', 'RELU');
  const pw = b.conv(dw, 'ds/pw1', 8, 1, 1, 'SAME', 'RELU');
  const pooled = b.avgPool(pw, 'ds/avg', [10, 5], 1, 'VALID');
  const dsFeatures = b.reshape(pooled, 'ds/flatten', [1, 8]);
  const c1 = b.conv1d(frames, 'c1', 6, 3, 1, 'SAME', 'RELU');
  const p1 = b.maxPool1d(c1, 'pool1', 2);
  const c2 = b.conv1d(p1, 'c2', 4, 3, 2, 'VALID', 'RELU');
  const oneD = b.reshape(c2, 'flatten/Reshape', [1, c2.shape[1] * c2.shape[2]]);
  const features = b.concat([dsFeatures, b.fc(oneD, 'dense_1d', 8, { activation: 'RELU' })], 1, 'concat');
  b.output(b.softmax(b.fc(features, 'dense', 12), 'y_pred'));
};

/**
 * A PyTorch model as ai-edge-torch / onnx2tf convert it: an NCHW input TRANSPOSEd to NHWC,
 * convs, a broadcast [1, 1, 1, C] MUL and ADD (a BatchNorm2d kept apart), a channel-wise
 * gate, TRANSPOSE back to NCHW before torch.flatten's RESHAPE and the Linear layers, and an
 * NCHW feature-map output.
 */
export const torchStyle: Network = (b) => {
  const x = b.input('args_0', [1, 3, 8, 8]);
  const nhwc = b.transpose(x, 'permute', [0, 2, 3, 1]);
  const c1 = b.conv(nhwc, 'conv1', 6, 3, 1, 'SAME');
  const bn = b.binary('ADD', b.binary('MUL', c1, b.constant('bn_scale', [1, 1, 1, 6], Array.from(floats([6], 51, 0.4), (v) => 1 + v)), 'bn_mul'), b.constant('bn_shift', [1, 1, 1, 6], Array.from(floats([6], 52, 0.3))), 'bn_add');
  const r = b.unary('RELU', bn, 'relu');
  const c2 = b.conv(r, 'conv2', 6, 3, 2, 'SAME', 'RELU');
  const gate = b.unary('LOGISTIC', b.mean(c2, [1, 2], true, 'gate_pool'), 'gate');
  const gated = b.binary('MUL', c2, gate, 'gated');
  b.output(b.transpose(gated, 'to_nchw_out', [0, 3, 1, 2]));
  const nchw = b.transpose(gated, 'to_nchw', [0, 3, 1, 2]);
  const flat = b.reshape(nchw, 'flatten', [1, 96]);
  b.output(b.fc(b.fc(flat, 'fc1', 16, { activation: 'RELU' }), 'fc2', 5));
};

export interface ConverterNetCase {
  readonly name: string;
  readonly net: Network;
  readonly inputs: () => NetInputs;
  readonly modes: readonly NetMode[];
}

export const CONVERTER_NETWORKS: readonly ConverterNetCase[] = [
  { name: 'keras_cnn', net: kerasCnn, inputs: () => ({ values: [floats([1, 12, 12, 3], 41)] }), modes: ['float32', 'int8'] },
  { name: 'keras_cnn_16x8', net: kerasCnnOf(false), inputs: () => ({ values: [floats([1, 12, 12, 3], 44)] }), modes: ['int16'] },
  { name: 'keras_misc', net: kerasMisc, inputs: () => ({ values: [floats([1, 9, 9, 1], 45)] }), modes: ['float32', 'int8', 'int16'] },
  { name: 'kws', net: kwsNet, inputs: () => ({ values: [floats([1, 200], 46)] }), modes: ['float32', 'int8', 'int16'] },
  { name: 'torch_style', net: torchStyle, inputs: () => ({ values: [floats([1, 3, 8, 8], 47)] }), modes: ['float32', 'int8', 'int16'] },
  // The first suite's networks whose operators TFLite Micro runs in 16x8 (not HARD_SWISH, RSQRT, RESIZE_BILINEAR, SPACE_TO_BATCH_ND).
  { name: 'resnet_densenet_efficientnet_16x8', net: resDenseEffNet, inputs: () => ({ values: [floats([1, 13, 13, 3], 2)] }), modes: ['int16'] },
  { name: 'audio_gru_16x8', net: audioGru, inputs: () => ({ values: [floats([1, 8, 6, 1], 3), floats([1, 8], 4, 0.5)] }), modes: ['int16'] },
  { name: 'detector_head_16x8', net: detectorHead, inputs: () => ({ values: [floats([1, 8, 8, 3], 5)] }), modes: ['int16'] },
  { name: 'converter_quirks_16x8', net: converterQuirks, inputs: () => ({ values: [floats([1, 6, 6, 4], 6)] }), modes: ['int16'] },
  { name: 'cnn_16x8', net: cnn16x8, inputs: () => ({ values: [floats([1, 10, 10, 3], 42)] }), modes: ['float32', 'int16'] },
  { name: 'fc_16x8', net: fc16x8, inputs: () => ({ values: [floats([1, 20], 43)] }), modes: ['float32', 'int16'] },
];
