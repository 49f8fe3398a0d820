/**
 * Models with TFLite control flow, built with the writer, for the control-flow suites: a
 * simple RNN as a counter WHILE loop (what Keras' SimpleRNN converts to), float32 or int8,
 * a counter loop accumulating a tensor (with hooks for the error cases) and its nested form,
 * and IF with a constant or a run-time condition.
 */
import { TfliteSubgraphWriter, TfliteWriter, tfliteOptions, WriterDType, WriterQuantization } from '../../src/frontend/tflite/writer';
import { seededRandom } from '../../src/util/random';

export interface RnnLoopOptions {
  readonly dtype: 'float32' | 'int8';
  /** Time steps: the trip count the cond compares the counter with. */
  readonly steps: number;
  /** Rows of the input sequence (at least `steps`, at least 1). */
  readonly rows?: number;
  readonly features?: number;
  readonly units?: number;
  readonly seed?: number;
  /**
   * The weights W and R as constants of main passed through the loop as loop values 3 and 4,
   * as the converter passes a Keras layer's captured weights; else constants of the body.
   */
  readonly weightsInMain?: boolean;
}

/** Per-dtype tensor specs: float32 plain, int8 with scales that keep the RNN's values in range. */
function specs(dtype: 'float32' | 'int8') {
  const q = (scale: number, zeroPoint = 0): WriterQuantization | undefined => (dtype === 'int8' ? { scale: [scale], zeroPoint: [zeroPoint] } : undefined);
  return {
    x: { dtype: dtype as WriterDType, quant: q(0.02, 3) },
    weight: { dtype: dtype as WriterDType, quant: q(0.01) },
    bias: { dtype: (dtype === 'int8' ? 'int32' : 'float32') as WriterDType, quant: q(0.02 * 0.01) },
    pre: { dtype: dtype as WriterDType, quant: q(0.03, -2) },
    h: { dtype: dtype as WriterDType, quant: q(1 / 128) },
  };
}

const withQuant = <T extends object>(t: T, quant: WriterQuantization | undefined): T => (quant ? { ...t, quant } : t);

/**
 * x [rows, features] → WHILE(i = [0], h = zeros [1, units], x) while i < steps:
 *   i' = i + 1; h' = tanh(FC(GATHER(x, i), W, b) + FC(h, R)); outputs: final h, final i.
 */
export function rnnLoopModel(o: RnnLoopOptions): { model: Uint8Array; inputs: Uint8Array[] } {
  const rows = o.rows ?? Math.max(1, o.steps);
  const features = o.features ?? 4;
  const units = o.units ?? 3;
  const rand = seededRandom(o.seed ?? 7);
  const s = specs(o.dtype);
  const int8 = o.dtype === 'int8';
  const w = new TfliteWriter('rnn', 'main');
  const cond = w.addSubgraph('cond');
  const body = w.addSubgraph('body');
  const weightData = (n: number) => Array.from({ length: n }, () => (int8 ? Math.round(rand() * 160 - 80) : rand() * 1.6 - 0.8));
  const weightSpecs = [
    { name: 'W', shape: [units, features], dtype: s.weight.dtype, data: weightData(units * features) },
    { name: 'R', shape: [units, units], dtype: s.weight.dtype, data: weightData(units * units) },
  ].map((t) => withQuant(t, s.weight.quant));

  // main
  const x = w.addInput(withQuant({ name: 'x', shape: [rows, features], dtype: s.x.dtype }, s.x.quant));
  const i0 = w.addConstant({ name: 'i0', shape: [1], dtype: 'int32', data: [0] });
  const h0 = w.addConstant(withQuant({ name: 'h0', shape: [1, units], dtype: s.h.dtype, data: new Array(units).fill(0) }, s.h.quant));
  const iEnd = w.addTensor({ name: 'i_end', shape: [1], dtype: 'int32' });
  const hEnd = w.addTensor(withQuant({ name: 'h_end', shape: [1, units], dtype: s.h.dtype }, s.h.quant));
  const xEnd = w.addTensor(withQuant({ name: 'x_end', shape: [rows, features], dtype: s.x.dtype }, s.x.quant));
  const loopWeights = o.weightsInMain ? weightSpecs.map((t) => w.addConstant(t)) : [];
  const weightsEnd = o.weightsInMain ? weightSpecs.map(({ data: _data, ...t }) => w.addTensor({ ...t, name: `${t.name}_end` })) : [];
  w.addOperator({ op: 'WHILE', inputs: [i0, h0, x, ...loopWeights], outputs: [iEnd, hEnd, xEnd, ...weightsEnd], options: tfliteOptions.while({ cond: cond.index, body: body.index }) });
  w.markOutput(hEnd);
  w.markOutput(iEnd);

  // cond: i < steps
  const loopInputs = (sg: TfliteSubgraphWriter, tag: string) => [
    sg.addInput({ name: `${tag}_i`, shape: [1], dtype: 'int32' }),
    sg.addInput(withQuant({ name: `${tag}_h`, shape: [1, units], dtype: s.h.dtype }, s.h.quant)),
    sg.addInput(withQuant({ name: `${tag}_x`, shape: [rows, features], dtype: s.x.dtype }, s.x.quant)),
    ...(o.weightsInMain ? weightSpecs.map(({ data: _data, ...t }) => sg.addInput({ ...t, name: `${tag}_${t.name}` })) : []),
  ];
  const [ci] = loopInputs(cond, 'c');
  const limit = cond.addConstant({ name: 'steps', shape: [1], dtype: 'int32', data: [o.steps] });
  const more = cond.addTensor({ name: 'more', shape: [1], dtype: 'bool' });
  cond.addOperator({ op: 'LESS', inputs: [ci, limit], outputs: [more] });
  cond.markOutput(more);

  // body
  const [bi, bh, bx, ...bodyWeights] = loopInputs(body, 'b');
  const one = body.addConstant({ name: 'one', shape: [1], dtype: 'int32', data: [1] });
  const iNext = body.addTensor({ name: 'i_next', shape: [1], dtype: 'int32' });
  body.addOperator({ op: 'ADD', inputs: [bi, one], outputs: [iNext], options: tfliteOptions.add() });
  const xt = body.addTensor(withQuant({ name: 'x_t', shape: [1, features], dtype: s.x.dtype }, s.x.quant));
  body.addOperator({ op: 'GATHER', inputs: [bx, bi], outputs: [xt], options: tfliteOptions.gather(0) });
  const [W, R] = o.weightsInMain ? bodyWeights : weightSpecs.map((t) => body.addConstant(t));
  const bias = body.addConstant(withQuant({ name: 'b', shape: [units], dtype: s.bias.dtype, data: Array.from({ length: units }, () => (int8 ? Math.round(rand() * 200 - 100) : rand() * 0.4 - 0.2)) }, s.bias.quant));
  const rBias = int8 ? body.addConstant({ name: 'rb', shape: [units], dtype: 'int32', quant: { scale: [(1 / 128) * 0.01], zeroPoint: [0] }, data: new Array(units).fill(0) }) : -1;
  const inPart = body.addTensor(withQuant({ name: 'in_part', shape: [1, units], dtype: s.pre.dtype }, s.pre.quant));
  body.addOperator({ op: 'FULLY_CONNECTED', inputs: [xt, W, bias], outputs: [inPart], options: tfliteOptions.fullyConnected() });
  const recPart = body.addTensor(withQuant({ name: 'rec_part', shape: [1, units], dtype: s.pre.dtype }, s.pre.quant));
  body.addOperator({ op: 'FULLY_CONNECTED', inputs: [bh, R, rBias], outputs: [recPart], options: tfliteOptions.fullyConnected() });
  const sum = body.addTensor(withQuant({ name: 'sum', shape: [1, units], dtype: s.pre.dtype }, s.pre.quant));
  body.addOperator({ op: 'ADD', inputs: [inPart, recPart], outputs: [sum], options: tfliteOptions.add() });
  const hNext = body.addTensor(withQuant({ name: 'h_next', shape: [1, units], dtype: s.h.dtype }, s.h.quant));
  body.addOperator({ op: 'TANH', inputs: [sum], outputs: [hNext] });
  body.markOutput(iNext);
  body.markOutput(hNext);
  body.markOutput(bx);
  for (const t of bodyWeights) body.markOutput(t);

  const n = rows * features;
  const input = int8 ? new Uint8Array(Int8Array.from({ length: n }, () => Math.round(rand() * 250 - 125)).buffer) : new Uint8Array(Float32Array.from({ length: n }, () => rand() * 4 - 2).buffer);
  return { model: w.finish(), inputs: [input] };
}

export interface IfModelOptions {
  readonly dtype: 'float32' | 'int8';
  /**
   * A constant condition; 'runtime': LESS(s, 0) of input `s`; 'computed': LESS(1, 2) of two
   * constants (true, known at import once folded).
   */
  readonly condition: boolean | 'runtime' | 'computed';
}

/** a, b [2, 3] (and s [1] for a run-time condition) → IF(cond, a, b): then a + b, else a * b. */
export function ifModel(o: IfModelOptions): { model: Uint8Array; inputs: (s: number) => Uint8Array[] } {
  const int8 = o.dtype === 'int8';
  const q = (scale: number, zeroPoint = 0): WriterQuantization | undefined => (int8 ? { scale: [scale], zeroPoint: [zeroPoint] } : undefined);
  const value = (sg: TfliteSubgraphWriter | TfliteWriter, name: string, input: boolean, quant = q(0.05, 1)) => {
    const t = withQuant({ name, shape: [2, 3], dtype: o.dtype as WriterDType }, quant);
    return input ? sg.addInput(t) : sg.addTensor(t);
  };
  const w = new TfliteWriter('if', 'main');
  const thenSg = w.addSubgraph('then');
  const elseSg = w.addSubgraph('else');
  const a = value(w, 'a', true);
  const b = value(w, 'b', true);
  let cond: number;
  if (o.condition === 'runtime') {
    const s = w.addInput({ name: 's', shape: [1], dtype: 'float32' });
    const zero = w.addConstant({ name: 'zero', shape: [1], dtype: 'float32', data: [0] });
    cond = w.addTensor({ name: 'negative', shape: [1], dtype: 'bool' });
    w.addOperator({ op: 'LESS', inputs: [s, zero], outputs: [cond] });
  } else if (o.condition === 'computed') {
    cond = w.addTensor({ name: 'less', shape: [1], dtype: 'bool' });
    const [one, two] = [1, 2].map((v) => w.addConstant({ name: `c${v}`, shape: [1], dtype: 'float32', data: [v] }));
    w.addOperator({ op: 'LESS', inputs: [one, two], outputs: [cond] });
  } else {
    cond = w.addConstant({ name: 'flag', shape: [1], dtype: 'bool', data: [o.condition ? 1 : 0] });
  }
  const y = value(w, 'y', false, q(0.1, -3));
  w.addOperator({ op: 'IF', inputs: [cond, a, b], outputs: [y], options: tfliteOptions.if({ then: thenSg.index, else: elseSg.index }) });
  w.markOutput(y);

  const ta = value(thenSg, 'ta', true);
  const tb = value(thenSg, 'tb', true);
  const ty = value(thenSg, 'ty', false, q(0.1, -3));
  thenSg.addOperator({ op: 'ADD', inputs: [ta, tb], outputs: [ty], options: tfliteOptions.add() });
  thenSg.markOutput(ty);

  const ea = value(elseSg, 'ea', true);
  const eb = value(elseSg, 'eb', true);
  const ey = value(elseSg, 'ey', false, q(0.1, -3));
  elseSg.addOperator({ op: 'MUL', inputs: [ea, eb], outputs: [ey], options: tfliteOptions.mul() });
  elseSg.markOutput(ey);

  const model = w.finish();
  const rand = seededRandom(11);
  const tensor = () =>
    int8 ? new Uint8Array(Int8Array.from({ length: 6 }, () => Math.round(rand() * 200 - 100)).buffer) : new Uint8Array(Float32Array.from({ length: 6 }, () => rand() * 4 - 2).buffer);
  const [ab, bb] = [tensor(), tensor()];
  return { model, inputs: (s) => (o.condition === 'runtime' ? [ab, bb, new Uint8Array(Float32Array.from([s]).buffer)] : [ab, bb]) };
}

/** Loop values (i, limit, acc) of a cond or body subgraph. */
export interface Loop {
  i: number;
  limit: number;
  acc: number;
}

export interface AccumulateSpec {
  readonly steps?: number;
  /** The limit is a model input: the trip count is known only at run time. */
  readonly runtimeLimit?: boolean;
  /** The body (default: i + 1, acc + 0.5); returns the body outputs. */
  readonly body?: (w: TfliteWriter, body: TfliteSubgraphWriter, v: Loop) => Loop;
  /** The cond (default: i < limit); returns its output. */
  readonly cond?: (cond: TfliteSubgraphWriter, v: Loop) => number;
  readonly options?: (cond: number, body: number) => ReturnType<typeof tfliteOptions.while> | undefined;
}

export const loopInputs = (sg: TfliteSubgraphWriter): Loop => ({
  i: sg.addInput({ name: 'i', shape: [1], dtype: 'int32' }),
  limit: sg.addInput({ name: 'limit', shape: [1], dtype: 'int32' }),
  acc: sg.addInput({ name: 'acc', shape: [2], dtype: 'float32' }),
});

/** i + 1 and acc + `step` in `body`. */
export function countAndAdd(body: TfliteSubgraphWriter, v: Loop, step = 0.5): Loop {
  const one = body.addConstant({ name: 'one', shape: [1], dtype: 'int32', data: [1] });
  const i = body.addTensor({ name: 'i_next', shape: [1], dtype: 'int32' });
  body.addOperator({ op: 'ADD', inputs: [v.i, one], outputs: [i], options: tfliteOptions.add() });
  const c = body.addConstant({ name: 'step', shape: [2], dtype: 'float32', data: [step, step] });
  const acc = body.addTensor({ name: 'acc_next', shape: [2], dtype: 'float32' });
  body.addOperator({ op: 'ADD', inputs: [v.acc, c], outputs: [acc], options: tfliteOptions.add() });
  return { i, limit: v.limit, acc };
}

/** The cond i < limit in `cond`. */
function less(cond: TfliteSubgraphWriter, v: Loop): number {
  const more = cond.addTensor({ name: 'more', shape: [1], dtype: 'bool' });
  cond.addOperator({ op: 'LESS', inputs: [v.i, v.limit], outputs: [more] });
  return more;
}

/** The cond and body subgraphs of one counter loop, added to `w`. */
export function addLoopSubgraphs(w: TfliteWriter, spec: AccumulateSpec, tag = ''): { cond: TfliteSubgraphWriter; body: TfliteSubgraphWriter } {
  const cond = w.addSubgraph(`cond${tag}`);
  const body = w.addSubgraph(`body${tag}`);
  cond.markOutput((spec.cond ?? less)(cond, loopInputs(cond)));
  const out = (spec.body ?? ((_w, b, v) => countAndAdd(b, v)))(w, body, loopInputs(body));
  [out.i, out.limit, out.acc].forEach((t) => body.markOutput(t));
  return { cond, body };
}

/** x [2] → WHILE(i = 0, limit, acc = x) → acc. */
export function accumulateLoop(spec: AccumulateSpec = {}): Uint8Array {
  const w = new TfliteWriter('loop', 'main');
  const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
  const limit = spec.runtimeLimit ? w.addInput({ name: 'n', shape: [1], dtype: 'int32' }) : w.addConstant({ name: 'n', shape: [1], dtype: 'int32', data: [spec.steps ?? 3] });
  const i0 = w.addConstant({ name: 'i0', shape: [1], dtype: 'int32', data: [0] });
  const outs = [
    w.addTensor({ name: 'i_end', shape: [1], dtype: 'int32' }),
    w.addTensor({ name: 'n_end', shape: [1], dtype: 'int32' }),
    w.addTensor({ name: 'y', shape: [2], dtype: 'float32' }),
  ];
  const { cond, body } = addLoopSubgraphs(w, spec);
  const options = spec.options ? spec.options(cond.index, body.index) : tfliteOptions.while({ cond: cond.index, body: body.index });
  w.addOperator({ op: 'WHILE', inputs: [i0, limit, x], outputs: outs, ...(options ? { options } : {}) });
  w.markOutput(outs[2]);
  return w.finish();
}

/** x [2] → an outer loop of 2 iterations, each an inner loop of 3 adding 0.25 to acc (a WHILE in a WHILE's body). */
export function nestedLoopModel(): Uint8Array {
  return accumulateLoop({
    steps: 2,
    body: (w, body, v) => {
      const inner = addLoopSubgraphs(w, { body: (_w, b, iv) => countAndAdd(b, iv, 0.25) }, '_inner');
      const j0 = body.addConstant({ name: 'j0', shape: [1], dtype: 'int32', data: [0] });
      const three = body.addConstant({ name: 'three', shape: [1], dtype: 'int32', data: [3] });
      const outs = [
        body.addTensor({ name: 'j_end', shape: [1], dtype: 'int32' }),
        body.addTensor({ name: 'three_end', shape: [1], dtype: 'int32' }),
        body.addTensor({ name: 'inner_acc', shape: [2], dtype: 'float32' }),
      ];
      body.addOperator({ op: 'WHILE', inputs: [j0, three, v.acc], outputs: outs, options: tfliteOptions.while({ cond: inner.cond.index, body: inner.body.index }) });
      const one = body.addConstant({ name: 'one', shape: [1], dtype: 'int32', data: [1] });
      const i = body.addTensor({ name: 'i_next', shape: [1], dtype: 'int32' });
      body.addOperator({ op: 'ADD', inputs: [v.i, one], outputs: [i], options: tfliteOptions.add() });
      return { i, limit: v.limit, acc: outs[2] };
    },
  });
}

/** The float32 [2] tensor the never-run-code models pass around. */
export const TWO_FLOATS = { shape: [2], dtype: 'float32' } as const;
const F = TWO_FLOATS;

/** Adds an operator on `a` to a subgraph and returns its output tensor. */
export type Fill = (sg: TfliteSubgraphWriter, a: number) => number;

/** CONCATENATION on axis 5 of a rank-1 tensor: what no TFLite runtime prepares. */
export const badAxis: Fill = (sg, a) => {
  const o = sg.addTensor({ name: 'o', ...F });
  sg.addOperator({ op: 'CONCATENATION', inputs: [a, a], outputs: [o], options: tfliteOptions.concatenation(5) });
  return o;
};

/** ADD of [2] and [3] into [2]: shapes that do not broadcast. */
export const badAdd: Fill = (sg, a) => {
  const o = sg.addTensor({ name: 'o', ...F });
  sg.addOperator({ op: 'ADD', inputs: [a, sg.addConstant({ name: 'b3', shape: [3], dtype: 'float32', data: [1, 2, 3] })], outputs: [o], options: tfliteOptions.add() });
  return o;
};

/** An operator uma-ts does not support. */
export const unknownOp: Fill = (sg, a) => {
  const o = sg.addTensor({ name: 'o', ...F });
  sg.addOperator({ op: 'MATRIX_DIAG', inputs: [a], outputs: [o] });
  return o;
};

export const relu: Fill = (sg, a) => {
  const o = sg.addTensor({ name: 'r', ...F });
  sg.addOperator({ op: 'RELU', inputs: [a], outputs: [o] });
  return o;
};

/** x → IF(flag, x) → y: `thenFill` and `elseFill` fill the branches. */
export function ifOn(flag: boolean, thenFill: Fill, elseFill: Fill): Uint8Array {
  const w = new TfliteWriter('m', 'main');
  const x = w.addInput({ name: 'x', ...F });
  const [t, e] = [w.addSubgraph('t'), w.addSubgraph('e')];
  t.markOutput(thenFill(t, t.addInput({ name: 'a', ...F })));
  e.markOutput(elseFill(e, e.addInput({ name: 'a', ...F })));
  const y = w.addTensor({ name: 'y', ...F });
  const c = w.addConstant({ name: 'c', shape: [1], dtype: 'bool', data: [flag ? 1 : 0] });
  w.addOperator({ op: 'IF', inputs: [c, x], outputs: [y], options: tfliteOptions.if({ then: t.index, else: e.index }) });
  w.markOutput(y);
  return w.finish();
}

/** x → WHILE(x) whose cond is the constant false: the body (`fill`) never runs. */
export function zeroTrips(fill: Fill): Uint8Array {
  const w = new TfliteWriter('m', 'main');
  const x = w.addInput({ name: 'x', ...F });
  const [c, b] = [w.addSubgraph('c'), w.addSubgraph('b')];
  c.addInput({ name: 'v', ...F });
  c.markOutput(c.addConstant({ name: 'f', shape: [1], dtype: 'bool', data: [0] }));
  b.markOutput(fill(b, b.addInput({ name: 'v', ...F })));
  const y = w.addTensor({ name: 'y', ...F });
  w.addOperator({ op: 'WHILE', inputs: [x], outputs: [y], options: tfliteOptions.while({ cond: c.index, body: b.index }) });
  w.markOutput(y);
  return w.finish();
}

/** x → RELU → y, plus a subgraph no operator runs holding `fill` (named by a signature def when `signature`). */
export function unreferencedSubgraph(fill: Fill, signature = false): Uint8Array {
  const w = new TfliteWriter('m', 'main');
  const x = w.addInput({ name: 'x', ...F });
  const y = w.addTensor({ name: 'y', ...F });
  w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
  w.markOutput(y);
  const other = w.addSubgraph('other');
  const a = other.addInput({ name: 'a', ...F });
  const o = fill(other, a);
  other.markOutput(o);
  if (signature) {
    w.addSignatureDef({ key: 'other', subgraphIndex: 1, inputs: { a }, outputs: { o } });
    w.addSignatureDef({ key: 'serving_default', subgraphIndex: 0, inputs: { x }, outputs: { y } });
  }
  return w.finish();
}
