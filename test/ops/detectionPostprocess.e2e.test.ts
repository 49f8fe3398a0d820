/**
 * TFLite_Detection_PostProcess compiled host-only and run under strict gcc: several operators
 * (fast and regular NMS, keypoints, anchors as an input, extra output rows, the merge-sort
 * path, score ties) in one model, every output byte-exact with the interpreter, whose
 * outputs also match TFLM's test goldens.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { expectRunsByteExact } from '../e2e/harness';
import {
  combinedDetectionTflite,
  DetectionModel,
  detectionInputs,
  randomDetectionCase,
  TFLM_ANCHORS,
  TFLM_BOXES,
  TFLM_BOXES_KEYPOINTS,
  TFLM_OPTIONS,
  TFLM_SCORES_BACKGROUND,
  TFLM_SCORES_TIES,
} from './detectionPostprocessModels';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const SPECIAL_SCORES = [0, NaN, 0.5, -0, Infinity, NaN, 0, -Infinity, 0.25, 0, 0.5, 0.5, 0, NaN, NaN, 0, -0, 0.125];

describe('TFLite_Detection_PostProcess under gcc', () => {
  it('every output of eight operators byte-exact with the interpreter', () => {
    const cases: { model: DetectionModel; scores: readonly number[] }[] = [
      { model: { boxes: TFLM_BOXES, classes: 3, anchors: TFLM_ANCHORS, options: TFLM_OPTIONS }, scores: TFLM_SCORES_BACKGROUND },
      { model: { boxes: TFLM_BOXES, classes: 3, anchors: TFLM_ANCHORS, options: { ...TFLM_OPTIONS, use_regular_nms: true } }, scores: TFLM_SCORES_BACKGROUND },
      { model: { boxes: TFLM_BOXES_KEYPOINTS, boxStride: 5, classes: 2, anchors: TFLM_ANCHORS, options: TFLM_OPTIONS }, scores: TFLM_SCORES_TIES },
      randomDetectionCase(11, 40, 5, { ...TFLM_OPTIONS, max_detections: 10, num_classes: 4, nms_score_threshold: 0.25, nms_iou_threshold: 0.3 }, { rows: 12 }),
      randomDetectionCase(12, 36, 4, { ...TFLM_OPTIONS, use_regular_nms: true, max_detections: 8, detections_per_class: 3, num_classes: 4, nms_score_threshold: 0.2 }, { anchorsInput: true }),
      randomDetectionCase(13, 42, 2, { ...TFLM_OPTIONS, max_detections: 6, num_classes: 2, nms_iou_threshold: 1 }),
      // NaN, infinite and negative-zero scores: never kept (NaN) or kept and ordered alike in JS and C.
      { model: { boxes: TFLM_BOXES, classes: 3, anchors: TFLM_ANCHORS, options: { ...TFLM_OPTIONS, nms_score_threshold: -1 } }, scores: SPECIAL_SCORES },
      { model: { boxes: TFLM_BOXES, classes: 3, anchors: TFLM_ANCHORS, options: { ...TFLM_OPTIONS, use_regular_nms: true, detections_per_class: 2, nms_score_threshold: -1 } }, scores: SPECIAL_SCORES },
    ];
    const registry = new BackendRegistry();
    registry.register(HostOnlyBackend);
    const graph = importTflite(combinedDetectionTflite(cases.map((c) => c.model)), 'detect.tflite');
    const inputs = cases.flatMap((c) => detectionInputs(c.model, c.scores));
    const expected = interpret(graph, inputs);
    expect(expected).toHaveLength(32);
    // The first operator is TFLM's FloatFastNMS: its goldens exactly.
    expect(Array.from(new Float32Array(expected[0].slice().buffer))).toEqual([0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101]);
    expect(Array.from(new Float32Array(expected[3].slice().buffer))).toEqual([3]);
    // Special scores, fast NMS: NaN maxima are never kept; box 1's Infinity wins over its NaN (a tie, lower class).
    const special = expected.slice(24, 28).map((o) => Array.from(new Float32Array(o.slice().buffer)));
    expect(special.slice(1)).toEqual([[0, 0, 1], [Infinity, 0.5, 0.125], [3]]);
    [0, 0.1, 1, 1.1, 0, 10, 1, 11, 0, 100, 1, 101].forEach((v, i) => expect(special[0][i]).toBeCloseTo(v, 5));
    const result = compileModel(graph, { backend: 'host_only', registry });
    // Each operator's scratch is planned by the USMP like any buffer.
    const planned = result.usmp.buffers.map((b) => b.name);
    expect(planned.filter((n) => /_scratch_(f32|i32)/.test(n))).toHaveLength(16);
    expect(result.usmp.unplanned).toHaveLength(0);
    expect(result.artifacts.files.map((f) => f.content).join('\n')).toContain('uma_ref_detection_postprocess(');
    // The kernel ships in its own source (the one needing libm); the other kernels' file is not needed here.
    expect(result.artifacts.runtimeFiles.map((f) => f.path).sort()).toEqual(['include/uma_ref_kernels.h', 'include/uma_runtime.h', 'src/uma_ref_detection.c']);
    expectRunsByteExact(result, inputs, expected);
  });
});
