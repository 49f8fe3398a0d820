/**
 * Float UNIDIRECTIONAL_SEQUENCE_LSTM: writer-built models through the importer, the
 * interpreter (sessions keep the variable output/cell state) against the CPU lowering run by
 * the TIR evaluator byte for byte, LiteRT on the first invocation, and the import errors for
 * the variants TFLite Micro does not run.
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { createSession, interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { IRModule } from '../../src/ir/graph/types';
import { collectAllocates } from '../../src/ir/tir/analysis';
import { lowerForCpu } from '../lower/helpers';
import { floats, lstmInput, lstmModel, LstmModelSpec } from './lstmModels';

const SPECS: [string, LstmModelSpec][] = [
  ['batch-major, 2 rows', { time: 3, batch: 2, inputSize: 5, units: 4, seed: 10 }],
  ['time-major, cell clip 0.8', { time: 4, batch: 2, inputSize: 3, units: 6, timeMajor: true, cellClip: 0.8, seed: 20 }],
  ['one row, wide input', { time: 2, batch: 1, inputSize: 9, units: 3, seed: 30 }],
];

const floatsOf = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));

/** i, f, g, o = sigma/tanh(W x + R h + b); c = f c + i g (clipped); h = o tanh(c), in doubles. */
function textbookLstm(spec: LstmModelSpec, x: number[]): number[] {
  const { time, batch, inputSize: n, units: m } = spec;
  let seed = spec.seed;
  const take = (count: number, amplitude: number): number[] => floats(seed++, count, amplitude);
  const W = [0, 1, 2, 3].map(() => take(m * n, 0.6));
  const R = [0, 1, 2, 3].map(() => take(m * m, 0.5));
  const B = [0, 1, 2, 3].map(() => take(m, 0.3));
  const sig = (v: number): number => 1 / (1 + Math.exp(-v));
  const out = new Array<number>(time * batch * m).fill(0);
  for (let row = 0; row < batch; row++) {
    const h = new Array<number>(m).fill(0);
    const c = new Array<number>(m).fill(0);
    for (let t = 0; t < time; t++) {
      const xo = (spec.timeMajor ? t * batch + row : row * time + t) * n;
      const pre = [0, 1, 2, 3].map((g) =>
        Array.from({ length: m }, (_, u) => {
          let s = B[g][u];
          for (let i = 0; i < n; i++) s += W[g][u * n + i] * x[xo + i];
          for (let k = 0; k < m; k++) s += R[g][u * m + k] * h[k];
          return s;
        }),
      );
      for (let u = 0; u < m; u++) {
        let cu = sig(pre[1][u]) * c[u] + sig(pre[0][u]) * Math.tanh(pre[2][u]);
        if (spec.cellClip) cu = Math.max(-spec.cellClip, Math.min(spec.cellClip, cu));
        c[u] = cu;
      }
      for (let u = 0; u < m; u++) {
        h[u] = sig(pre[3][u]) * Math.tanh(c[u]);
        out[(spec.timeMajor ? t * batch + row : row * time + t) * m + u] = h[u];
      }
    }
  }
  return out;
}

describe('unidirectional_sequence_lstm (float32)', () => {
  it.each(SPECS)('%s: the lowering equals the interpreter on one invocation', (_name, spec) => {
    const graph = importTflite(lstmModel(spec));
    const input = lstmInput(spec, 1);
    const reference = interpret(graph, [input]);
    const lowered = runMain(lowerForCpu(graph), [input], { externs: LOWERING_EXTERN_SIMULATIONS });
    expect(Array.from(lowered[0])).toEqual(Array.from(reference[0]));
    const values = floatsOf(reference[0]);
    expect(new Set(values).size).toBe(values.length);
    expect(values.every((v) => Math.abs(v) < 1)).toBe(true);
  });

  it('cell clip bounds the cell state: hidden = tanh(cell) * gate stays within tanh(clip)', () => {
    const spec: LstmModelSpec = { time: 6, batch: 1, inputSize: 4, units: 5, cellClip: 0.1, seed: 40 };
    const out = floatsOf(interpret(importTflite(lstmModel(spec)), [lstmInput(spec, 2)])[0]);
    expect(out.every((v) => Math.abs(v) <= Math.tanh(0.1) + 1e-7)).toBe(true);
  });

  it('state persists across invocations of an interpreter session (same input, different output)', () => {
    const spec = SPECS[0][1];
    const session = createSession(importTflite(lstmModel(spec)));
    const input = lstmInput(spec, 3);
    const first = session.invoke([input])[0];
    const second = session.invoke([input])[0];
    expect(Array.from(second)).not.toEqual(Array.from(first));
    // A fresh run equals the first invocation: the initial state is zero.
    expect(Array.from(interpret(importTflite(lstmModel(spec)), [input])[0])).toEqual(Array.from(first));
    const state = session.state();
    expect([...state.keys()].some((k) => k.endsWith('cell_state'))).toBe(true);
  });

  // LiteRT cannot be the oracle here: it refuses models with variable tensors ("Variable
  // tensors not yet supported"), and TFLite's LSTM requires its states to be variables.
  it.each(SPECS)('%s: agrees with a float64 textbook LSTM within a small relative tolerance', (_name, spec) => {
    const bytes = lstmModel(spec);
    const input = lstmInput(spec, 60);
    const mine = floatsOf(interpret(importTflite(bytes), [input])[0]);
    const want = textbookLstm(spec, Array.from(new Float32Array(input.buffer)));
    mine.forEach((v, i) => expect(Math.abs(v - want[i])).toBeLessThan(1e-5 + 1e-4 * Math.abs(want[i])));
  });

  describe('import errors name the variant and the operator', () => {
    function variant(mutate: (inputs: number[]) => void, options = tfliteOptions.unidirectionalSequenceLstm()): Uint8Array {
      const w = new TfliteWriter();
      const x = w.addInput({ name: 'x', shape: [1, 2, 3], dtype: 'float32' });
      const c = (shape: number[]): number => w.addConstant({ shape, dtype: 'float32', data: new Array(shape.reduce((a, b) => a * b, 1)).fill(0.1) });
      const inputs = [x, ...[0, 1, 2, 3].map(() => c([2, 3])), ...[0, 1, 2, 3].map(() => c([2, 2])), -1, -1, -1, ...[0, 1, 2, 3].map(() => c([2]))];
      inputs.push(-1, -1);
      inputs.push(w.addTensor({ shape: [1, 2], dtype: 'float32', isVariable: true }), w.addTensor({ shape: [1, 2], dtype: 'float32', isVariable: true }));
      inputs.push(-1, -1, -1, -1);
      mutate(inputs);
      const y = w.addTensor({ shape: [1, 2, 2], dtype: 'float32' });
      w.addOperator({ op: 'UNIDIRECTIONAL_SEQUENCE_LSTM', inputs, outputs: [y], options });
      w.markOutput(y);
      return w.finish();
    }

    it('accepts the standard LSTM', () => {
      expect(() => importTflite(variant(() => undefined))).not.toThrow();
    });
    it.each([
      ['peephole', (i: number[]) => (i[10] = i[12]), /unsupported LSTM variant peephole \(cell_to_forget_weights\) at input 10 on UNIDIRECTIONAL_SEQUENCE_LSTM at operator #0/],
      ['projection', (i: number[]) => (i[16] = i[5]), /unsupported LSTM variant projection \(projection_weights\) at input 16/],
      ['CIFG', (i: number[]) => (i[1] = -1), /unsupported LSTM variant CIFG/],
    ])('%s', (_n, mutate, message) => {
      expect(() => importTflite(variant(mutate as (i: number[]) => void))).toThrow(message);
    });
    it('a non-tanh activation', () => {
      expect(() => importTflite(variant(() => undefined, tfliteOptions.unidirectionalSequenceLstm({ activation: 'RELU' })))).toThrow(/unsupported LSTM activation RELU/);
    });
  });
});

describe('unidirectional_sequence_lstm with plain constant states', () => {
  // States that are constants (not variable tensors) are read-only: every run starts from
  // them, and the lowering works on operator-internal copies.
  function withConstantStates(graph: IRModule, fill: (i: number) => number): IRModule {
    const main = graph.functions.get('main')!;
    const nodes = main.nodes.map((n) => {
      if (n.kind !== 'constant' || !n.variable) return n;
      const count = n.type.shape.reduce((a, b) => a * b, 1);
      const data = new Uint8Array(Float32Array.from({ length: count }, (_, i) => fill(i)).buffer);
      return { kind: 'constant' as const, name: n.name, type: n.type, data };
    });
    return { ...graph, functions: new Map([['main', { ...main, nodes }]]) };
  }

  it('float: runs from the constant state each time, lowering equals the interpreter', () => {
    const spec = SPECS[1][1];
    const imported = importTflite(lstmModel(spec));
    const graph = withConstantStates(imported, (i) => 0.1 * ((i % 5) - 2));
    const input = lstmInput(spec, 5);
    const session = createSession(graph);
    const first = session.invoke([input])[0];
    expect(Array.from(session.invoke([input])[0])).toEqual(Array.from(first));
    expect(Array.from(first)).not.toEqual(Array.from(interpret(imported, [input])[0]));
    const tir = lowerForCpu(graph);
    const lowered = runMain(tir, [input], { externs: LOWERING_EXTERN_SIMULATIONS })[0];
    expect(Array.from(lowered)).toEqual(Array.from(first));
    const names = [...tir.functions.values()].flatMap((f) => collectAllocates(f).map((a) => a.bufferVar.name));
    expect(names.some((n) => n.endsWith('_cell_state'))).toBe(true);
  });
});
