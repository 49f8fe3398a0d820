/**
 * Small but realistically shaped networks (the structures real converted models have and
 * models/ lacks), described once for NetBuilder and built float32 and int8:
 * MobileNetV3-small-like, ResNet-v2 / DenseNet / EfficientNet-lite blocks, a tiny
 * transformer encoder, an audio CNN-GRU, and a detector head with float parts.
 */
import { NetInputs, Network } from './netBuilder';
import { seededRandom } from '../../src/util/random';

/** Float inputs in [-2, 2) (seeded). */
export function floats(shape: readonly number[], seed: number, scale = 2): Float32Array {
  const r = seededRandom(seed);
  return Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => Math.fround((r() * 2 - 1) * scale));
}

/**
 * MobileNetV3-small-like: conv stem with HARD_SWISH, a strided depthwise bneck with a
 * squeeze-excite whose gate is the converter's hard sigmoid (ADD 3, RELU6, MUL 1/6), an
 * expanded bneck with a LOGISTIC-gated squeeze-excite and a residual ADD, a 1x1 head,
 * MEAN keep_dims, 1x1 conv classifier, RESHAPE, SOFTMAX.
 */
export const mobilenetV3Small: Network = (b) => mobilenetV3SmallOf(16)(b);

export const mobilenetV3SmallOf = (size: number): Network => (b) => {
  const x = b.input('image', [1, size, size, 3]);
  const stem = b.unary('HARD_SWISH', b.conv(x, 'stem', 8, 3, 2, 'SAME'), 'stem_hs');

  const squeezeExcite = (t: typeof stem, base: string, gate: 'hard' | 'logistic') => {
    const c = t.shape[3];
    const pooled = b.mean(t, [1, 2], true, `${base}_pool`);
    const reduced = b.conv(pooled, `${base}_reduce`, Math.max(2, c / 4), 1, 1, 'SAME', 'RELU');
    const expanded = b.conv(reduced, `${base}_expand`, c, 1, 1, 'SAME');
    let g;
    if (gate === 'hard') {
      const plus3 = b.binary('ADD', expanded, b.constant(`${base}_three`, [], [3]), `${base}_plus3`);
      const r6 = b.unary('RELU6', plus3, `${base}_relu6`);
      g = b.binary('MUL', r6, b.constant(`${base}_sixth`, [], [1 / 6]), `${base}_gate`);
    } else {
      g = b.unary('LOGISTIC', expanded, `${base}_gate`);
    }
    return b.binary('MUL', t, g, `${base}_scaled`);
  };

  // bneck 1: depthwise 3x3 stride 2, RELU, SE (hard sigmoid), project.
  const dw1 = b.depthwise(stem, 'b1_dw', 3, 2, 'SAME', 'RELU');
  const se1 = squeezeExcite(dw1, 'b1_se', 'hard');
  const p1 = b.conv(se1, 'b1_project', 8, 1, 1, 'SAME');

  // bneck 2: expand, HARD_SWISH, depthwise 5x5, HARD_SWISH, SE (logistic), project, residual.
  const e2 = b.unary('HARD_SWISH', b.conv(p1, 'b2_expand', 24, 1, 1, 'SAME'), 'b2_expand_hs');
  const dw2 = b.unary('HARD_SWISH', b.depthwise(e2, 'b2_dw', 5, 1, 'SAME'), 'b2_dw_hs');
  const se2 = squeezeExcite(dw2, 'b2_se', 'logistic');
  const p2 = b.conv(se2, 'b2_project', 8, 1, 1, 'SAME');
  const res = b.binary('ADD', p1, p2, 'b2_residual');

  const head = b.unary('HARD_SWISH', b.conv(res, 'head', 16, 1, 1, 'SAME'), 'head_hs');
  const pooled = b.mean(head, [1, 2], true, 'pool');
  const pre = b.unary('HARD_SWISH', b.conv(pooled, 'pre_logits', 12, 1, 1, 'SAME'), 'pre_logits_hs');
  const logits = b.conv(pre, 'logits', 5, 1, 1, 'SAME');
  const flat = b.reshape(logits, 'flat', [1, 5]);
  b.output(b.softmax(flat, 'probs'));
};

/**
 * ResNet-v2 / DenseNet / EfficientNet-lite blocks: explicit PAD before stride-2 VALID convs,
 * a residual block and a projection shortcut, MAX_POOL, a dense block whose CONCATENATIONs
 * chain (each layer sees every earlier one), an AVERAGE_POOL transition, an
 * EfficientNet-lite MBConv (RELU6, no SE) with its skip ADD, MEAN, FULLY_CONNECTED; one conv
 * and the depthwise are pruned (an all-zero filter: int8 channel scale 0).
 */
export const resDenseEffNet: Network = (b) => resDenseEffNetOf(13)(b);

export const resDenseEffNetOf = (size: number): Network => (b) => {
  const x = b.input('image', [1, size, size, 3]);
  const stem = b.conv(b.pad(x, 'stem_pad', [[0, 0], [1, 1], [1, 1], [0, 0]]), 'stem', 8, 3, 2, 'VALID', 'RELU');
  // Residual block (identity shortcut).
  // A pruned layer: one all-zero filter (int8 scale 0 for that channel).
  const r1 = b.pruned(() => b.conv(stem, 'res1_a', 8, 3, 1, 'SAME', 'RELU'));
  const r2 = b.conv(r1, 'res1_b', 8, 3, 1, 'SAME');
  const res1 = b.binary('ADD', stem, r2, 'res1_add', 'RELU');
  // Downsampling block: PAD + stride 2 conv, 1x1 stride 2 projection shortcut.
  const d1 = b.conv(b.pad(res1, 'res2_pad', [[0, 0], [1, 1], [1, 1], [0, 0]]), 'res2_a', 12, 3, 2, 'VALID', 'RELU');
  const d2 = b.conv(d1, 'res2_b', 12, 3, 1, 'SAME');
  const shortcut = b.conv(res1, 'res2_short', 12, 1, 2, 'VALID');
  const res2 = b.binary('ADD', shortcut, d2, 'res2_add', 'RELU');
  // Dense block: growth 4, three layers, concatenations chained.
  let dense = res2;
  for (let i = 0; i < 3; i++) {
    const bottleneck = b.conv(dense, `dense${i}_1x1`, 8, 1, 1, 'SAME', 'RELU');
    const grow = b.conv(bottleneck, `dense${i}_3x3`, 4, 3, 1, 'SAME', 'RELU');
    dense = b.concat([dense, grow], 3, `dense${i}_cat`);
  }
  const transition = b.avgPool(b.conv(dense, 'transition', 12, 1, 1, 'SAME', 'RELU'), 'transition_pool', 2, 2, 'VALID');
  // EfficientNet-lite MBConv.
  const e = b.conv(transition, 'mb_expand', 36, 1, 1, 'SAME', 'RELU6');
  const dw = b.pruned(() => b.depthwise(e, 'mb_dw', 3, 1, 'SAME', 'RELU6'));
  const proj = b.conv(dw, 'mb_project', 12, 1, 1, 'SAME');
  const mb = b.binary('ADD', transition, proj, 'mb_add');
  const pooled = b.maxPool(mb, 'maxpool', 2, 1, 'SAME');
  const gap = b.mean(pooled, [1, 2], false, 'gap');
  b.output(b.fc(gap, 'classifier', 6));
};

/**
 * A tiny keyword/transformer encoder: GATHER embeddings from int32 ids, a positional ADD, a
 * mask input added to the attention scores, layer norms spelled as the converter emits them
 * (MEAN, SQUARED_DIFFERENCE, ADD eps, RSQRT, SUB, MUL, MUL gamma, ADD beta), FULLY_CONNECTED
 * on 3-D inputs with keep_num_dims, RESHAPE + TRANSPOSE into heads, BATCH_MATMUL (adj_y) for
 * scores, SOFTMAX, BATCH_MATMUL with values, a GELU as x * LOGISTIC(1.702 x), residual ADDs,
 * MEAN over time and a classifier with SOFTMAX.
 */
export const tinyTransformer: Network = (b) => {
  const T = 6;
  const D = 8;
  const H = 2;
  const ids = b.input('ids', [1, T], 'int32');
  const mask = b.input('mask', [1, 1, 1, T]);
  const emb = b.embedding(ids, 'embed', 11, D);
  const pos = b.constant('pos', [1, T, D], Array.from(floats([T, D], 99, 0.5)));
  let x = b.binary('ADD', emb, pos, 'embed_pos');

  const layerNorm = (t: typeof x, base: string) => {
    const mean = b.mean(t, [2], true, `${base}_mean`);
    const sq = b.binary('SQUARED_DIFFERENCE', t, mean, `${base}_sqdiff`);
    const variance = b.mean(sq, [2], true, `${base}_var`);
    const eps = b.binary('ADD', variance, b.constant(`${base}_eps`, [], [1e-3]), `${base}_var_eps`);
    const inv = b.unary('RSQRT', eps, `${base}_rsqrt`);
    const centered = b.binary('SUB', t, mean, `${base}_centered`);
    const normed = b.binary('MUL', centered, inv, `${base}_normed`);
    const gamma = b.binary('MUL', normed, b.constant(`${base}_gamma`, [D], Array.from(floats([D], 7, 0.5), (v) => 1 + v)), `${base}_scaled`);
    return b.binary('ADD', gamma, b.constant(`${base}_beta`, [D], Array.from(floats([D], 8, 0.2))), `${base}_out`);
  };

  const ln1 = layerNorm(x, 'ln1');
  const heads = (t: typeof x, base: string) => b.transpose(b.reshape(t, `${base}_split`, [1, T, H, D / H]), `${base}_heads`, [0, 2, 1, 3]);
  const q = heads(b.fc(ln1, 'q', D, { keepNumDims: true }), 'q');
  const k = heads(b.fc(ln1, 'k', D, { keepNumDims: true }), 'k');
  const v = heads(b.fc(ln1, 'v', D, { keepNumDims: true }), 'v');
  const scores = b.binary('MUL', b.batchMatmul(q, k, 'qk', true), b.constant('inv_sqrt_dk', [], [1 / Math.sqrt(D / H)]), 'scores');
  const masked = b.binary('ADD', scores, mask, 'masked');
  const probs = b.softmax(masked, 'attn');
  const ctx = b.batchMatmul(probs, v, 'ctx');
  const merged = b.reshape(b.transpose(ctx, 'ctx_t', [0, 2, 1, 3]), 'ctx_merged', [1, T, D]);
  x = b.binary('ADD', x, b.fc(merged, 'attn_out', D, { keepNumDims: true }), 'res_attn');

  const ln2 = layerNorm(x, 'ln2');
  const up = b.fc(ln2, 'ffn_up', 2 * D, { keepNumDims: true });
  const gate = b.unary('LOGISTIC', b.binary('MUL', up, b.constant('gelu_k', [], [1.702]), 'gelu_scaled'), 'gelu_sigmoid');
  const gelu = b.binary('MUL', up, gate, 'gelu');
  x = b.binary('ADD', x, b.fc(gelu, 'ffn_down', D, { keepNumDims: true }), 'res_ffn');

  const pooled = b.mean(x, [1], false, 'pool');
  b.output(b.softmax(b.fc(pooled, 'classifier', 4), 'probs'));
};

export const transformerInputs = (): NetInputs => ({
  values: [Int32Array.from([3, 0, 10, 7, 7, 1]), Float32Array.from([0, 0, 0, 0, -2, -2])],
});

/**
 * An audio CNN-GRU: conv over a spectrogram, RESHAPE to (time, features), SPLIT into time
 * steps, a GRU cell unrolled over them (shared FULLY_CONNECTED weights, SPLIT into gates,
 * LOGISTIC, TANH, MUL, SUB, ADD) from a state input; the final state is an output that the
 * classifier also reads.
 */
export const audioGru: Network = (b) => {
  const spec = b.input('spectrogram', [1, 8, 6, 1]);
  const h0 = b.input('state', [1, 8]);
  const conv = b.conv(spec, 'conv', 4, 3, 2, 'SAME', 'RELU');
  const frames = b.reshape(conv, 'frames', [1, 4, 12]);
  const steps = b.split(frames, 'steps', 1, 4);
  let h = h0;
  steps.forEach((s, t) => {
    const xt = b.reshape(s, `x${t}`, [1, 12]);
    const gx = b.split(b.fc(xt, `gx${t}`, 24, { share: 'gru_input' }), `gx${t}_split`, 1, 3);
    const gh = b.split(b.fc(h, `gh${t}`, 24, { share: 'gru_recurrent' }), `gh${t}_split`, 1, 3);
    const z = b.unary('LOGISTIC', b.binary('ADD', gx[0], gh[0], `z${t}_pre`), `z${t}`);
    const r = b.unary('LOGISTIC', b.binary('ADD', gx[1], gh[1], `r${t}_pre`), `r${t}`);
    const n = b.unary('TANH', b.binary('ADD', gx[2], b.binary('MUL', r, gh[2], `rh${t}`), `n${t}_pre`), `n${t}`);
    // h' = n + z * (h - n)
    h = b.binary('ADD', n, b.binary('MUL', z, b.binary('SUB', h, n, `hn${t}`), `zhn${t}`), `h${t + 1}`);
  });
  b.output(h);
  b.output(b.softmax(b.fc(h, 'classifier', 3), 'probs'));
};

/**
 * A detector head over two scales: backbone convs (the first feature map is also a model
 * output), per-scale box and class 1x1 convs RESHAPEd to (anchors, 4) and (anchors, classes),
 * CONCATENATION over scales; the int8 form DEQUANTIZEs to float for the box scaling (MUL)
 * and the class LOGISTIC, then QUANTIZEs the scores back: multiple outputs, float and int8.
 */
export const detectorHead: Network = (b) => {
  const x = b.input('image', [1, 8, 8, 3]);
  const f1 = b.conv(x, 'backbone1', 8, 3, 2, 'SAME', 'RELU');
  const f2 = b.conv(f1, 'backbone2', 8, 3, 2, 'SAME', 'RELU');
  const A = 2;
  const C = 3;
  const boxes = [f1, f2].map((f, s) => b.reshape(b.conv(f, `box${s}`, A * 4, 1, 1, 'SAME'), `box${s}_flat`, [1, f.shape[1] * f.shape[2] * A, 4]));
  const classes = [f1, f2].map((f, s) => b.reshape(b.conv(f, `cls${s}`, A * C, 1, 1, 'SAME'), `cls${s}_flat`, [1, f.shape[1] * f.shape[2] * A, C]));
  const allBoxes = b.concat(boxes, 1, 'boxes');
  const allClasses = b.concat(classes, 1, 'classes');
  const boxScale = b.constant('box_scale', [4], [0.1, 0.1, 0.2, 0.2], 'float32');
  b.output(b.binary('MUL', b.dequantize(allBoxes, 'boxes_f'), boxScale, 'boxes_scaled'));
  const scores = b.unary('LOGISTIC', b.dequantize(allClasses, 'classes_f'), 'scores_f');
  b.output(b.quantize(scores, 'scores', { scale: 1 / 256, zp: -128 }));
  b.output(f1);
};

export interface NetCase {
  readonly name: string;
  readonly net: Network;
  readonly inputs: () => NetInputs;
  /** False: LiteRT cannot run it (variable tensors). */
  readonly litert?: boolean;
  /** An operator needs internal scratch beyond the graph tensors (the LSTM's gates; TFLite Micro's kernel too). */
  readonly scratch?: boolean;
}

export const NETWORKS: readonly NetCase[] = [
  { name: 'mobilenet_v3_small', net: mobilenetV3Small, inputs: () => ({ values: [floats([1, 16, 16, 3], 1)] }) },
  { name: 'resnet_densenet_efficientnet', net: resDenseEffNet, inputs: () => ({ values: [floats([1, 13, 13, 3], 2)] }) },
  { name: 'tiny_transformer', net: tinyTransformer, inputs: transformerInputs },
  { name: 'audio_gru', net: audioGru, inputs: () => ({ values: [floats([1, 8, 6, 1], 3), floats([1, 8], 4, 0.5)] }) },
  { name: 'detector_head', net: detectorHead, inputs: () => ({ values: [floats([1, 8, 8, 3], 5)] }) },
  { name: 'converter_quirks', net: (b) => converterQuirks(b), inputs: () => ({ values: [floats([1, 6, 6, 4], 6)] }) },
  { name: 'unet_segmenter', net: (b) => unetSegmenter(b), inputs: () => ({ values: [floats([1, 8, 8, 3], 8)] }) },
  { name: 'audio_lstm', net: (b) => audioLstm(b), inputs: () => ({ values: [floats([1, 8, 6, 1], 7)] }), litert: false, scratch: true },
];

/** Every network side by side in one model (names prefixed): one gcc build per backend for all of them. */
export function allNetworks(cases: readonly NetCase[]): NetCase {
  return {
    name: 'all_networks',
    net: (b) =>
      cases.forEach((c) => {
        b.scope(`${c.name}/`);
        c.net(b);
      }),
    inputs: () => ({ values: cases.flatMap((c) => c.inputs().values) }),
  };
}

/**
 * What the TFLite converter writes around the layers: the float interface of an int8 model
 * (QUANTIZE after the input, DEQUANTIZE before the output), TensorFlow's long tensor names
 * (`;`, `/`, `:`), RESHAPE with only a shape tensor (no options table), per-channel
 * FULLY_CONNECTED weights with and without a bias, a pruned conv filter (int8 channel scale 0),
 * one tensor read twice by one operator, an
 * int8 -> int8 QUANTIZE (requantize), and an int8 output also read internally.
 */
export const converterQuirks: Network = (b) => {
  const xf = b.input('serving_default_input_1:0', [1, 6, 6, 4], 'float32');
  const x = b.quantize(xf, 'model/quantize');
  const c = b.pruned(() => b.conv(x, 'model/conv2d/BiasAdd;model/conv2d/Conv2D;model/conv2d/BiasAdd/ReadVariableOp', 6, 3, 1, 'SAME', 'RELU'));
  const flat = b.reshape(c, 'model/flatten/Reshape', [1, 216], true);
  const d = b.fc(flat, 'model/dense/MatMul', 10, { perChannel: true, bias: false });
  const d2 = b.fc(d, 'model/dense_1/MatMul;model/dense_1/BiasAdd', 6, { perChannel: true, activation: 'RELU' });
  const twice = b.binary('ADD', d2, d2, 'model/tf.math.add/Add');
  const rq = b.requantize(twice, 'model/requantize');
  const prod = b.binary('MUL', rq, d2, 'model/multiply/mul');
  b.output(b.dequantize(prod, 'StatefulPartitionedCall:0'));
  b.output(d2);
};

/**
 * An audio CNN-LSTM: conv over a spectrogram, RESHAPE to (time, features), a Keras-style
 * UNIDIRECTIONAL_SEQUENCE_LSTM with variable state, the sequence flattened into a classifier;
 * the LSTM's sequence is also an output. LiteRT (WASM) cannot run variable tensors, so this
 * one is checked against the interpreter only (the operator has its own TFLite Micro figures).
 */
export const audioLstm: Network = (b) => {
  const spec = b.input('spectrogram', [1, 8, 6, 1]);
  const conv = b.conv(spec, 'conv', 4, 3, 2, 'SAME', 'RELU');
  const seq = b.lstm(b.reshape(conv, 'frames', [1, 4, 12]), 'lstm', 8);
  b.output(seq);
  b.output(b.softmax(b.fc(b.reshape(seq, 'flat', [1, 32]), 'classifier', 3), 'probs'));
};

/** Outputs that alias others through data movement: RESHAPE of a model input, an output and its RESHAPE, a duplicated input read. */
export const aliasedOutputs: Network = (b) => {
  const x = b.input('x', [1, 4, 4, 2]);
  b.output(b.reshape(x, 'x_flat', [1, 32]));
  const c = b.conv(x, 'conv', 4, 3, 1, 'SAME', 'RELU');
  b.output(c);
  const rc = b.reshape(c, 'conv_flat', [1, 64]);
  b.output(rc);
  b.output(b.fc(rc, 'fc', 5));
  b.output(b.concat([c, c], 3, 'twice'));
};

/**
 * A small U-Net-like segmenter: strided encoder convs, a TRANSPOSE_CONV decoder step and a
 * RESIZE_NEAREST_NEIGHBOR one, each CONCATENATEd with its encoder skip, a RESIZE_BILINEAR
 * head back to the input size, per-pixel SOFTMAX and ARG_MAX (int32) as two outputs.
 */
export const unetSegmenter: Network = (b) => {
  const x = b.input('image', [1, 8, 8, 3]);
  const e1 = b.conv(x, 'enc1', 6, 3, 1, 'SAME', 'RELU');
  const e2 = b.conv(e1, 'enc2', 8, 3, 2, 'SAME', 'RELU');
  const e3 = b.conv(e2, 'enc3', 8, 3, 2, 'SAME', 'RELU');
  const u2 = b.pruned(() => b.transposeConv(e3, 'up2', 8, 3, 2));
  const d2 = b.conv(b.concat([u2, e2], 3, 'skip2'), 'dec2', 6, 3, 1, 'SAME', 'RELU');
  const u1 = b.resize(d2, 'up1', 'nearest', 8, 8);
  const d1 = b.conv(b.concat([u1, e1], 3, 'skip1'), 'dec1', 4, 3, 1, 'SAME');
  const small = b.conv(b.avgPool(d1, 'pool', 2, 2, 'VALID'), 'logits_small', 3, 3, 1, 'SAME');
  const logits = b.resize(small, 'logits', 'bilinear', 8, 8);
  b.output(b.softmax(logits, 'probs'));
  b.output(b.argMax(logits, 'labels', 3));
};
