/**
 * TFLite Micro's BasicClassifier custom operator on its kernel test's cases
 * (kernels/basic_classifier_test.cc): the interpreter equals the goldens and the generated C,
 * compiled by gcc, equals the interpreter byte for byte; then the forms uma-ts refuses.
 */
import { ModelFormatError, UmaError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import { hostOnlyRegistry } from '../helpers/hostOnlyRegistry';
import { importRefusal } from '../helpers/importRefusal';

interface ClassifierCase {
  readonly name: string;
  readonly inputShape: number[];
  readonly input: number[];
  readonly indices: number[];
  readonly thresholds: number[];
  readonly detected: boolean[];
  readonly posteriors: number[];
}

/** The kernel test's passing cases, goldens as TFLite Micro's test states them. */
const CASES: ClassifierCase[] = [
  { name: 'TrueCase', inputShape: [5], input: [15, 15, 15, 18, 15], indices: [3], thresholds: [17], detected: [true], posteriors: [18] },
  { name: 'FalseCase', inputShape: [2], input: [0, 12345], indices: [0], thresholds: [12345], detected: [false], posteriors: [0] },
  { name: 'MulticlassCase', inputShape: [5], input: [14, 654, 321, 865, 653], indices: [2, 4], thresholds: [322, 653], detected: [false, true], posteriors: [321, 653] },
  { name: 'TwoDimensionalInput', inputShape: [1, 5], input: [14, 654, 321, 865, 653], indices: [2, 4], thresholds: [322, 653], detected: [false, true], posteriors: [321, 653] },
];

interface ModelSpec {
  readonly inputShape: number[];
  readonly indices: number[];
  readonly thresholds: number[];
  readonly outputs?: number;
  /** Thresholds (or target indices) as model inputs instead of constants. */
  readonly runtimeThresholds?: boolean;
  readonly runtimeIndices?: boolean;
  readonly detectedLength?: number;
}

function model(s: ModelSpec): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: s.inputShape, dtype: 'int32' });
  const n = s.indices.length;
  const indices = s.runtimeIndices ? w.addInput({ name: 'idx', shape: [n], dtype: 'int32' }) : w.addConstant({ name: 'idx', shape: [n], dtype: 'int32', data: s.indices });
  const thresholds = s.runtimeThresholds
    ? w.addInput({ name: 'thr', shape: [s.thresholds.length], dtype: 'int32' })
    : w.addConstant({ name: 'thr', shape: [s.thresholds.length], dtype: 'int32', data: s.thresholds });
  const detected = w.addTensor({ name: 'detected', shape: [s.detectedLength ?? n], dtype: 'bool' });
  const posteriors = w.addTensor({ name: 'posteriors', shape: [n], dtype: 'int32' });
  const outputs = [detected, posteriors].slice(0, s.outputs ?? 2);
  w.addOperator({ op: 'CUSTOM', customCode: 'BasicClassifier', inputs: [x, indices, thresholds], outputs });
  outputs.forEach((o) => w.markOutput(o));
  return w.finish();
}

const i32 = (v: readonly number[]): Uint8Array => new Uint8Array(Int32Array.from(v).buffer);
const asI32 = (b: Uint8Array): number[] => Array.from(new Int32Array(b.slice().buffer));

describe('BasicClassifier on TFLite Micro goldens', () => {
  it.each(CASES)('$name: the interpreter equals the goldens, the C equals the interpreter', (c) => {
    const graph = importTflite(model(c), `${c.name}.tflite`);
    const [detected, posteriors] = interpret(graph, [i32(c.input)]);
    expect(Array.from(detected)).toEqual(c.detected.map((d) => (d ? 1 : 0)));
    expect(asI32(posteriors)).toEqual(c.posteriors);
    const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), invocations: [[i32(c.input)], [i32(c.input.map((v) => v * 3 - 7))]] });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(4);
    expect(report.comparisons.filter((cmp) => !cmp.equal)).toEqual([]);
  });

  it('thresholds read at run time, int32 extremes: C = interpreter', () => {
    const spec = { inputShape: [1, 6], indices: [5, 0, 3, 3], thresholds: [0, 0, 0, 0], runtimeThresholds: true };
    const graph = importTflite(model(spec), 'runtime_thresholds.tflite');
    const inputs = [i32([-2147483648, 1, 2, 2147483647, 4, -1]), i32([-1, -2147483648, 2147483647, -2147483648])];
    const [detected, posteriors] = interpret(graph, inputs);
    expect(Array.from(detected)).toEqual([1, 1, 1, 1]);
    expect(asI32(posteriors)).toEqual([-1, -2147483648, 2147483647, 2147483647]);
    const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), invocations: [inputs], seed: 3 });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons.filter((cmp) => !cmp.equal)).toEqual([]);
  });
});

describe('BasicClassifier refusals', () => {
  const refusal = (spec: ModelSpec): UmaError => importRefusal(model(spec));

  it("InvalidTargetIndex (TFLM's Eval fails) and computed indices are refused at import, naming the operator", () => {
    const e = refusal({ inputShape: [3], indices: [5], thresholds: [15] });
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toMatch(/^unsupported target index 5 \(#0\) outside the input's 3 values .* on BasicClassifier at operator #0 in bad\.tflite$/);
    expect(refusal({ inputShape: [3], indices: [-1], thresholds: [15] }).message).toMatch(/^unsupported target index -1 /);
    const computed = refusal({ inputShape: [3], indices: [1], thresholds: [15], runtimeIndices: true });
    expect(computed).toBeInstanceOf(UnsupportedOperatorError);
    expect(computed.message).toMatch(/^unsupported target_indices computed at run time/);
  });

  it('MismatchedDims and bad counts are model format errors', () => {
    const e = refusal({ inputShape: [5], indices: [1, 2], thresholds: [15, 25, 35] });
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toMatch(/must hold the 2 targets \(BasicClassifier at operator #0\)/);
    expect(refusal({ inputShape: [5], indices: [1, 2], thresholds: [15, 25], detectedLength: 3 })).toBeInstanceOf(ModelFormatError);
    expect(refusal({ inputShape: [5], indices: [1], thresholds: [15], outputs: 1 }).message).toMatch(/has 1 outputs, expected 2/);
    expect(refusal({ inputShape: [1, 1, 5], indices: [1], thresholds: [15] }).message).toMatch(/expected 1 or 2 dimensions/);
  });
});
