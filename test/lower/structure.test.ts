/**
 * Shape of the TIR lowering produces: function names, param order, AoT main buffers
 * (constant_<n>, sid_<n>), operator-internal scratch, offloaded functions and errors.
 */
import { LoweringError } from '../../src/errors';
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { IRModule } from '../../src/ir/graph/types';
import { collectAllocateConsts, collectAllocates } from '../../src/ir/tir/analysis';
import { callExtern, evaluate } from '../../src/ir/tir/builder';
import { runMain } from '../../src/ir/tir/eval';
import { Allocate, AllocateConst, Call, Evaluate, For, MAIN_PRIM_FUNC, PrimFunc, Stmt, TirModule } from '../../src/ir/tir/nodes';
import { readOperatorRecords } from '../../src/ir/tir/operators';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { interpret } from '../../src/interpreter';
import { CPU_STRATEGIES, makeConv2dStrategy } from '../../src/lower/cpu';
import { lowerToTir } from '../../src/lower/lowerModule';
import { OperatorStrategy, OpLoweringInput } from '../../src/lower/strategy';
import { cpuStrategyFor, i8, int32Bytes, lowerForCpu, randomInts, randomTensor, rng } from './helpers';

/** The outermost For of each loop nest under `stmt` (not descending into a found nest). */
function outerLoops(stmt: Stmt): For[] {
  const found: For[] = [];
  const walk = (s: Stmt): void => {
    if (s.kind === 'For') found.push(s);
    else if (s.kind === 'SeqStmt') s.seq.forEach(walk);
    else if ('body' in s && s.body !== undefined) walk(s.body as Stmt);
  };
  walk(stmt);
  return found;
}

/** [min, end) of the loops of a nest (n, oy, ox, oc, ky, kx, ic), skipping statements between them. */
function ranges(f: For, depth: number): number[][] {
  const out: number[][] = [];
  let s: Stmt | undefined = f;
  while (s !== undefined && out.length <= depth) {
    if (s.kind === 'SeqStmt') {
      s = s.seq.find((x) => x.kind === 'For');
      continue;
    }
    if (s.kind !== 'For') break;
    const min = s.min.kind === 'IntImm' ? s.min.value : NaN;
    out.push([min, min + (s.extent.kind === 'IntImm' ? s.extent.value : NaN)]);
    s = s.body;
  }
  return out;
}

function countIfs(stmt: Stmt): number {
  let n = 0;
  postOrderVisit(stmt, (node) => {
    if ((node as { kind: string }).kind === 'IfThenElse') n++;
  });
  return n;
}

const PAD_SAME = { strides: [1, 1], dilation: [1, 1], padding: [1, 1, 1, 1], activation: 'NONE' };

/** x[1,6,6,3] -> conv(4, per-channel) -> conv(2) -> y; both 3x3 SAME. */
function twoConvModule(): IRModule {
  const r = rng(3);
  const b = new FunctionBuilder();
  const x = b.param('x', i8([1, 6, 6, 3], 0.05, 2));
  const w1 = i8([4, 3, 3, 3], [0.01, 0.02, 0.03, 0.04]);
  const w2 = i8([2, 3, 3, 4], 0.02);
  b.constant('w1', w1, randomTensor(r, w1));
  b.constant('b1', tensorType([4], 'int32'), int32Bytes(randomInts(r, 4, -300, 300)));
  b.call('h', 'conv2d', [x, 'w1', 'b1'], i8([1, 6, 6, 4], 0.1, -1), PAD_SAME);
  b.constant('w2', w2, randomTensor(r, w2));
  b.constant('b2', tensorType([2], 'int32'), int32Bytes(randomInts(r, 2, -300, 300)));
  b.call('model/out:0', 'conv2d', ['h', 'w2', 'b2'], i8([1, 6, 6, 2], 0.1, 3), PAD_SAME);
  return moduleOf([b.build(['model/out:0'])]);
}

function externCalls(body: Stmt): Call[] {
  const calls: Call[] = [];
  postOrderVisit(body, (n) => {
    if (n.kind === 'Evaluate' && (n as Evaluate).value.kind === 'Call') calls.push((n as Evaluate).value as Call);
  });
  return calls;
}

function calleeName(c: Call): string {
  const first = c.args[0];
  return first.kind === 'StringImm' ? first.value : '?';
}

function func(m: TirModule, name: string): PrimFunc {
  const f = m.functions.get(name);
  if (!f) throw new Error(`no ${name} in ${[...m.functions.keys()]}`);
  return f;
}

describe('host operators and the AoT main', () => {
  const module = twoConvModule();
  const tir = lowerForCpu(module);
  const main = func(tir, MAIN_PRIM_FUNC);

  it('names one fused PrimFunc per operator call, numbered on repeats, plus the entry', () => {
    expect([...tir.functions.keys()].sort()).toEqual([MAIN_PRIM_FUNC, 'tvmgen_default_fused_conv2d', 'tvmgen_default_fused_conv2d_1']);
    expect(main.attrs.runner_function).toBe(true);
    expect(lowerToTir(module, { strategyFor: cpuStrategyFor, moduleName: 'net' }).functions.has('tvmgen_net_fused_conv2d')).toBe(true);
  });

  it('gives main the model inputs then outputs as handle params with N-d buffers', () => {
    expect(main.params.map((p) => [p.name, p.dtype, p.pointee])).toEqual([
      ['x', 'handle', 'int8'],
      ['model_out_0', 'handle', 'int8'],
    ]);
    const shapes = main.bufferMap.map(([, b]) => b.shape.map((d) => (d.kind === 'IntImm' ? d.value : -1)));
    expect(shapes).toEqual([
      [1, 6, 6, 3],
      [1, 6, 6, 2],
    ]);
  });

  it('binds weights as constant_<n> AllocateConsts and the intermediate as sid_1', () => {
    const consts = collectAllocateConsts(main);
    expect(consts.map((c) => [c.bufferVar.name, c.dtype, (c.extents[0] as { value: number }).value])).toEqual([
      ['constant_0', 'int8', 4 * 3 * 3 * 3],
      ['constant_1', 'int32', 4],
      ['constant_2', 'int8', 2 * 3 * 3 * 4],
      ['constant_3', 'int32', 2],
    ]);
    const w1 = module.functions.get('main')!.nodes.find((n) => n.name === 'w1');
    expect(consts[0].data).toBe(w1 && w1.kind === 'constant' ? w1.data : undefined);
    const allocs = collectAllocates(main);
    expect(allocs.map((a) => [a.bufferVar.name, a.dtype, (a.extents[0] as { value: number }).value, a.storageScope])).toEqual([['sid_1', 'int8', 6 * 6 * 4, 'global']]);
    expect(allocs[0].annotations['uma.tensor']).toBe('h');
  });

  it('calls the operators in order, passing inputs, constants, then the output', () => {
    const calls = externCalls(main.body);
    expect(calls.map((c) => [c.op, calleeName(c)])).toEqual([
      ['tir.call_extern', 'tvmgen_default_fused_conv2d'],
      ['tir.call_extern', 'tvmgen_default_fused_conv2d_1'],
    ]);
    const names = calls.map((c) => c.args.slice(1).map((a) => (a.kind === 'Var' ? a.name : '?')));
    expect(names).toEqual([
      ['x', 'constant_0', 'constant_1', 'sid_1'],
      ['sid_1', 'constant_2', 'constant_3', 'model_out_0'],
    ]);
    // The same variable, not just the same name, flows from producer to consumer.
    const sid = collectAllocates(main)[0].bufferVar;
    expect(calls.map((c) => c.args.some((a) => a.kind === 'Var' && a.id === sid.id))).toEqual([true, true]);
  });

  it('builds an operator PrimFunc with border handling in the loop nest, a local accumulator and per-channel tables', () => {
    const conv = func(tir, 'tvmgen_default_fused_conv2d');
    expect(conv.params.map((p) => [p.name, p.pointee])).toEqual([
      ['p0', 'int8'],
      ['p1', 'int8'],
      ['p2', 'int32'],
      ['out', 'int8'],
    ]);
    expect(conv.attrs).toMatchObject({ global_symbol: 'tvmgen_default_fused_conv2d', 'tir.noalias': true, target: 'c' });
    expect(conv.bufferMap.map(([v, b]) => b.data.id === v.id)).toEqual([true, true, true, true]);
    // No padded copy: the only Allocate is the one-element accumulator.
    const allocs = collectAllocates(conv);
    expect(allocs.map((a) => [a.storageScope, a.extents.length])).toEqual([['local', 1]]);
    const tables = collectAllocateConsts(conv) as AllocateConst[];
    expect(tables.map((t) => [t.bufferVar.name, t.dtype, t.data.length])).toEqual([
      ['h_multiplier', 'int32', 16],
      ['h_shift', 'int32', 16],
    ]);
    expect(readOperatorRecords(conv)).toEqual([{ name: 'h', op: 'conv2d', target: 'c', inputs: ['p0', 'p1', 'p2'], outputs: ['out'], scratch: [] }]);
    // 6x6 output, 3x3 SAME: rows {0}, 1..4, {5} x the same columns, each nest with the taps
    // inside the input there (kernel rows 1..2 on the top row, all in the interior, ...) and
    // no bounds check anywhere.
    const nests = outerLoops(conv.body);
    const bands = [[0, 1], [1, 5], [5, 6]];
    const taps = [[1, 3], [0, 3], [0, 2]];
    expect(nests.map((f) => ranges(f, 6))).toEqual(
      bands.flatMap((y, i) => bands.map((x, j) => [[0, 1], y, x, [0, 4], taps[i], taps[j], [0, 3]])),
    );
    expect(nests.map((f) => countIfs(f))).toEqual(nests.map(() => 0));
  });

  it('reads a padded copy only for a backend that asks for one (padding: padded-scratch)', () => {
    const strategies = new Map([...CPU_STRATEGIES, ['conv2d', makeConv2dStrategy({ padding: 'padded-scratch' })]]);
    const padded = lowerToTir(module, { strategyFor: (target, op) => (target === 'c' ? strategies.get(op) : undefined) });
    const conv = func(padded, 'tvmgen_default_fused_conv2d');
    const pad = collectAllocates(conv).find((a) => a.bufferVar.name === 'h_pad') as Allocate;
    expect(pad.storageScope).toBe('global');
    expect(pad.extents.map((e) => (e.kind === 'IntImm' ? e.value : -1))).toEqual([1 * 8 * 8 * 3]);
    expect(readOperatorRecords(conv)[0].scratch).toEqual(['h_pad']);
    expect(outerLoops(conv.body).filter((f) => countIfs(f) === 0)).toHaveLength(1);
  });

  it('reads the input directly when the windows stay inside it (no padded copy)', () => {
    const b = new FunctionBuilder();
    const x = b.param('x', i8([1, 5, 5, 2], 0.05));
    const w = i8([2, 3, 3, 2], 0.01);
    b.constant('w', w, new Uint8Array(36));
    b.call('y', 'conv2d', [x, 'w'], i8([1, 3, 3, 2], 0.05), { ...PAD_SAME, padding: [0, 0, 0, 0] });
    const conv = func(lowerForCpu(moduleOf([b.build(['y'])])), 'tvmgen_default_fused_conv2d');
    expect(collectAllocates(conv).map((a) => a.storageScope)).toEqual(['local']);
  });

  it('puts constant arguments after the other inputs, whatever their position', () => {
    const b = new FunctionBuilder();
    const x = b.param('x', i8([1, 4], 0.05, 1));
    const r = rng(9);
    b.constant('k', i8([1, 4], 0.04, -2), randomTensor(r, i8([1, 4], 0.04, -2)));
    b.call('y', 'add', ['k', x], i8([1, 4], 0.08, 0), { activation: 'NONE' });
    const module2 = moduleOf([b.build(['y'])]);
    const t = lowerForCpu(module2);
    const [call] = externCalls(func(t, MAIN_PRIM_FUNC).body);
    expect(call.args.slice(1).map((a) => (a.kind === 'Var' ? a.name : '?'))).toEqual(['x', 'constant_0', 'y']);
    const add = func(t, 'tvmgen_default_fused_add');
    expect(readOperatorRecords(add)[0].inputs).toEqual(['p1', 'p0']);
    const input = randomTensor(r, i8([1, 4], 0.05, 1));
    expect(Array.from(runMain(t, [input])[0])).toEqual(Array.from(interpret(module2, [input])[0]));
  });

  it('rejects unknown operators and missing strategies naming op and target', () => {
    const b = new FunctionBuilder();
    const x = b.param('x', i8([4], 0.1));
    b.call('y', 'gelu', [x], i8([4], 0.1));
    const bad = moduleOf([b.build(['y'])]);
    expect(() => lowerForCpu(bad)).toThrow(LoweringError);
    expect(() => lowerForCpu(bad)).toThrow(/'gelu'/);
    try {
      lowerToTir(twoConvModule(), { strategyFor: () => undefined });
      throw new Error('expected a LoweringError');
    } catch (e) {
      expect(e).toBeInstanceOf(LoweringError);
      expect((e as LoweringError).context).toMatchObject({ op: 'conv2d', target: 'c' });
    }
  });
});

/**
 * main: x -> accel_main_0(x) -> t -> reshape -> y, where accel_main_0 calls the composite
 * `accel.conv2d_relu` (conv2d with its weight inside the composite) and then an `add`.
 */
function partitionedModule(): IRModule {
  const r = rng(17);
  const inT = i8([1, 5, 5, 2], 0.05, 1);
  const convT = i8([1, 5, 5, 3], 0.06, -2);
  const w = i8([3, 3, 3, 2], [0.01, 0.015, 0.02]);

  const comp = new FunctionBuilder('accel_main_0_conv');
  const cx = comp.param('cx', inT);
  comp.constant('cw', w, randomTensor(r, w));
  comp.call('cy', 'conv2d', [cx, 'cw'], convT, { ...PAD_SAME, activation: 'RELU' });
  const composite = comp.build(['cy'], { Composite: 'accel.conv2d_relu', Primitive: true });

  const ext = new FunctionBuilder('accel_main_0');
  const ex = ext.param('ex', inT);
  ext.callFunction('conv_out', 'accel_main_0_conv', [ex], convT);
  ext.constant('bias_map', convT, randomTensor(r, convT));
  ext.call('sum', 'add', ['conv_out', 'bias_map'], i8([1, 5, 5, 3], 0.1, 0), { activation: 'NONE' });
  const external = ext.build(['sum'], { Compiler: 'accel', global_symbol: 'accel_main_0' });

  const main = new FunctionBuilder();
  const x = main.param('x', inT);
  main.callFunction('t', 'accel_main_0', [x], i8([1, 5, 5, 3], 0.1, 0));
  main.call('y', 'reshape', ['t'], i8([1, 75], 0.1, 0));
  return moduleOf([main.build(['y']), external, composite]);
}

describe('offloaded functions', () => {
  it('lowers an external function to one PrimFunc on its target, composites through the target strategy', () => {
    const seen: OpLoweringInput[] = [];
    const compositeStrategy: OperatorStrategy = (input) => {
      seen.push(input);
      return evaluate(callExtern('accel_conv2d_relu', [...input.args.map((a) => a.data), input.out.data]));
    };
    const strategyFor = (target: string, op: string): OperatorStrategy | undefined =>
      target === 'accel' ? (op === 'accel.conv2d_relu' ? compositeStrategy : CPU_STRATEGIES.get(op)) : cpuStrategyFor(target, op);
    const tir = lowerToTir(partitionedModule(), { strategyFor });

    expect([...tir.functions.keys()].sort()).toEqual([MAIN_PRIM_FUNC, 'accel_main_0', 'tvmgen_default_fused_reshape']);
    const ext = func(tir, 'accel_main_0');
    expect(ext.attrs).toMatchObject({ global_symbol: 'accel_main_0', target: 'accel' });
    // params: the function's params, then the constants it uses (composite's first), then the output
    expect(ext.params.map((p) => p.name)).toEqual(['ex', 'cw', 'bias_map', 'sum']);
    // the composite's output is an intermediate inside the offloaded function
    const inner = collectAllocates(ext).filter((a) => a.storageScope === 'global');
    expect(inner[0].bufferVar.name).toBe('conv_out');
    expect(inner[0].annotations['uma.tensor']).toBe('conv_out');

    expect(seen).toHaveLength(1);
    const input = seen[0];
    expect(input.target).toBe('accel');
    expect(input.composite?.name).toBe('accel_main_0_conv');
    expect(input.call.args).toEqual(['ex', 'cw']);
    expect(input.constants.get(1)?.name).toBe('cw');
    expect(input.call.attrs).toMatchObject({ activation: 'RELU', padding: [1, 1, 1, 1] });
    expect(input.out.data.name).toBe('conv_out');

    const records = readOperatorRecords(ext);
    expect(records.map((r) => [r.name, r.op, r.composite, r.target])).toEqual([
      ['conv_out', 'accel.conv2d_relu', 'accel.conv2d_relu', 'accel'],
      ['sum', 'add', undefined, 'accel'],
    ]);

    const main = func(tir, MAIN_PRIM_FUNC);
    const calls = externCalls(main.body);
    expect(calls.map(calleeName)).toEqual(['accel_main_0', 'tvmgen_default_fused_reshape']);
    expect(calls[0].args.slice(1).map((a) => (a.kind === 'Var' ? a.name : '?'))).toEqual(['x', 'constant_0', 'constant_1', 'sid_1']);
  });

  it('falls back to the operators of a composite without its own strategy, and computes what the interpreter does', () => {
    const module = partitionedModule();
    const strategyFor = (target: string, op: string): OperatorStrategy | undefined => (target === 'accel' ? CPU_STRATEGIES.get(op) : cpuStrategyFor(target, op));
    const tir = lowerToTir(module, { strategyFor });
    const records = readOperatorRecords(func(tir, 'accel_main_0'));
    // The composite keeps a record of its own, after its operators' (which name it as partOf
    // only): a constraint on the composite binds its operands, not those of each operator.
    expect(records.map((r) => [r.name, r.op, r.composite, r.partOf])).toEqual([
      ['cy', 'conv2d', undefined, 'accel.conv2d_relu'],
      ['conv_out', 'accel.conv2d_relu', 'accel.conv2d_relu', undefined],
      ['sum', 'add', undefined, undefined],
    ]);
    // Its operands are those a composite strategy gets: the call's args, then its own constants.
    expect([records[1].inputs, records[1].outputs]).toEqual([['ex', 'cw'], ['conv_out']]);
    const x = randomTensor(rng(5), i8([1, 5, 5, 2], 0.05, 1));
    const expected = interpret(module, [x]);
    expect(Buffer.from(runMain(tir, [x])[0]).equals(Buffer.from(expected[0]))).toBe(true);
  });

  it('names target and op when the target has no strategy for an offloaded operator', () => {
    const strategyFor = (target: string, op: string): OperatorStrategy | undefined => (target === 'accel' ? undefined : cpuStrategyFor(target, op));
    try {
      lowerToTir(partitionedModule(), { strategyFor });
      throw new Error('expected a LoweringError');
    } catch (e) {
      expect(e).toBeInstanceOf(LoweringError);
      expect((e as LoweringError).message).toMatch(/'conv2d'.*'accel'/);
      expect((e as LoweringError).context).toMatchObject({ op: 'conv2d', target: 'accel', func: 'accel_main_0' });
    }
  });
});
