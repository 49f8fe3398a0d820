/**
 * A whole SSD-style detector as the TF Object Detection API exports it for TFLite: a
 * MobileNet-ish backbone (conv stem, depthwise-separable blocks, one strided), box and class
 * 1x1 heads on two feature maps RESHAPEd to (anchors, 4) / (anchors, classes) and concatenated
 * over scales, LOGISTIC class scores, and the custom TFLite_Detection_PostProcess (float) with
 * its four outputs. The int8 form DEQUANTIZEs box encodings and scores before the custom op.
 */
import { detectionOptionsFlex, DetectionOptions } from '../ops/detectionPostprocessModels';
import { Network } from './netBuilder';

/** Anchors per feature-map cell (a square and a wide box). */
const ANCHORS_PER_CELL = 2;
/** Class predictions per anchor: background first, then two classes. */
const CLASSES = 3;

/** Center-size anchors (yc, xc, h, w) for an s x s map, row-major cell order, `ANCHORS_PER_CELL` per cell. */
function anchorsOf(s: number, size: number): number[] {
  const out: number[] = [];
  for (let y = 0; y < s; y++) {
    for (let x = 0; x < s; x++) {
      const yc = (y + 0.5) / s;
      const xc = (x + 0.5) / s;
      out.push(yc, xc, size, size, yc, xc, size / 2, size * 2);
    }
  }
  return out;
}

export const SSD_OPTIONS: DetectionOptions = {
  max_detections: 6,
  max_classes_per_detection: 1,
  detections_per_class: 3,
  nms_score_threshold: 0.05,
  nms_iou_threshold: 0.5,
  num_classes: CLASSES - 1,
  y_scale: 10,
  x_scale: 10,
  h_scale: 5,
  w_scale: 5,
};

/** The detector over a [1, 16, 16, 3] image; `regularNms`: the per-class NMS path instead of the fast one. */
export function ssdDetectorOf(regularNms: boolean, options: DetectionOptions = SSD_OPTIONS): Network {
  return (b) => {
    const x = b.input('image', [1, 16, 16, 3]);
    const stem = b.conv(x, 'stem', 8, 3, 2, 'SAME', 'RELU6');
    const dw1 = b.depthwise(stem, 'block1_dw', 3, 1, 'SAME', 'RELU6');
    const f1 = b.conv(dw1, 'block1_pw', 16, 1, 1, 'SAME', 'RELU6');
    const dw2 = b.depthwise(f1, 'block2_dw', 3, 2, 'SAME', 'RELU6');
    const f2 = b.conv(dw2, 'block2_pw', 24, 1, 1, 'SAME', 'RELU6');
    const maps = [f1, f2];
    const cells = (s: number) => maps[s].shape[1] * maps[s].shape[2] * ANCHORS_PER_CELL;
    const boxes = maps.map((f, s) => b.reshape(b.conv(f, `box_head${s}`, ANCHORS_PER_CELL * 4, 1, 1, 'SAME'), `box_head${s}_flat`, [1, cells(s), 4]));
    const logits = maps.map((f, s) => b.reshape(b.conv(f, `class_head${s}`, ANCHORS_PER_CELL * CLASSES, 1, 1, 'SAME'), `class_head${s}_flat`, [1, cells(s), CLASSES]));
    const boxEncodings = b.dequantize(b.concat(boxes, 1, 'box_encodings_q'), 'box_encodings');
    const scores = b.dequantize(b.unary('LOGISTIC', b.concat(logits, 1, 'class_logits'), 'class_scores_q'), 'class_scores');
    const anchors = [...anchorsOf(f1.shape[1], 0.2), ...anchorsOf(f2.shape[1], 0.4)];
    const outs = b.detectionPostprocess(boxEncodings, scores, anchors, options.max_detections!, detectionOptionsFlex({ ...options, use_regular_nms: regularNms }));
    outs.forEach((o) => b.output(o));
  };
}
