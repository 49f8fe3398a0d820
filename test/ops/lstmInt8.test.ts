/**
 * int8 UNIDIRECTIONAL_SEQUENCE_LSTM with an int16 cell state (TFLite Micro's integer LSTM):
 * the int16 logistic/tanh against their definitions, writer-built models imported, the
 * interpreter against the `uma_ref_lstm_int8` lowering (evaluator twin) byte for byte over a
 * session, and the dequantized output against a float64 LSTM of the dequantized weights.
 */
import { logisticInt16, SIGMOID_TABLE_UINT16, tanhInt16 } from '../../src/arith/sigmoidInt16';

/** Q3.12 inputs: the power-of-two form without shift, as the LSTM gates use it. */
const POT = { inputMultiplier: 0, inputLeftShift: 0 };
import { importTflite } from '../../src/frontend/tflite';
import { createSession, interpret } from '../../src/interpreter';
import { collectCallExterns } from '../../src/ir/tir/analysis';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { INT8_SPECS, Int8LstmSpec, int8LstmInput, int8LstmModel } from './lstmInt8Models';


const int8s = (b: Uint8Array): number[] => Array.from(new Int8Array(b.slice().buffer));

/** Float64 LSTM of dequantized weights/input, output in real values. */
function floatReference(spec: Int8LstmSpec, m: ReturnType<typeof int8LstmModel>, input: Uint8Array): number[] {
  const x = Array.from(new Int8Array(input.buffer), (v) => (v - spec.inputZeroPoint) * spec.inputScale);
  const { time, batch, inputSize: n, units } = spec;
  const sig = (v: number): number => 1 / (1 + Math.exp(-v));
  const out = new Array<number>(time * batch * units).fill(0);
  for (let row = 0; row < batch; row++) {
    const h = new Array<number>(units).fill(0);
    const c = new Array<number>(units).fill(0);
    for (let t = 0; t < time; t++) {
      const step = spec.timeMajor ? t * batch + row : row * time + t;
      const pre = [0, 1, 2, 3].map((g) =>
        Array.from({ length: units }, (_, u) => {
          let s = m.B[g][u];
          for (let i = 0; i < n; i++) s += m.W[g][u * n + i] * x[step * n + i];
          for (let k = 0; k < units; k++) s += m.R[g][u * units + k] * h[k];
          return s;
        }),
      );
      for (let u = 0; u < units; u++) {
        c[u] = sig(pre[1][u]) * c[u] + sig(pre[0][u]) * Math.tanh(pre[2][u]);
        if (spec.cellClip) c[u] = Math.max(-spec.cellClip, Math.min(spec.cellClip, c[u]));
      }
      for (let u = 0; u < units; u++) {
        h[u] = sig(pre[3][u]) * Math.tanh(c[u]);
        out[step * units + u] = h[u];
      }
    }
  }
  return out;
}

describe('int16 logistic and tanh (reference_integer_ops)', () => {
  it('the sigmoid table is sigmoid(i/24) in Q0.16 (TFLite rounds within 1.5 units)', () => {
    expect(SIGMOID_TABLE_UINT16).toHaveLength(256);
    SIGMOID_TABLE_UINT16.forEach((v, i) => expect(Math.abs(v - 65536 / (1 + Math.exp(-i / 24)))).toBeLessThanOrEqual(1.5));
    expect(SIGMOID_TABLE_UINT16[4]).toBe(35493);
  });

  it('Q3.12 in, Q0.15 out: close to sigmoid and tanh, saturating, odd/complementary', () => {
    for (const q of [-32768, -20000, -4096, -1000, -1, 0, 1, 777, 4096, 20000, 32767]) {
      const real = q / 4096;
      expect(Math.abs(logisticInt16(POT, q) / 32768 - 1 / (1 + Math.exp(-real)))).toBeLessThan(2e-4);
      expect(Math.abs(tanhInt16(POT, q) / 32768 - Math.tanh(real))).toBeLessThan(4e-4);
    }
    // Q3.12 reaches +-8 (x3/4 scaling in the table walk): tanh saturates, logistic does not.
    expect(tanhInt16(POT, 32767)).toBe(32767);
    expect(tanhInt16(POT, -32768)).toBe(-32767);
    expect(logisticInt16(POT, 32767)).toBe(Math.round(32768 / (1 + Math.exp(-8))));
    expect(logisticInt16(POT, -32768) + logisticInt16(POT, 32767)).toBeGreaterThanOrEqual(32767);
  });
});

describe('unidirectional_sequence_lstm int8 (int16 cell state)', () => {
  it.each(INT8_SPECS)('%s: lowering equals the interpreter over a 3-invocation session', (_name, spec) => {
    const model = int8LstmModel(spec);
    const graph = importTflite(model.bytes);
    const tir = lowerForCpu(graph);
    const kernels = [...tir.functions.values()].flatMap((f) => collectCallExterns(f).map((c) => c.name));
    expect(kernels).toContain('uma_ref_lstm_int8');
    const session = createSession(graph);
    // The evaluator starts each runMain from the model's initial state: compare the first
    // invocation, and the session's later ones against their own fresh-state reruns differing.
    const input = int8LstmInput(spec, 7);
    const first = session.invoke([input])[0];
    const lowered = runMain(tir, [input], { externs: LOWERING_EXTERN_SIMULATIONS })[0];
    expect(int8s(lowered)).toEqual(int8s(first));
    expect(new Set(int8s(first)).size).toBeGreaterThan(4);
    const second = session.invoke([input])[0];
    expect(int8s(second)).not.toEqual(int8s(first));
  });

  it.each(INT8_SPECS)('%s: dequantized output follows a float64 LSTM of the dequantized weights', (_name, spec) => {
    const model = int8LstmModel(spec);
    const input = int8LstmInput(spec, 8);
    const got = int8s(interpret(importTflite(model.bytes), [input])[0]).map((v) => (v - spec.hiddenZeroPoint) * spec.hiddenScale);
    const want = floatReference(spec, model, input);
    got.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(0.04));
  });

  it('a float cell state with int8 input is rejected with the reason', () => {
    const spec = INT8_SPECS[0][1];
    const graph = importTflite(int8LstmModel(spec).bytes);
    const main = graph.functions.get('main')!;
    const cell = main.nodes.find((nd) => nd.name === 'cell_state')!;
    const bad = { ...graph, functions: new Map([['main', { ...main, nodes: main.nodes.map((nd) => (nd === cell ? { ...nd, type: { ...nd.type, dtype: 'int8' as const } } : nd)) }]]) };
    expect(() => lowerForCpu(bad as typeof graph)).toThrow(/cell state dtype int8/);
  });
});
