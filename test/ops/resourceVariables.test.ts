/**
 * Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE, CALL_ONCE) through the
 * importer, an interpreter session (hand-computed values per invocation), partitioning and
 * the TIR evaluator, and the errors for init subgraphs uma-ts cannot evaluate at import.
 */
import { importTflite } from '../../src/frontend/tflite';
import { createSession, interpret } from '../../src/interpreter';
import * as interpreterModule from '../../src/interpreter/interpret';
import { checkFunctionTypes } from '../../src/ir/graph/typeInference';
import { CallNode, ConstantNode, GraphFunction, IRModule } from '../../src/ir/graph/types';
import { runMain } from '../../src/ir/tir/eval';
import { ANN_FILL_BYTE, ANN_INITIAL_BYTES, Allocate, PERSISTENT_SCOPE, Stmt } from '../../src/ir/tir/nodes';
import { topoSort } from '../../src/partition/dataflow';
import { exposeIntermediates } from '../../src/verify/verifyModel';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { errorOf } from '../helpers/errorOf';
import { LoweringError, UmaError } from '../../src/errors';
import { seededRandom } from '../../src/util/random';
import { lowerForCpu } from '../lower/helpers';
import { accumulatorModel, assignConstant, customInitModel, handle, readThenOverwriteModel, reshapedAccessModel, twoVariablesModel } from './resourceVariableModels';
import { aliasableReads } from '../../src/ir/graph/variableReads';

const f32 = (v: readonly number[]): Uint8Array => new Uint8Array(Float32Array.from(v).buffer);
const i8 = (v: readonly number[]): Uint8Array => new Uint8Array(Int8Array.from(v).buffer);
const floats = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));
const ints = (b: Uint8Array): number[] => Array.from(new Int8Array(b.slice().buffer));

const mainOf = (m: IRModule): GraphFunction => m.functions.get('main')!;
const calls = (fn: GraphFunction, op: string): CallNode[] =>
  fn.nodes.filter((n): n is CallNode => n.kind === 'call' && n.callee.kind === 'op' && n.callee.op === op);
const states = (fn: GraphFunction): ConstantNode[] => fn.nodes.filter((n): n is ConstantNode => n.kind === 'constant' && n.variable === true);

function persistentAllocates(s: Stmt, out: Allocate[] = []): Allocate[] {
  if (s.kind === 'Allocate' && s.storageScope === PERSISTENT_SCOPE) out.push(s);
  if ('body' in s && s.body) persistentAllocates(s.body, out);
  if (s.kind === 'SeqStmt') s.seq.forEach((x) => persistentAllocates(x, out));
  return out;
}

describe('resource variables: import', () => {
  it('one variable state initialised by CALL_ONCE, reads and assignments chained in TFLite order', () => {
    const m = importTflite(accumulatorModel({ dtype: 'float32', shape: [1, 2], initial: [10, 20] }));
    const main = mainOf(m);
    checkFunctionTypes(main, m);
    const [state] = states(main);
    expect(states(main)).toHaveLength(1);
    expect(state.name).toBe('acc');
    expect(floats(state.data)).toEqual([10, 20]);
    const [read] = calls(main, 'read_variable');
    const [assign] = calls(main, 'assign_variable');
    expect(read.args).toEqual(['acc']);
    // the assignment takes the value and, for ordering, the read before it
    expect(assign.args).toEqual(['acc', 'sum', 'acc_read']);
    expect(main.params).toEqual(['x']);
    expect(main.outputs).toEqual(['sum']);
  });

  it('an init subgraph several CALL_ONCE operators name is evaluated once (fuzzed: twelve calls of a costly one, 64 s)', () => {
    const w = new TfliteWriter();
    const init = w.addSubgraph('init');
    assignConstant(init, [7, 8]);
    for (let k = 0; k < 3; k++) w.addOperator({ op: 'CALL_ONCE', inputs: [], outputs: [], options: tfliteOptions.callOnce(init.index) });
    const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    const read = w.addTensor({ name: 'acc_read', shape: [2], dtype: 'float32' });
    const sum = w.addTensor({ name: 'sum', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'READ_VARIABLE', inputs: [handle(w, 'acc')], outputs: [read] });
    w.addOperator({ op: 'ADD', inputs: [x, read], outputs: [sum], options: tfliteOptions.add() });
    w.markOutput(sum);
    const evaluations = jest.spyOn(interpreterModule, 'interpret');
    try {
      const m = importTflite(w.finish());
      expect(evaluations).toHaveBeenCalledTimes(1);
      expect(floats(states(mainOf(m))[0].data)).toEqual([7, 8]);
    } finally {
      evaluations.mockRestore();
    }
  });

  it('two variables, a handle without container matching the init subgraph one, reads after assignments', () => {
    const main = mainOf(importTflite(twoVariablesModel([2], [1, 2], [3, 4])));
    expect(states(main).map((s) => [s.name, floats(s.data)])).toEqual([
      ['a', [1, 2]],
      ['b', [3, 4]],
    ]);
    const reads = calls(main, 'read_variable');
    expect(reads.map((r) => r.args)).toEqual([['a'], ['b'], ['a', 'a_assign'], ['b', 'b_assign']]);
    expect(calls(main, 'assign_variable').map((a) => a.args)).toEqual([
      ['a', 'a_new', 'a_read'],
      ['b', 'b_new', 'b_read'],
    ]);
  });

  it('a variable init never assigns starts as TFLite Micro allocates it: the zero point (int8), else 0', () => {
    const int8 = mainOf(importTflite(accumulatorModel({ dtype: 'int8', shape: [3], quant: { scale: [0.5], zeroPoint: [-3] } })));
    expect(ints(states(int8)[0].data)).toEqual([-3, -3, -3]);
    const float = mainOf(importTflite(accumulatorModel({ dtype: 'float32', shape: [3] })));
    expect(floats(states(float)[0].data)).toEqual([0, 0, 0]);
  });

  it('resources are keyed by container and shared name, as TFLite Micro FindId', () => {
    const initial = (container: string | undefined, initContainer: string): number[] =>
      floats(states(mainOf(importTflite(customInitModel({ init: (sg) => assignConstant(sg, [4, 5], 'acc', initContainer), container }))))[0].data);
    expect(initial('box', 'box')).toEqual([4, 5]);
    // a handle without container matches any container of that name
    expect(initial(undefined, 'box')).toEqual([4, 5]);
    // another container is another variable: main's own, never initialised, starts at 0
    expect(initial('crate', 'box')).toEqual([0, 0]);
  });

  it('folds operators of the init subgraph at import (ADD of two constants)', () => {
    const model = customInitModel({
      init: (sg) => {
        const h = handle(sg, 'acc');
        const a = sg.addConstant({ name: 'a', shape: [2], dtype: 'float32', data: [1.5, 2] });
        const b = sg.addConstant({ name: 'b', shape: [2], dtype: 'float32', data: [0.25, -7] });
        const s = sg.addTensor({ name: 's', shape: [2], dtype: 'float32' });
        sg.addOperator({ op: 'ADD', inputs: [a, b], outputs: [s], options: tfliteOptions.add() });
        sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [h, s], outputs: [] });
      },
    });
    expect(floats(states(mainOf(importTflite(model)))[0].data)).toEqual([1.75, -5]);
  });
});

describe('resource variables: interpreter session', () => {
  it('float accumulator: invocation k outputs the initial value plus the first k inputs', () => {
    const session = createSession(importTflite(accumulatorModel({ dtype: 'float32', shape: [1, 2], initial: [10, 20] })));
    expect(floats(session.invoke([f32([1, 2])])[0])).toEqual([11, 22]);
    expect(floats(session.invoke([f32([3, -4])])[0])).toEqual([14, 18]);
    expect(floats(session.invoke([f32([0.5, 0.25])])[0])).toEqual([14.5, 18.25]);
    session.reset();
    expect(floats(session.invoke([f32([1, 1])])[0])).toEqual([11, 21]);
  });

  it('int8 accumulator: quantized ADD of the input and the state, same scale and zero point', () => {
    // real = 0.5 * (q + 3): state 7 -> 5.0, input 1 -> 2.0, sum 7.0 -> 11
    const graph = importTflite(accumulatorModel({ dtype: 'int8', shape: [2], initial: [7, -3], quant: { scale: [0.5], zeroPoint: [-3] } }));
    const session = createSession(graph);
    expect(ints(session.invoke([i8([1, -3])])[0])).toEqual([11, -3]);
    expect(ints(session.invoke([i8([1, 5])])[0])).toEqual([15, 5]);
    // saturates at 127 as TFLite's clamp does
    expect(ints(session.invoke([i8([127, 0])])[0])).toEqual([127, 8]);
    // a fresh one-shot run starts from the initial value
    expect(ints(interpret(graph, [i8([1, -3])])[0])).toEqual([11, -3]);
  });

  it('accesses through another shape of the same element count are the variable reshaped (TFLite Micro copies its bytes)', () => {
    // Found by fuzzing: a [4] variable read as [2, 2] and assigned a [2, 2] value was refused,
    // although TFLite Micro (and LiteRT) run it.
    const graph = importTflite(reshapedAccessModel([1, 2, 3, 4]));
    const main = mainOf(graph);
    const state = main.nodes.find((n) => n.kind === 'constant' && n.variable)!;
    expect(state.type.shape).toEqual([4]);
    expect(calls(main, 'reshape')).toHaveLength(3);
    const session = createSession(graph);
    expect(session.invoke([f32([10, 20, 30, 40])]).map(floats)).toEqual([
      [11, 22, 33, 44],
      [11, 22, 33, 44],
    ]);
    expect(session.invoke([f32([1, 1, 1, 1])]).map(floats)).toEqual([
      [12, 23, 34, 45],
      [12, 23, 34, 45],
    ]);
  });

  it('two variables: reads after an assignment in the same invocation see the new value', () => {
    const session = createSession(importTflite(twoVariablesModel([2], [10, 20], [1, 2])));
    // a' = a + x, b' = b * x; outputs a' and a' + b'
    expect(session.invoke([f32([1, 2])]).map(floats)).toEqual([
      [11, 22],
      [12, 26],
    ]);
    expect(session.invoke([f32([3, 4])]).map(floats)).toEqual([
      [14, 26],
      [17, 42],
    ]);
  });
});

describe('resource variables: passes keep the side effects and their order', () => {
  it('a topological re-sort from any order keeps every read before the next assignment and vice versa', () => {
    const main = mainOf(importTflite(twoVariablesModel([2], [1, 2], [3, 4])));
    const sorted = topoSort([...main.nodes].reverse(), 'main').map((n) => n.name);
    const at = (name: string): number => sorted.indexOf(name);
    expect(at('a_read')).toBeLessThan(at('a_assign'));
    expect(at('a_assign')).toBeLessThan(at('a_again'));
    expect(at('b_read')).toBeLessThan(at('b_assign'));
    expect(at('b_assign')).toBeLessThan(at('b_again'));
  });

  it('lowering: each variable is one persistent buffer with its initial bytes, the assignment writes it', () => {
    const graph = importTflite(twoVariablesModel([2], [10, 20], [1, 2]));
    const tir = lowerForCpu(graph);
    const main = tir.functions.get('__tvm_main__')!;
    const persistent = persistentAllocates(main.body);
    expect(persistent.map((a) => a.annotations['uma.tensor'])).toEqual(['a', 'b']);
    expect(persistent.every((a) => typeof a.annotations[ANN_INITIAL_BYTES] === 'string' && a.annotations[ANN_FILL_BYTE] === undefined)).toBe(true);
    // the assignment's PrimFunc takes the value and writes the state (its output); ordering arguments pass no buffer
    const assigns = [...tir.functions].filter(([name]) => name.includes('assign_variable'));
    expect(assigns).toHaveLength(2);
    for (const [, f] of assigns) expect(f.params.map((p) => p.name)).toEqual(['p0', 'out']);
    const reads = [...tir.functions].filter(([name]) => name.includes('read_variable'));
    for (const [, f] of reads) expect(f.params.map((p) => p.name)).toEqual(['p0', 'out']);
    // the TIR evaluator (one invocation from the initial state) agrees with the interpreter byte for byte
    const inputs = [f32([1.25, -2])];
    expect(runMain(tir, inputs).map((b) => Array.from(b))).toEqual(interpret(graph, inputs).map((b) => Array.from(b)));
  });

  it('a read no assignment overtakes is the variable itself (no copy); one an assignment overtakes is a copy', () => {
    expect([...aliasableReads(mainOf(importTflite(twoVariablesModel([2], [1, 2], [3, 4]))))].sort()).toEqual(['a_read', 'b_again', 'b_read']);
    const overtaken = importTflite(readThenOverwriteModel([2], [5, 6]));
    expect([...aliasableReads(mainOf(overtaken))]).toEqual([]);
    const copies = (graph: IRModule): number => [...lowerForCpu(graph).functions.keys()].filter((f) => f.includes('read_variable')).length;
    expect(copies(importTflite(accumulatorModel({ dtype: 'float32', shape: [2], initial: [1, 2] })))).toBe(0);
    expect(copies(overtaken)).toBe(1);
    const session = createSession(overtaken);
    expect(floats(session.invoke([f32([1, 2])])[0])).toEqual([6, 8]);
    expect(floats(session.invoke([f32([10, 20])])[0])).toEqual([11, 22]);
  });

  it('an assignment inside a function other than main is a lowering error (only main binds the persistent buffer)', () => {
    const type = { shape: [2], dtype: 'float32' as const };
    const inner: GraphFunction = {
      name: 'f',
      params: ['v'],
      nodes: [
        { kind: 'var', name: 'v', type },
        { kind: 'constant', name: 's', type, data: new Uint8Array(8), variable: true },
        { kind: 'call', name: 's_assign', callee: { kind: 'op', op: 'assign_variable' }, args: ['s', 'v'], attrs: {}, type },
        { kind: 'call', name: 'r', callee: { kind: 'op', op: 'read_variable' }, args: ['s', 's_assign'], attrs: {}, type },
      ],
      outputs: ['r'],
      attrs: { Primitive: true },
    };
    const main: GraphFunction = {
      name: 'main',
      params: ['x'],
      nodes: [
        { kind: 'var', name: 'x', type },
        { kind: 'call', name: 'y', callee: { kind: 'function', name: 'f' }, args: ['x'], attrs: {}, type },
      ],
      outputs: ['y'],
      attrs: {},
    };
    const e = errorOf(() => lowerForCpu({ functions: new Map([['main', main], ['f', inner]]) }));
    expect(e).toBeInstanceOf(LoweringError);
    expect(e.message).toContain("assign_variable 's_assign' updates a variable and must stay in main");
  });

  it('an int8 state filled with its zero point stays a fill byte', () => {
    const tir = lowerForCpu(importTflite(accumulatorModel({ dtype: 'int8', shape: [3], quant: { scale: [0.5], zeroPoint: [-3] } })));
    const [state] = persistentAllocates(tir.functions.get('__tvm_main__')!.body);
    expect(state.annotations[ANN_FILL_BYTE]).toBe(0xfd);
    expect(state.annotations[ANN_INITIAL_BYTES]).toBeUndefined();
  });

  it('compareIntermediates does not expose an assignment as a tensor (its value is the variable)', () => {
    const graph = exposeIntermediates(importTflite(twoVariablesModel([2], [10, 20], [1, 2])));
    const outputs = mainOf(graph).outputs;
    expect(outputs).toContain('a_read');
    expect(outputs.some((o) => o.endsWith('_assign'))).toBe(false);
  });
});

describe('resource variables: what uma-ts refuses, in one line naming operator and subgraph', () => {
  const message = (model: Uint8Array): string => {
    const e = errorOf(() => importTflite(model, 'stateful.tflite'));
    expect(e.message).not.toContain('\n');
    return e.message;
  };

  it('an init subgraph that reads a variable', () => {
    const msg = message(
      customInitModel({
        init: (sg) => {
          assignConstant(sg, [1, 2]);
          const h = handle(sg, 'acc');
          const r = sg.addTensor({ name: 'r', shape: [2], dtype: 'float32' });
          sg.addOperator({ op: 'READ_VARIABLE', inputs: [h], outputs: [r] });
        },
      }),
    );
    expect(msg).toMatch(/^unsupported READ_VARIABLE at operator #3 of init subgraph 1 \(CALL_ONCE at operator #0\): an init subgraph may only assign/);
    expect(msg).toContain('stateful.tflite');
  });

  it('an init subgraph with an operator uma-ts cannot fold', () => {
    const msg = message(
      customInitModel({
        init: (sg) => {
          const h = handle(sg, 'acc');
          const a = sg.addConstant({ name: 'a', shape: [2], dtype: 'float32', data: [1, 2] });
          const s = sg.addTensor({ name: 's', shape: [2], dtype: 'float32' });
          sg.addOperator({ op: 'TOPK_V2', inputs: [a], outputs: [s] });
          sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [h, s], outputs: [] });
        },
      }),
    );
    expect(msg).toMatch(/^unsupported TOPK_V2 at operator #1 of init subgraph 1 \(CALL_ONCE at operator #0\)/);
  });

  it('an init subgraph with a custom operator says so without an article ("unsupported custom operator at ...")', () => {
    const msg = message(
      customInitModel({
        init: (sg) => {
          const h = handle(sg, 'acc');
          const a = sg.addConstant({ name: 'a', shape: [2], dtype: 'float32', data: [1, 2] });
          const s = sg.addTensor({ name: 's', shape: [2], dtype: 'float32' });
          sg.addOperator({ op: 'CUSTOM', customCode: 'MyFold', inputs: [a], outputs: [s] });
          sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [h, s], outputs: [] });
        },
      }),
    );
    expect(msg).toMatch(/^unsupported custom operator at operator #1 of init subgraph 1 \(CALL_ONCE at operator #0\): an init subgraph may only assign values computed from constants/);
  });

  it('an init subgraph that assigns a model input', () => {
    const msg = message(
      customInitModel({
        init: (sg) => {
          const h = handle(sg, 'acc');
          const v = sg.addInput({ name: 'v', shape: [2], dtype: 'float32' });
          sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [h, v], outputs: [] });
        },
      }),
    );
    expect(msg).toContain('init subgraph 1 (CALL_ONCE at operator #0): it has inputs');
  });

  it('CALL_ONCE after a variable was read', () => {
    expect(message(customInitModel({ init: (sg) => assignConstant(sg, [1, 2]), callOnceLate: true }))).toMatch(
      /^unsupported CALL_ONCE at operator #2 runs after operator #1 accesses a variable/,
    );
  });

  it('a read of a variable nothing ever assigns', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    const r = w.addTensor({ name: 'ghost_read', shape: [2], dtype: 'float32' });
    const sum = w.addTensor({ name: 'sum', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'READ_VARIABLE', inputs: [handle(w, 'ghost')], outputs: [r] });
    w.addOperator({ op: 'ADD', inputs: [x, r], outputs: [sum], options: tfliteOptions.add() });
    w.markOutput(sum);
    expect(message(w.finish())).toMatch(/^unsupported READ_VARIABLE at operator #1: variable 'ghost' is never assigned/);
  });

  it('a read whose type differs from the variable', () => {
    expect(message(customInitModel({ init: (sg) => assignConstant(sg, [1, 2]), readDtype: 'int32' }))).toMatch(
      /READ_VARIABLE at operator #2: int32 \[2\] does not match variable 'acc' of float32 \[2\] \(an access needs its dtype and element count\)/,
    );
  });

  it('an assignment of another element count', () => {
    const w = new TfliteWriter();
    const init = w.addSubgraph('init');
    assignConstant(init, [1, 2, 3, 4], 'v');
    w.addOperator({ op: 'CALL_ONCE', inputs: [], outputs: [], options: tfliteOptions.callOnce(init.index) });
    const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [handle(w, 'v'), x], outputs: [] });
    const y = w.addTensor({ name: 'y', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    expect(message(w.finish())).toMatch(/^unsupported ASSIGN_VARIABLE at operator #2: float32 \[2\] does not match variable 'v' of float32 \[4\]/);
  });

  it('an initializer too costly to evaluate at import, refused at once (fuzzed: 2 KB models busy for 65-86 s)', () => {
    // FILL [1,128,128,512] then a 3x3x512 CONV_2D to 16 channels: about 1.2e9 multiply-accumulates.
    const conv = customInitModel({
      init: (sg) => {
        const dims = sg.addConstant({ name: 'dims', shape: [4], dtype: 'int32', data: [1, 128, 128, 512] });
        const one = sg.addConstant({ name: 'one', shape: [], dtype: 'float32', data: [1] });
        const filled = sg.addTensor({ name: 'filled', shape: [1, 128, 128, 512], dtype: 'float32' });
        sg.addOperator({ op: 'FILL', inputs: [dims, one], outputs: [filled] });
        const weight = sg.addConstant({ name: 'w', shape: [16, 3, 3, 512], dtype: 'float32', data: new Array(16 * 9 * 512).fill(0.5) });
        const conved = sg.addTensor({ name: 'conved', shape: [1, 128, 128, 16], dtype: 'float32' });
        sg.addOperator({ op: 'CONV_2D', inputs: [filled, weight], outputs: [conved], options: tfliteOptions.conv2d({ padding: 'SAME' }) });
        const start = sg.addConstant({ name: 'start', shape: [4], dtype: 'int32', data: [0, 0, 0, 0] });
        const size = sg.addConstant({ name: 'size', shape: [4], dtype: 'int32', data: [1, 1, 1, 2] });
        const sliced = sg.addTensor({ name: 'sliced', shape: [1, 1, 1, 2], dtype: 'float32' });
        sg.addOperator({ op: 'SLICE', inputs: [conved, start, size], outputs: [sliced] });
        const shape = sg.addConstant({ name: 'shape', shape: [1], dtype: 'int32', data: [2] });
        const flat = sg.addTensor({ name: 'flat', shape: [2], dtype: 'float32' });
        sg.addOperator({ op: 'RESHAPE', inputs: [sliced, shape], outputs: [flat] });
        sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [handle(sg, 'acc'), flat], outputs: [] });
      },
    });
    const started = Date.now();
    expect(message(conv)).toMatch(/^unsupported init subgraph 1 \(CALL_ONCE at operator #0\): evaluating it at import would take about 1\.\de\+9 element operations, more than uma-ts spends on an initializer/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an initializer computing a tensor of more than 256 MiB, refused (fuzzed: BROADCAST_TO to 2^31-1 floats)', () => {
    const big = customInitModel({
      init: (sg) => {
        const c = sg.addConstant({ name: 'c', shape: [1], dtype: 'float32', data: [2.5] });
        const n = sg.addConstant({ name: 'n', shape: [1], dtype: 'int32', data: [2 ** 27] });
        const b = sg.addTensor({ name: 'b', shape: [2 ** 27], dtype: 'float32' });
        sg.addOperator({ op: 'BROADCAST_TO', inputs: [c, n], outputs: [b] });
        const begin = sg.addConstant({ name: 'begin', shape: [1], dtype: 'int32', data: [0] });
        const size = sg.addConstant({ name: 'size', shape: [1], dtype: 'int32', data: [2] });
        const two = sg.addTensor({ name: 'two', shape: [2], dtype: 'float32' });
        sg.addOperator({ op: 'SLICE', inputs: [b, begin, size], outputs: [two] });
        sg.addOperator({ op: 'ASSIGN_VARIABLE', inputs: [handle(sg, 'acc'), two], outputs: [] });
      },
    });
    expect(message(big)).toMatch(/^unsupported init subgraph 1 \(CALL_ONCE at operator #0\): it computes a tensor of 536870912 bytes; uma-ts evaluates initializers at import with tensors up to 256 MiB/);
  });

  it('CALL_ONCE naming a subgraph the model does not have', () => {
    expect(message(customInitModel({ init: (sg) => assignConstant(sg, [1, 2]), initIndex: 7 }))).toContain('CALL_ONCE at operator #0 names init subgraph 7 of 2');
  });
});

describe('resource variables: damaged files', () => {
  it('every single-byte corruption of a stateful model imports or fails with a typed error', () => {
    const model = twoVariablesModel([2], [1, 2], [3, 4]);
    const r = seededRandom(21);
    // every byte once set to 0x7f (indices and counts far out of range), then random bytes at random places
    const cases = [...Array.from(model, (_, at) => [at, 0x7f]), ...Array.from({ length: 400 }, () => [Math.floor(r() * model.length), Math.floor(r() * 256)])];
    for (const [at, value] of cases) {
      const bytes = model.slice();
      bytes[at] = value;
      try {
        const m = importTflite(bytes, 'damaged.tflite');
        interpret(m, [f32([1, 2])]);
      } catch (e) {
        if (!(e instanceof UmaError)) throw new Error(`byte ${at} = ${bytes[at]}: ${(e as Error).stack}`);
      }
    }
  });
});

