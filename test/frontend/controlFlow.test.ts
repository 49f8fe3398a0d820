/**
 * TFLite control flow at import (src/frontend/tflite/controlFlow.ts, subgraphCalls.ts): WHILE
 * unrolled when its trip count is known there, IF inlined (a constant condition) or selected
 * (a run-time one), nested loops by recursion; and the one-line error of every refusal:
 * run-time trip counts, the unroll cap, state inside control flow, shapes that change, bad
 * conditions, and corrupt subgraph references (out of range, wrong counts, recursion).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { ModelFormatError, TypeInferenceError, UnsupportedOperatorError } from '../../src/errors';
import { checkTflite, importTflite } from '../../src/frontend/tflite';
import { ControlFlow, MAX_CONTROL_FLOW_NESTING, MAX_INLINED_OPERATORS } from '../../src/frontend/tflite/controlFlow';
import { SubGraph } from '../../src/frontend/tflite/schema';
import { GraphNode } from '../../src/ir/graph/types';
import { flexbufferOptions, TfliteSubgraphWriter, TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { inspectReport } from '../../src/cli/inspect';
import { errorOf } from '../helpers/errorOf';
import { accumulateLoop as accumulate, addLoopSubgraphs, badAdd, badAxis, countAndAdd, Fill, ifModel, ifOn, loopInputs, nestedLoopModel, relu, rnnLoopModel, TWO_FLOATS as F, unknownOp, unreferencedSubgraph, zeroTrips } from './controlFlowModels';

const f32 = (values: number[]) => new Uint8Array(Float32Array.from(values).buffer);
const floats = (bytes: Uint8Array) => Array.from(new Float32Array(bytes.slice().buffer));

const calls = (model: Uint8Array) => importTflite(model, 'cf.tflite').functions.get('main')!.nodes.filter((n) => n.kind === 'call');

describe('WHILE with a trip count known at import', () => {
  it('unrolls the body once per iteration; the counter is folded and its chain pruned', () => {
    const model = accumulate({ steps: 3 });
    const ops = calls(model).map((n) => (n.kind === 'call' && n.callee.kind === 'op' ? n.callee.op : ''));
    // three acc + 0.5 (the counter's adds are folded), then the output view
    expect(ops).toEqual(['add', 'add', 'add', 'reshape']);
    expect(floats(interpret(importTflite(model, 'cf.tflite'), [f32([1, -2])])[0])).toEqual([2.5, -0.5]);
  });

  it('a trip count of 0 passes the inputs through', () => {
    const model = accumulate({ steps: 0 });
    expect(floats(interpret(importTflite(model, 'cf.tflite'), [f32([1, -2])])[0])).toEqual([1, -2]);
  });

  it('a WHILE in a body is unrolled by recursion', () => {
    // outer: 2 iterations of { inner: 3 iterations of acc + 0.25; i + 1 }
    const model = nestedLoopModel();
    expect(floats(interpret(importTflite(model, 'cf.tflite'), [f32([1, -2])])[0])).toEqual([2.5, -0.5]);
    expect(calls(model).filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'add')).toHaveLength(6);
  });

  it('the RNN loop: one GATHER by the folded counter per step, weights shared by the steps', () => {
    const { model } = rnnLoopModel({ dtype: 'float32', steps: 4 });
    const main = importTflite(model, 'rnn.tflite').functions.get('main')!;
    const gathers = main.nodes.filter((n) => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === 'gather');
    expect(gathers).toHaveLength(4);
    const constants = main.nodes.filter((n) => n.kind === 'constant').map((n) => n.name);
    expect(constants.filter((n) => n.endsWith('/W'))).toHaveLength(1);
    expect(new Set(main.nodes.map((n) => n.name)).size).toBe(main.nodes.length);
  });

  it('inspect lists nothing unsupported', () => {
    const { model } = rnnLoopModel({ dtype: 'int8', steps: 2 });
    const dir = mkdtempSync(join(tmpdir(), 'uma-cf-'));
    try {
      writeFileSync(join(dir, 'rnn.tflite'), model);
      const report = inspectReport(join(dir, 'rnn.tflite'));
      expect(report).toContain('unsupported operators: none');
      expect(report).not.toContain('WHILE');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('IF', () => {
  it('a constant condition inlines the branch it picks, and only that one', () => {
    for (const condition of [true, false]) {
      const ops = calls(ifModel({ dtype: 'float32', condition }).model).map((n) => (n.kind === 'call' && n.callee.kind === 'op' ? n.callee.op : ''));
      expect(ops).toEqual([condition ? 'add' : 'mul', 'reshape']);
    }
  });

  it('a condition main computes from constants is folded: one branch, no select', () => {
    const { model, inputs } = ifModel({ dtype: 'float32', condition: 'computed' });
    const ops = calls(model).map((n) => (n.kind === 'call' && n.callee.kind === 'op' ? n.callee.op : ''));
    expect(ops).toEqual(['add', 'reshape']);
    const [a, b] = [floats(inputs(0)[0]), floats(inputs(0)[1])];
    expect(floats(interpret(importTflite(model, 'if.tflite'), inputs(0))[0])).toEqual(a.map((v, k) => Math.fround(v + b[k])));
  });

  it('a run-time condition runs both branches and selects each output', () => {
    const { model, inputs } = ifModel({ dtype: 'float32', condition: 'runtime' });
    const graph = importTflite(model, 'if.tflite');
    const ops = calls(model).map((n) => (n.kind === 'call' && n.callee.kind === 'op' ? n.callee.op : ''));
    expect(ops).toEqual(['less', 'add', 'mul', 'reshape', 'select']);
    const [a, b] = [floats(inputs(1)[0]), floats(inputs(1)[1])];
    expect(floats(interpret(graph, inputs(-1))[0])).toEqual(a.map((v, k) => Math.fround(v + b[k])));
    expect(floats(interpret(graph, inputs(1))[0])).toEqual(a.map((v, k) => Math.fround(v * b[k])));
  });
});

/** The error importing `model` gives: one line, of `type`. */
function refusal(model: Uint8Array, type: typeof ModelFormatError | typeof UnsupportedOperatorError | typeof TypeInferenceError): string {
  const e = errorOf(() => importTflite(model, 'cf.tflite'));
  expect(e).toBeInstanceOf(type);
  expect(e.message).not.toContain('\n');
  return e.message;
}

describe('refused control flow', () => {
  it('a cond that reads run-time data', () => {
    expect(refusal(accumulate({ runtimeLimit: true }), UnsupportedOperatorError)).toBe(
      'unsupported WHILE at operator #0 (cond subgraph 1, body subgraph 2) in cf.tflite: cond subgraph 1 depends on run-time data (loop value 1); uma-ts unrolls a loop at import and needs its trip count known there',
    );
  });

  it('an unrolled size past the cap, and a loop that never ends', () => {
    expect(refusal(accumulate({ steps: MAX_INLINED_OPERATORS }), UnsupportedOperatorError)).toMatch(
      /^unsupported WHILE at operator #0 \(cond subgraph 1, body subgraph 2\) in cf\.tflite: unrolling it passes 8192 inlined operators at body subgraph 2, iteration 4096;/,
    );
    const endless = accumulate({
      cond: (cond) => {
        const out = cond.addTensor({ name: 'out', shape: [1], dtype: 'bool' });
        cond.addOperator({ op: 'LOGICAL_NOT', inputs: [cond.addConstant({ name: 'no', shape: [1], dtype: 'bool', data: [0] })], outputs: [out] });
        return out;
      },
      body: (_w, _b, v) => v,
    });
    expect(refusal(endless, UnsupportedOperatorError)).toBe(
      'unsupported WHILE at operator #0 (cond subgraph 1, body subgraph 2) in cf.tflite: body subgraph 2, iteration 0 leaves every loop value as it was while cond subgraph 1 is true: the loop never ends',
    );
  });

  it('resource variables and variable tensors inside a body', () => {
    const withHandle = accumulate({
      body: (_w, body, v) => {
        const h = body.addTensor({ name: 'h', shape: [], dtype: 'resource' });
        body.addOperator({ op: 'VAR_HANDLE', inputs: [], outputs: [h], options: tfliteOptions.varHandle({ sharedName: 'v' }) });
        return countAndAdd(body, v);
      },
    });
    expect(refusal(withHandle, UnsupportedOperatorError)).toContain(
      'WHILE at operator #0 (cond subgraph 1, body subgraph 2) in cf.tflite: body subgraph 2 holds VAR_HANDLE at operator #0; resource variables inside control flow are not supported',
    );
    const withState = accumulate({
      body: (_w, body, v) => {
        body.addTensor({ name: 'state', shape: [2], dtype: 'float32', isVariable: true });
        return countAndAdd(body, v);
      },
    });
    expect(refusal(withState, UnsupportedOperatorError)).toContain("body subgraph 2 holds variable tensor #3 'state'; state inside control flow is not supported");
    // A stateful signal operator keeps its state in the operator (no tensor): refused too.
    const withDelay = accumulate({
      body: (_w, body, v) => {
        const x = body.addConstant({ name: 'x16', shape: [4], dtype: 'int16', data: [1, 2, 3, 4] });
        const y = body.addTensor({ name: 'y16', shape: [4], dtype: 'int16' });
        body.addOperator({ op: 'CUSTOM', customCode: 'SignalDelay', inputs: [x], outputs: [y], customOptions: flexbufferOptions({ delay_length: { int: 2 } }) });
        return countAndAdd(body, v);
      },
    });
    expect(refusal(withDelay, UnsupportedOperatorError)).toContain('body subgraph 2 holds SignalDelay at operator #0, which keeps state across invocations; state inside control flow is not supported');
    // So is CIRCULAR_BUFFER (its period counter lives in the operator), even on a non-variable output.
    const withBuffer = accumulate({
      body: (_w, body, v) => {
        const x = body.addConstant({ name: 'x8', shape: [1, 1, 1, 2], dtype: 'int8', data: [1, 2] });
        const y = body.addTensor({ name: 'y8', shape: [1, 5, 1, 2], dtype: 'int8' });
        body.addOperator({ op: 'CUSTOM', customCode: 'CIRCULAR_BUFFER', inputs: [x], outputs: [y] });
        return countAndAdd(body, v);
      },
    });
    expect(refusal(withBuffer, UnsupportedOperatorError)).toContain('body subgraph 2 holds CIRCULAR_BUFFER at operator #0, which keeps state across invocations; state inside control flow is not supported');
  });

  it('a loop value whose shape the body changes', () => {
    const growing = accumulate({
      body: (_w, body, v) => {
        const out = countAndAdd(body, v);
        const acc = body.addTensor({ name: 'acc3', shape: [3], dtype: 'float32' });
        body.addOperator({ op: 'PAD', inputs: [out.acc, body.addConstant({ name: 'pads', shape: [1, 2], dtype: 'int32', data: [0, 1] })], outputs: [acc], options: tfliteOptions.empty(22) });
        return { ...out, acc };
      },
    });
    expect(refusal(growing, UnsupportedOperatorError)).toBe(
      'unsupported WHILE at operator #0 (cond subgraph 1, body subgraph 2) in cf.tflite: loop value 2 is float32 [2] but output 2 of body subgraph 2 is float32 [3]; uma-ts needs one static shape and dtype per loop value',
    );
  });

  it('an unsupported operator in a body names the WHILE and the body', () => {
    const model = accumulate({
      body: (_w, body, v) => {
        const out = countAndAdd(body, v);
        const r = body.addTensor({ name: 'r', shape: [2], dtype: 'float32' });
        body.addOperator({ op: 'MATRIX_DIAG', inputs: [out.acc], outputs: [r] });
        return { ...out, acc: r };
      },
    });
    expect(refusal(model, UnsupportedOperatorError)).toMatch(/^unsupported WHILE at operator #0 \(cond subgraph 1, body subgraph 2\) in cf\.tflite: body subgraph 2, iteration 0: TFLite operator MATRIX_DIAG \(builtin 113\) at operator #2$/);
    // inspect lists it under WHILE
    const check = checkTflite(model, 'cf.tflite');
    expect(check.unsupported.map((u) => u.operator)).toEqual(['WHILE']);
  });

  it('an IF condition that is not one bool, and a run-time IF output select cannot carry', () => {
    /** c → IF(c, x int32 [2]) with pass-through branches. */
    const passThroughIf = (condShape: number[]): Uint8Array => {
      const w = new TfliteWriter();
      const thenSg = w.addSubgraph('then');
      const elseSg = w.addSubgraph('else');
      const c = w.addInput({ name: 'c', shape: condShape, dtype: 'bool' });
      const x = w.addInput({ name: 'x', shape: [2], dtype: 'int32' });
      const y = w.addTensor({ name: 'y', shape: [2], dtype: 'int32' });
      w.addOperator({ op: 'IF', inputs: [c, x], outputs: [y], options: tfliteOptions.if({ then: thenSg.index, else: elseSg.index }) });
      w.markOutput(y);
      for (const sg of [thenSg, elseSg]) sg.markOutput(sg.addInput({ name: 'v', shape: [2], dtype: 'int32' }));
      return w.finish();
    };
    expect(refusal(passThroughIf([2]), UnsupportedOperatorError)).toBe('unsupported IF at operator #0 (then subgraph 1, else subgraph 2) in cf.tflite: the condition is bool [2]; TFLite needs a bool with one element');
    expect(refusal(passThroughIf([1]), UnsupportedOperatorError)).toBe(
      "unsupported IF at operator #0 (then subgraph 1, else subgraph 2) in cf.tflite: output 0 is int32; a condition known only at run time selects between the branches' outputs, which uma-ts does for float32, int8, int16",
    );
  });
});

/**
 * x [1] → WHILE(i = 0, v = FILL([n], 1)) while i < trips: v + 1 → SUM(v) + x. The loop value
 * is known at import (folded every iteration when small). With `condReads` the cond is
 * REDUCE_MAX(v) < trips + 1 instead, which reads the value.
 */
function bigFoldedLoop(n: number, trips: number, condReads = false): Uint8Array {
  const w = new TfliteWriter('big', 'main');
  const x = w.addInput({ name: 'x', shape: [1], dtype: 'float32' });
  const v0 = w.addTensor({ name: 'v0', shape: [n], dtype: 'float32' });
  const dims = w.addConstant({ name: 'dims', shape: [1], dtype: 'int32', data: [n] });
  w.addOperator({ op: 'FILL', inputs: [dims, w.addConstant({ name: 'one', shape: [], dtype: 'float32', data: [1] })], outputs: [v0] });
  const cond = w.addSubgraph('cond');
  const body = w.addSubgraph('body');
  const ci = cond.addInput({ name: 'i', shape: [1], dtype: 'int32' });
  const cv = cond.addInput({ name: 'v', shape: [n], dtype: 'float32' });
  const more = cond.addTensor({ name: 'more', shape: [1], dtype: 'bool' });
  if (condReads) {
    const top = cond.addTensor({ name: 'top', shape: [1], dtype: 'float32' });
    cond.addOperator({ op: 'REDUCE_MAX', inputs: [cv, cond.addConstant({ name: 'axis', shape: [1], dtype: 'int32', data: [0] })], outputs: [top], options: tfliteOptions.reducer(true) });
    cond.addOperator({ op: 'LESS', inputs: [top, cond.addConstant({ name: 'limit', shape: [1], dtype: 'float32', data: [trips + 1] })], outputs: [more] });
  } else {
    cond.addOperator({ op: 'LESS', inputs: [ci, cond.addConstant({ name: 'trips', shape: [1], dtype: 'int32', data: [trips] })], outputs: [more] });
  }
  cond.markOutput(more);
  const bi = body.addInput({ name: 'i', shape: [1], dtype: 'int32' });
  const bv = body.addInput({ name: 'v', shape: [n], dtype: 'float32' });
  const i2 = body.addTensor({ name: 'i_next', shape: [1], dtype: 'int32' });
  body.addOperator({ op: 'ADD', inputs: [bi, body.addConstant({ name: 'one', shape: [1], dtype: 'int32', data: [1] })], outputs: [i2], options: tfliteOptions.add() });
  const v2 = body.addTensor({ name: 'v_next', shape: [n], dtype: 'float32' });
  body.addOperator({ op: 'ADD', inputs: [bv, body.addConstant({ name: 'step', shape: [], dtype: 'float32', data: [1] })], outputs: [v2], options: tfliteOptions.add() });
  body.markOutput(i2);
  body.markOutput(v2);
  const iEnd = w.addTensor({ name: 'i_end', shape: [1], dtype: 'int32' });
  const vEnd = w.addTensor({ name: 'v_end', shape: [n], dtype: 'float32' });
  w.addOperator({ op: 'WHILE', inputs: [w.addConstant({ name: 'i0', shape: [1], dtype: 'int32', data: [0] }), v0], outputs: [iEnd, vEnd], options: tfliteOptions.while({ cond: cond.index, body: body.index }) });
  const sum = w.addTensor({ name: 'sum', shape: [1], dtype: 'float32' });
  w.addOperator({ op: 'SUM', inputs: [vEnd, w.addConstant({ name: 'axis', shape: [1], dtype: 'int32', data: [0] })], outputs: [sum], options: tfliteOptions.reducer(true) });
  const y = w.addTensor({ name: 'y', shape: [1], dtype: 'float32' });
  w.addOperator({ op: 'ADD', inputs: [sum, x], outputs: [y], options: tfliteOptions.add() });
  w.markOutput(y);
  return w.finish();
}

describe('import cost of big and many loops', () => {
  // Regression: every iteration's folded loop values stayed in main's node list until the
  // loop ended, so a loop over a big tensor known at import held all its copies: 4 GB before
  // the work cap refused a 64 MiB value looped 70 times.
  it('a loop over a big value known at import keeps a bounded number of its copies', () => {
    const n = 1 << 18; // 1 MiB of float32, folded (up to 1 MiB is)
    const trips = 70; // 70 MiB folded in all, past the 64 MiB after which a loop prunes
    const proto = ControlFlow.prototype as unknown as { inline: (...args: unknown[]) => unknown };
    const inline = proto.inline;
    let most = 0;
    const spy = jest.spyOn(proto, 'inline').mockImplementation(function (this: unknown, ...args: unknown[]) {
      const out = inline.apply(this, args);
      const nodes = args[2] as GraphNode[];
      most = Math.max(most, nodes.reduce((sum, node) => sum + (node.kind === 'constant' ? node.data.length : 0), 0));
      return out;
    });
    try {
      const module = importTflite(bigFoldedLoop(n, trips), 'big.tflite');
      // every element is trips + 1; their float32 sum is near n times that
      expect(floats(interpret(module, [f32([0.5])])[0])[0] / (n * (trips + 1))).toBeCloseTo(1, 1);
    } finally {
      spy.mockRestore();
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2 ** 26 + 2 * 4 * n);
  });

  // Regression: a loop over a 256 MiB value known at import that only counted folded the value
  // every iteration, 30 s and 2.1 GB before the work cap refused it. A value over 1 MiB that no
  // cond reads is left to run time (sizes checked before anything is computed); one a cond
  // reads is folded, within 64 MiB and 2^28 element operations.
  it('a big loop value nothing at import needs is not folded; one a cond reads is, within limits checked first', () => {
    const huge = importTflite(bigFoldedLoop(1 << 26, 20), 'big.tflite');
    const ops = huge.functions.get('main')!.nodes.flatMap((n) => (n.kind === 'call' && n.callee.kind === 'op' ? [n.callee.op] : []));
    // FILL, one ADD per iteration, the output view, SUM and ADD, computed at run time
    expect(ops.filter((op) => op === 'add').length).toBe(21);
    expect(ops).toContain('fill');
    // values just over 1 MiB, left to run time too, give what folding them gave
    const n = (1 << 18) + 8;
    const module = importTflite(bigFoldedLoop(n, 4), 'big.tflite');
    expect(floats(interpret(module, [f32([0.25])])[0])).toEqual([Math.fround(n * 5 + 0.25)]);
    // a cond reading such a value folds it: the loop unrolls and nothing of it is left
    const read = importTflite(bigFoldedLoop(n, 4, true), 'big.tflite');
    expect(read.functions.get('main')!.nodes.filter((k) => k.kind === 'call').length).toBe(2);
    expect(floats(interpret(read, [f32([0.25])])[0])).toEqual([Math.fround(n * 5 + 0.25)]);
    // past 64 MiB, refused before anything is computed
    expect(refusal(bigFoldedLoop((1 << 24) + 1, 3, true), UnsupportedOperatorError)).toMatch(/cond subgraph 1.*: folding '[^']+' at import computes a tensor of 67108868 bytes, more than 64 MiB$/);
  });

  // Regression: each WHILE/IF parsed its subgraph's whole operator list to see which of its
  // outputs anything reads, so 2000 one-trip loops in main took 10 s (quadratic).
  it('thousands of loops in one subgraph read its operator list a bounded number of times', () => {
    const loops = 600;
    const w = new TfliteWriter('many', 'main');
    let v = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    const { cond, body } = addLoopSubgraphs(w, {});
    const i0 = w.addConstant({ name: 'i0', shape: [1], dtype: 'int32', data: [0] });
    const one = w.addConstant({ name: 'n', shape: [1], dtype: 'int32', data: [1] });
    for (let k = 0; k < loops; k++) {
      const outs = [w.addTensor({ name: `i${k}`, shape: [1], dtype: 'int32' }), w.addTensor({ name: `n${k}`, shape: [1], dtype: 'int32' }), w.addTensor({ name: `acc${k}`, shape: [2], dtype: 'float32' })];
      w.addOperator({ op: 'WHILE', inputs: [i0, one, v], outputs: outs, options: tfliteOptions.while({ cond: cond.index, body: body.index }) });
      v = outs[2];
    }
    w.markOutput(v);
    const model = w.finish();
    const spy = jest.spyOn(SubGraph.prototype, 'operators', 'get');
    try {
      const module = importTflite(model, 'many.tflite');
      expect(floats(interpret(module, [f32([1, -2])])[0])).toEqual([1 + 0.5 * loops, -2 + 0.5 * loops]);
      // main's list (the cond's and body's are short and read per iteration)
      const mainReads = spy.mock.results.filter((r) => (r.value as unknown[]).length === loops).length;
      expect(mainReads).toBeGreaterThan(0);
      expect(mainReads).toBeLessThan(10);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('import cost of long loops', () => {
  // Regression: a loop asked for its cond's and body's operator lists on every iteration, and
  // the accessor parses the whole vector each time; with main's node index rebuilt from scratch
  // after every prune, a fuzzed file of nested loops took 4.6 s of CPU to import (now 1.6 s).
  it("reads a loop's cond and body operator lists once, whatever the trip count", () => {
    const spy = jest.spyOn(SubGraph.prototype, 'operators', 'get');
    try {
      const module = importTflite(accumulate({ steps: 200 }), 'loop.tflite');
      expect(floats(interpret(module, [f32([1, -2])])[0])).toEqual([1 + 0.5 * 200, -2 + 0.5 * 200]);
      // main's, the cond's and the body's: a few reads each, not one per iteration
      expect(spy.mock.calls.length).toBeLessThan(12);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('nesting', () => {
  /** x → IF(true, x) whose then branch is the next level's IF, `levels` deep; the innermost branch passes x through. */
  function nestedIfs(levels: number): Uint8Array {
    const w = new TfliteWriter();
    const pass = w.addSubgraph('pass');
    pass.markOutput(pass.addInput({ name: 'v', shape: [2], dtype: 'float32' }));
    const level = (sg: TfliteSubgraphWriter | TfliteWriter, v: number, then: number): number => {
      const flag = sg.addConstant({ name: 'flag', shape: [1], dtype: 'bool', data: [1] });
      const y = sg.addTensor({ name: 'y', shape: [2], dtype: 'float32' });
      sg.addOperator({ op: 'IF', inputs: [flag, v], outputs: [y], options: tfliteOptions.if({ then, else: pass.index }) });
      return y;
    };
    const subgraphs = Array.from({ length: levels - 1 }, (_, k) => w.addSubgraph(`level${k + 1}`));
    subgraphs.forEach((sg, k) => {
      const next = k + 1 < subgraphs.length ? subgraphs[k + 1].index : pass.index;
      sg.markOutput(level(sg, sg.addInput({ name: 'v', shape: [2], dtype: 'float32' }), next));
    });
    w.markOutput(level(w, w.addInput({ name: 'x', shape: [2], dtype: 'float32' }), subgraphs.length > 0 ? subgraphs[0].index : pass.index));
    return w.finish();
  }

  it(`IF in IF up to ${MAX_CONTROL_FLOW_NESTING} deep is inlined; deeper is refused in one line, however deep the file goes`, () => {
    expect(floats(interpret(importTflite(nestedIfs(MAX_CONTROL_FLOW_NESTING), 'cf.tflite'), [f32([3, 4])])[0])).toEqual([3, 4]);
    for (const levels of [MAX_CONTROL_FLOW_NESTING + 1, 3000]) {
      const message = refusal(nestedIfs(levels), UnsupportedOperatorError);
      expect(message).toMatch(/^unsupported IF at operator #0 \(then subgraph 2, else subgraph 1\) in cf\.tflite: then subgraph 2: IF at operator #0 \(then subgraph 3, else subgraph 1\): then subgraph 3: IF/);
      expect(message).toContain(`control flow nested more than ${MAX_CONTROL_FLOW_NESTING} deep`);
    }
  });
});

describe('corrupt subgraph references', () => {
  it('an index out of range', () => {
    expect(refusal(accumulate({ options: (cond) => tfliteOptions.while({ cond, body: 9 }) }), ModelFormatError)).toMatch(
      /^corrupt TFLite file cf\.tflite at byte offset \d+: WHILE at operator #0 of subgraph 0 names body subgraph 9 of 3$/,
    );
    expect(refusal(accumulate({ options: (cond) => tfliteOptions.while({ cond, body: -1 }) }), ModelFormatError)).toContain('names body subgraph -1 of 3');
  });

  it('a missing options table', () => {
    expect(refusal(accumulate({ options: () => undefined }), ModelFormatError)).toContain('WHILE at operator #0 of subgraph 0 has no WhileOptions');
  });

  it('counts that do not match the operator', () => {
    // the cond subgraph (1) as the body: one output for three loop values
    expect(refusal(accumulate({ options: (cond) => tfliteOptions.while({ cond, body: cond }) }), ModelFormatError)).toContain(
      'WHILE at operator #0 of subgraph 0: body subgraph 1 has 1 outputs, the operator 3',
    );
    // the body as the cond: three outputs
    expect(refusal(accumulate({ options: (_c, body) => tfliteOptions.while({ cond: body, body }) }), ModelFormatError)).toContain(
      'cond subgraph 2 has 3 outputs, expected 1 (the bool that keeps the loop going)',
    );
  });

  it('a subgraph that runs itself, directly or through another', () => {
    const self = accumulate({
      body: (_w, body, v) => {
        const outs = [body.addTensor({ name: 'a', shape: [1], dtype: 'int32' }), body.addTensor({ name: 'b', shape: [1], dtype: 'int32' }), body.addTensor({ name: 'c', shape: [2], dtype: 'float32' })];
        body.addOperator({ op: 'WHILE', inputs: [v.i, v.limit, v.acc], outputs: outs, options: tfliteOptions.while({ cond: 1, body: 2 }) });
        return { i: outs[0], limit: outs[1], acc: outs[2] };
      },
    });
    expect(refusal(self, ModelFormatError)).toContain('subgraph 2 runs itself (2 → 2); TFLite control flow cannot recurse');

    // body 2 → IF → then 3 → WHILE(body 2)
    const indirect = accumulate({
      body: (w, body, v) => {
        const branch = w.addSubgraph('branch');
        const bi = loopInputs(branch);
        const bouts = [branch.addTensor({ name: 'a', shape: [1], dtype: 'int32' }), branch.addTensor({ name: 'b', shape: [1], dtype: 'int32' }), branch.addTensor({ name: 'c', shape: [2], dtype: 'float32' })];
        branch.addOperator({ op: 'WHILE', inputs: [bi.i, bi.limit, bi.acc], outputs: bouts, options: tfliteOptions.while({ cond: 1, body: 2 }) });
        bouts.forEach((t) => branch.markOutput(t));
        const flag = body.addConstant({ name: 'flag', shape: [1], dtype: 'bool', data: [1] });
        const outs = [body.addTensor({ name: 'a', shape: [1], dtype: 'int32' }), body.addTensor({ name: 'b', shape: [1], dtype: 'int32' }), body.addTensor({ name: 'c', shape: [2], dtype: 'float32' })];
        body.addOperator({ op: 'IF', inputs: [flag, v.i, v.limit, v.acc], outputs: outs, options: tfliteOptions.if({ then: branch.index, else: branch.index }) });
        return { i: outs[0], limit: outs[1], acc: outs[2] };
      },
    });
    expect(refusal(indirect, ModelFormatError)).toContain('subgraph 2 runs itself (2 → 3 → 2)');
  });
});

/**
 * TFLite Micro prepares every subgraph of the file and LiteRT every subgraph WHILE/IF can run,
 * so an operator they cannot prepare is refused wherever it sits: in the branch a known
 * condition does not take, in the body of a loop that runs 0 times, or in code whose result
 * nothing reads (pruned after inlining). A subgraph nothing runs at all is not read.
 */
describe('code that never runs, and code nothing reads', () => {
  it('an operator no runtime prepares, in the branch a constant condition does not take or a body that runs 0 times', () => {
    expect(refusal(ifOn(true, relu, badAxis), ModelFormatError)).toMatch(
      /^corrupt TFLite file cf\.tflite at byte offset \d+: IF at operator #0 \(then subgraph 1, else subgraph 2\): else subgraph 2 \(not taken\): axis 5 is out of range for rank 1 \(CONCATENATION at operator #0\)$/,
    );
    expect(refusal(ifOn(false, badAxis, relu), ModelFormatError)).toContain('then subgraph 1 (not taken): axis 5 is out of range for rank 1 (CONCATENATION at operator #0)');
    expect(refusal(zeroTrips(badAxis), ModelFormatError)).toMatch(
      /^corrupt TFLite file cf\.tflite at byte offset \d+: WHILE at operator #0 \(cond subgraph 1, body subgraph 2\): body subgraph 2 \(0 iterations\): axis 5 is out of range for rank 1 \(CONCATENATION at operator #0\)$/,
    );
    // The same operator in a branch that runs says the same, without "(not taken)".
    expect(refusal(ifOn(false, relu, badAxis), ModelFormatError)).toContain('IF at operator #0 (then subgraph 1, else subgraph 2): else subgraph 2: axis 5 is out of range');
  });

  it('an unsupported operator or shapes that do not fit there, listed by inspect under the IF or WHILE', () => {
    expect(refusal(ifOn(true, relu, unknownOp), UnsupportedOperatorError)).toBe(
      'unsupported IF at operator #0 (then subgraph 1, else subgraph 2) in cf.tflite: else subgraph 2 (not taken): TFLite operator MATRIX_DIAG (builtin 113) at operator #0',
    );
    expect(checkTflite(zeroTrips(unknownOp), 'cf.tflite').unsupported.map((u) => [u.operator, u.index])).toEqual([['WHILE', 0]]);
    expect(refusal(ifOn(true, relu, badAdd), TypeInferenceError)).toBe(
      "cf.tflite: IF at operator #0 (then subgraph 1, else subgraph 2): else subgraph 2 (not taken): 'y/else/o': add: shapes do not broadcast (arguments: [2] float32, [3] float32)",
    );
    expect(refusal(zeroTrips(badAdd), TypeInferenceError)).toContain("body subgraph 2 (0 iterations): 'y/0/o': add: shapes do not broadcast");
  });

  it('a branch or body that could run is accepted and adds nothing to main', () => {
    const ops = (model: Uint8Array) => calls(model).map((n) => (n.kind === 'call' && n.callee.kind === 'op' ? `${n.callee.op} ${n.name}` : ''));
    const taken = ifOn(true, relu, (sg, a) => relu(sg, relu(sg, a)));
    expect(ops(taken)).toEqual(['relu y/then/r', 'reshape y']);
    expect(floats(interpret(importTflite(taken, 'cf.tflite'), [f32([1, -2])])[0])).toEqual([1, 0]);
    const skipped = zeroTrips(relu);
    expect(ops(skipped)).toEqual(['reshape y']);
    expect(floats(interpret(importTflite(skipped, 'cf.tflite'), [f32([1, -2])])[0])).toEqual([1, -2]);
  });

  it('a type error in code that runs but whose result nothing reads (pruned after inlining)', () => {
    // IF (true) with a second output main never reads, computed by the bad ADD.
    const w = new TfliteWriter('m', 'main');
    const x = w.addInput({ name: 'x', ...F });
    const [t, e] = [w.addSubgraph('t'), w.addSubgraph('e')];
    const ta = t.addInput({ name: 'a', ...F });
    t.markOutput(ta);
    t.markOutput(badAdd(t, ta));
    const ea = e.addInput({ name: 'a', ...F });
    e.markOutput(ea);
    e.markOutput(ea);
    const [y, z] = [w.addTensor({ name: 'y', ...F }), w.addTensor({ name: 'z', ...F })];
    w.addOperator({ op: 'IF', inputs: [w.addConstant({ name: 'c', shape: [1], dtype: 'bool', data: [1] }), x], outputs: [y, z], options: tfliteOptions.if({ then: t.index, else: e.index }) });
    w.markOutput(y);
    expect(refusal(w.finish(), TypeInferenceError)).toBe(
      "cf.tflite: IF at operator #0 (then subgraph 1, else subgraph 2): then subgraph 1: 'y/then/o': add: shapes do not broadcast (arguments: [2] float32, [3] float32)",
    );
    // A body computing it on the side, not as a loop value.
    const side = accumulate({
      body: (_w, body, v) => {
        badAdd(body, v.acc);
        return countAndAdd(body, v);
      },
    });
    expect(refusal(side, TypeInferenceError)).toMatch(/^cf\.tflite: WHILE at operator #0 \(cond subgraph 1, body subgraph 2\): body subgraph 2, iteration 0: '[^']+\/0\/o': add: shapes do not broadcast/);
  });

  it('a loop in code that never runs is checked once, not unrolled: a run-time or huge trip count is no refusal there, a bad operator is', () => {
    /** IF(true, x, n): then RELU(x); else WHILE(i < limit) { i + 1, fill(v) } with limit n (run time) or 10^6. */
    const deadLoop = (limit: 'runtime' | 'huge', fill: Fill): Uint8Array => {
      const w = new TfliteWriter('m', 'main');
      const x = w.addInput({ name: 'x', ...F });
      const n = w.addInput({ name: 'n', shape: [1], dtype: 'int32' });
      const [t, e, c, b] = ['t', 'e', 'c', 'b'].map((k) => w.addSubgraph(k));
      const I = { shape: [1], dtype: 'int32' } as const;
      const ci = c.addInput({ name: 'i', ...I });
      const cl = c.addInput({ name: 'l', ...I });
      c.addInput({ name: 'v', ...F });
      const more = c.addTensor({ name: 'more', shape: [1], dtype: 'bool' });
      c.addOperator({ op: 'LESS', inputs: [ci, cl], outputs: [more] });
      c.markOutput(more);
      const bi = b.addInput({ name: 'i', ...I });
      const bl = b.addInput({ name: 'l', ...I });
      const bv = b.addInput({ name: 'v', ...F });
      const i2 = b.addTensor({ name: 'i2', ...I });
      b.addOperator({ op: 'ADD', inputs: [bi, b.addConstant({ name: 'one', ...I, data: [1] })], outputs: [i2], options: tfliteOptions.add() });
      [i2, bl, fill(b, bv)].forEach((o) => b.markOutput(o));
      t.addInput({ name: 'n', ...I });
      t.markOutput(relu(t, t.addInput({ name: 'a', ...F })));
      const en = e.addInput({ name: 'n', ...I });
      const ea = e.addInput({ name: 'a', ...F });
      const top = limit === 'runtime' ? en : e.addConstant({ name: 'big', ...I, data: [1_000_000] });
      const outs = [e.addTensor({ name: 'iE', ...I }), e.addTensor({ name: 'lE', ...I }), e.addTensor({ name: 'vE', ...F })];
      e.addOperator({ op: 'WHILE', inputs: [e.addConstant({ name: 'i0', ...I, data: [0] }), top, ea], outputs: outs, options: tfliteOptions.while({ cond: c.index, body: b.index }) });
      e.markOutput(outs[2]);
      const y = w.addTensor({ name: 'y', ...F });
      w.addOperator({ op: 'IF', inputs: [w.addConstant({ name: 'flag', shape: [1], dtype: 'bool', data: [1] }), n, x], outputs: [y], options: tfliteOptions.if({ then: t.index, else: e.index }) });
      w.markOutput(y);
      return w.finish();
    };
    for (const limit of ['runtime', 'huge'] as const) {
      const graph = importTflite(deadLoop(limit, relu), 'cf.tflite');
      expect(floats(interpret(graph, [f32([1, -2]), new Uint8Array(4)])[0])).toEqual([1, 0]);
      expect(refusal(deadLoop(limit, badAxis), ModelFormatError)).toContain(
        'IF at operator #0 (then subgraph 1, else subgraph 2): else subgraph 2 (not taken): WHILE at operator #0 (cond subgraph 3, body subgraph 4): body subgraph 4 (not run): axis 5 is out of range for rank 1 (CONCATENATION at operator #1)',
      );
    }
  });

  it('a subgraph nothing runs is not read, as LiteRT (TFLite Micro, which prepares every subgraph, would refuse it)', () => {
    const graph = importTflite(unreferencedSubgraph(badAxis), 'cf.tflite');
    expect(floats(interpret(graph, [f32([1, -2])])[0])).toEqual([1, 0]);
  });
});
