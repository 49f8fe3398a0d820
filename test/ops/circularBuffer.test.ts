/**
 * TFLite Micro's CIRCULAR_BUFFER custom operator on its kernel test's goldens
 * (kernels/circular_buffer_test.cc: inputs i * depth + j + 1, the buffer after each invoke)
 * over several invocations: the interpreter session equals the goldens, and the generated C,
 * compiled by gcc and invoked as many times on one loaded program, equals the interpreter byte
 * for byte. Then the forms uma-ts refuses, each a one-line typed error naming the operator.
 */
import { ModelFormatError, UmaError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';
import { flexbufferOptions, TfliteWriter, tfliteOptions, WriterTensor } from '../../src/frontend/tflite/writer';
import { createSession } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import { hostOnlyRegistry } from '../helpers/hostOnlyRegistry';
import { importRefusal } from '../helpers/importRefusal';

/** circular_buffer_flexbuffers_generated_data.cc: the map { cycles_max: 1 }, byte for byte. */
const TFLM_CONFIG = Uint8Array.from([
  0x63, 0x79, 0x63, 0x6c, 0x65, 0x73, 0x5f, 0x6d, 0x61, 0x78, 0x00, 0x01, 0x0c, 0x01, 0x01, 0x01, 0x01, 0x04, 0x02, 0x24, 0x01,
]);

/** OutputTensorLength4 and OutputTensorOnEveryIterationLength4: depth 3, 4 slots. */
const GOLDENS_4 = [
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3],
  [0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6],
  [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
];

/** OutputTensorLength5: depth 4, 5 slots (period 1 by Prepare's guess for 5 slots). */
const GOLDENS_5 = [
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4],
  [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8],
  [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
  [0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
  [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
  [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
];

interface BufferSpec {
  readonly depth: number;
  readonly slots: number;
  readonly options?: Uint8Array;
  /** The bool `valid` output of TFLite Micro's current kernel. */
  readonly valid?: boolean;
  readonly zeroPoint?: number;
  /** Mark the output a variable tensor, as converted streaming models do. */
  readonly variable?: boolean;
  readonly inputShape?: number[];
  readonly outputShape?: number[];
  readonly dtype?: 'int8' | 'int16';
  readonly validShape?: number[];
  readonly extraInput?: boolean;
}

/** One model holding one CIRCULAR_BUFFER per spec, each on its own input; every output a model output. */
function model(specs: readonly BufferSpec[]): Uint8Array {
  const w = new TfliteWriter();
  specs.forEach((s, k) => {
    const quant = { scale: [1], zeroPoint: [s.zeroPoint ?? 0] };
    const dtype = s.dtype ?? 'int8';
    const x = w.addInput({ name: `x${k}`, shape: s.inputShape ?? [1, 1, 1, s.depth], dtype, quant });
    const inputs = s.extraInput ? [x, w.addInput({ name: `e${k}`, shape: [1], dtype: 'int8' })] : [x];
    const y: WriterTensor = { name: `y${k}`, shape: s.outputShape ?? [1, s.slots, 1, s.depth], dtype, quant, isVariable: s.variable };
    const outputs = [w.addTensor(y)];
    if (s.valid) outputs.push(w.addTensor({ name: `valid${k}`, shape: s.validShape ?? [1], dtype: 'bool' }));
    w.addOperator({ op: 'CUSTOM', customCode: 'CIRCULAR_BUFFER', inputs, outputs, ...(s.options ? { customOptions: s.options } : {}) });
    outputs.forEach((o) => w.markOutput(o));
  });
  return w.finish();
}

/** The kernel test's input of invocation i: i * depth + j + 1. */
function testInput(i: number, depth: number): Uint8Array {
  return Uint8Array.from({ length: depth }, (_, j) => i * depth + j + 1);
}

const asI8 = (b: Uint8Array): number[] => Array.from(new Int8Array(b.buffer, b.byteOffset, b.length));

describe('CIRCULAR_BUFFER on TFLite Micro goldens', () => {
  // OutputTensorLength4 runs without options: Prepare's period 2; TFLM's status is OK on odd invokes,
  // which its current kernel writes as the valid output instead of aborting.
  const length4 = { depth: 3, slots: 4, valid: true };
  const everyIteration = { depth: 3, slots: 4, options: TFLM_CONFIG };
  const length5 = { depth: 4, slots: 5 };
  const invocations = GOLDENS_5.map((_, i) => [testInput(i, 3), testInput(i, 3), testInput(i, 4)]).slice(0, 5);

  it('the interpreter session follows the three kernel tests invocation by invocation; a new session starts over', () => {
    const graph = importTflite(model([length4, everyIteration, length5]), 'cb.tflite');
    for (const round of [0, 1]) {
      const session = createSession(graph);
      GOLDENS_5.forEach((golden5, i) => {
        const [y4, valid4, yEvery, y5] = session.invoke([testInput(i, 3), testInput(i, 3), testInput(i, 4)]);
        if (i < GOLDENS_4.length) {
          expect(asI8(y4)).toEqual(GOLDENS_4[i]);
          expect(Array.from(valid4)).toEqual([i % 2 === 1 ? 1 : 0]);
          expect(asI8(yEvery)).toEqual(GOLDENS_4[i]);
        }
        expect(asI8(y5)).toEqual(golden5);
      });
    }
  });

  it('the generated C over the same invocations on one loaded program equals the interpreter byte for byte', () => {
    const graph = importTflite(model([length4, everyIteration, length5]), 'cb.tflite');
    const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), invocations });
    expect(report.failure).toBeUndefined();
    expect(report.timesNs).toHaveLength(invocations.length);
    expect(report.comparisons).toHaveLength(4 * invocations.length);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
  });

  it('a period of 3, a non-zero zero point (the reset value of the variable output), a batch of 2 (only the first batch shifts, as TFLM) and two identical buffers (two states): C = interpreter', () => {
    const batched: BufferSpec = { depth: 2, slots: 2, inputShape: [2, 1, 1, 2], outputShape: [2, 2, 1, 2], zeroPoint: 7, options: flexbufferOptions({ cycles_max: { int: 1 } }) };
    const specs: BufferSpec[] = [{ depth: 2, slots: 3, valid: true, options: flexbufferOptions({ cycles_max: { int: 3 } }), zeroPoint: -5, variable: true }, batched, batched];
    const graph = importTflite(model(specs), 'cb3.tflite');
    const runs = [0, 1, 2, 3, 4, 5, 6].map((i) => [Uint8Array.from([i + 1, -(i + 1) & 0xff]), Uint8Array.from([10 + i, 20 + i, 30 + i, 40 + i]), Uint8Array.from([50 + i, 60 + i, 0, 0])]);
    const session = createSession(graph);
    const seen = runs.map((inputs) => session.invoke(inputs));
    expect(seen.map((o) => o[1][0])).toEqual([0, 0, 1, 0, 0, 1, 0]);
    expect(asI8(seen[0][0])).toEqual([-5, -5, -5, -5, 1, -1]);
    expect(asI8(seen[3][0])).toEqual([2, -2, 3, -3, 4, -4]);
    expect(asI8(seen[0][2])).toEqual([7, 7, 10, 20, 7, 7, 7, 7]);
    expect(asI8(seen[1][2])).toEqual([10, 20, 11, 21, 7, 7, 7, 7]);
    expect(asI8(seen[1][3])).toEqual([50, 60, 51, 61, 7, 7, 7, 7]);
    const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), invocations: runs });
    expect(report.failure).toBeUndefined();
    expect(report.timesNs).toHaveLength(runs.length);
    expect(report.comparisons).toHaveLength(4 * runs.length);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
  });
});

describe('CIRCULAR_BUFFER feeding the graph', () => {
  it('a buffer of period 2 read by an ADD, over 6 invocations on Cortex-M55 (arm-none-eabi-gcc, QEMU): C = interpreter', () => {
    const w = new TfliteWriter();
    const q = { scale: [0.5], zeroPoint: [-3] };
    const x = w.addInput({ name: 'x', shape: [1, 1, 2, 3], dtype: 'int8', quant: q });
    const y = w.addTensor({ name: 'y', shape: [1, 3, 2, 3], dtype: 'int8', quant: q, isVariable: true });
    const valid = w.addTensor({ name: 'valid', shape: [], dtype: 'bool' });
    const z = w.addTensor({ name: 'z', shape: [1, 3, 2, 3], dtype: 'int8', quant: { scale: [1], zeroPoint: [2] } });
    w.addOperator({ op: 'CUSTOM', customCode: 'CIRCULAR_BUFFER', inputs: [x], outputs: [y, valid], customOptions: flexbufferOptions({ cycles_max: { int: 2 } }) });
    w.addOperator({ op: 'ADD', inputs: [y, y], outputs: [z], options: tfliteOptions.add() });
    w.markOutput(z);
    w.markOutput(valid);
    const graph = importTflite(w.finish(), 'stream.tflite');
    const runs = [0, 1, 2, 3, 4, 5].map((i) => [Uint8Array.from({ length: 6 }, (_, j) => (i * 37 + j * 91) & 0xff)]);
    const session = createSession(graph);
    const seen = runs.map((inputs) => session.invoke(inputs));
    expect(seen.map((o) => o[1][0])).toEqual([0, 1, 0, 1, 0, 1]);
    // The first invocation: two slots still at the zero point (0.0 + 0.0 -> z's zero point 2), then the input doubled.
    expect(asI8(seen[0][0]).slice(0, 12)).toEqual(Array(12).fill(2));
    const report = verifyModel(graph, { backend: 'host_only', registry: hostOnlyRegistry(), target: 'cortex-m55', invocations: runs });
    expect(report.failure).toBeUndefined();
    // Section sizes come only from the cortex-m55 build: the program did run under QEMU.
    expect(report.sections).toBeDefined();
    expect(report.comparisons).toHaveLength(2 * runs.length);
    expect(report.comparisons.filter((c) => !c.equal)).toEqual([]);
  });
});

describe('CIRCULAR_BUFFER refusals', () => {
  const refusal = (specs: BufferSpec[]): UmaError => importRefusal(model(specs));

  it('one output with a period above 1 (TFLM aborts the rest of the invocation) is refused, naming the operator and the period', () => {
    const e = refusal([{ depth: 3, slots: 4 }]);
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toMatch(/^unsupported period 2 with one output \(TFLite Micro aborts the invocation, skipping every later operator, 1 in 2 times;.* on CIRCULAR_BUFFER at operator #0 in bad\.tflite$/);
    expect(refusal([{ depth: 3, slots: 4, options: flexbufferOptions({ cycles_max: { int: 4 } }) }]).message).toMatch(/^unsupported period 4 with one output/);
  });

  it("Prepare's guess that depends on TFLM's process-wide counter is refused", () => {
    const e = refusal([{ depth: 96, slots: 3, inputShape: [1, 1, 2, 96], outputShape: [1, 3, 2, 96], valid: true }]);
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toMatch(/^unsupported cycles_max 0 with an output of shape \[1,3,2,96\] .* on CIRCULAR_BUFFER at operator #0/);
  });

  it("damaged custom_options (TFLM's config, truncated or with a byte changed) import or fail with a typed one-line error, never a crash", () => {
    const outcomes = new Set<string>();
    const attempt = (options: Uint8Array): void => {
      try {
        importTflite(model([{ depth: 3, slots: 4, valid: true, options }]), 'bad.tflite');
        outcomes.add('ok');
      } catch (e) {
        if (!(e instanceof UmaError)) throw e;
        expect(e.message).not.toContain('\n');
        outcomes.add(e.constructor.name);
      }
    };
    for (let n = 1; n < TFLM_CONFIG.length; n++) attempt(TFLM_CONFIG.slice(0, n));
    for (let i = 0; i < TFLM_CONFIG.length; i++) for (const v of [0x00, 0xff, TFLM_CONFIG[i] ^ 0x10]) attempt(Uint8Array.from(TFLM_CONFIG, (b, k) => (k === i ? v : b)));
    expect(outcomes.has('ok')).toBe(true);
    expect(outcomes.has('ModelFormatError')).toBe(true);
  });

  it('bad types, shapes, counts and options are typed one-line errors', () => {
    const cases: [BufferSpec, typeof UmaError, RegExp][] = [
      [{ depth: 3, slots: 4, dtype: 'int16', valid: true }, UnsupportedOperatorError, /^unsupported type int16 \(TFLite Micro's CIRCULAR_BUFFER takes int8\) on CIRCULAR_BUFFER at operator #0/],
      [{ depth: 3, slots: 4, valid: true, inputShape: [1, 2, 1, 3] }, ModelFormatError, /input \[1,2,1,3\] must be \[1, 1, 1, 3\] for output \[1,4,1,3\] \(CIRCULAR_BUFFER at operator #0\)/],
      [{ depth: 3, slots: 4, valid: true, inputShape: [1, 3], outputShape: [4, 3] }, ModelFormatError, /must have 4 dimensions \(CIRCULAR_BUFFER at operator #0\)/],
      [{ depth: 3, slots: 0, valid: true }, UnsupportedOperatorError, /^unsupported output of 0 slots/],
      [{ depth: 3, slots: 4, valid: true, validShape: [2] }, ModelFormatError, /valid output \[2\] bool, expected one bool \(CIRCULAR_BUFFER at operator #0\)/],
      [{ depth: 3, slots: 4, valid: true, extraInput: true }, ModelFormatError, /has 2 inputs, expected 1 \(CIRCULAR_BUFFER at operator #0\)/],
      [{ depth: 3, slots: 4, valid: true, options: flexbufferOptions({ cycles_max: { int: 2 }, other: { int: 1 } }) }, ModelFormatError, /custom_options holds 2 entries, expected 1 \(cycles_max\)/],
      [{ depth: 3, slots: 4, valid: true, options: flexbufferOptions({ period: { int: 2 } }) }, ModelFormatError, /custom_options has no cycles_max/],
    ];
    for (const [spec, type, message] of cases) {
      const e = refusal([spec]);
      expect([e.constructor.name, e.message]).toEqual([type.name, expect.stringMatching(message)]);
    }
  });
});
