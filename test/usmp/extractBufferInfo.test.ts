import {
  allocate,
  allocateConst,
  bufferLoad,
  bufferStore,
  evaluate,
  forLoop,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { ANN_CANDIDATE_POOLS, MAIN_PRIM_FUNC, PrimFunc, Stmt } from '../../src/ir/tir/nodes';
import { assignPoolInfo } from '../../src/usmp/assignPoolInfo';
import { extractBufferInfo } from '../../src/usmp/extractBufferInfo';
import { defaultPools } from '../../src/usmp/pools';
import { addConstFunc, callStmt, copyViaScratchFunc } from './helpers';

const pools = defaultPools(['c']);

function extract(functions: Array<readonly [string, PrimFunc]>) {
  const m = assignPoolInfo(tirModule(functions), pools);
  return extractBufferInfo(m, pools);
}

/**
 * main: allocate sid_1[16], sid_2[32] (int8); f1(in, sid_1); f2(sid_1, sid_2); f2(sid_2, out).
 * Statement numbers (pre-order, callees at their call): 1 Allocate sid_1, 2 Allocate sid_2,
 * 3 Seq, 4 call f1, 5 For i, 6 store; 7 call f2, 8 Allocate tmp, 9 Seq, 10 For j, 11 store,
 * 12 For k, 13 store; 14 call f2, 15 Allocate tmp, 16 Seq, 17 For j, 18 store, 19 For k, 20 store.
 */
function threeCallModule(): Array<readonly [string, PrimFunc]> {
  const input = makeVar('input', 'handle', 'int8');
  const output = makeVar('output', 'handle', 'int8');
  const sid1 = makeVar('sid_1', 'handle', 'int8');
  const sid2 = makeVar('sid_2', 'handle', 'int8');
  const body = allocate({
    bufferVar: sid1,
    dtype: 'int8',
    extents: [16],
    body: allocate({
      bufferVar: sid2,
      dtype: 'int8',
      extents: [32],
      body: seq([callStmt('f1', [input, sid1]), callStmt('f2', [sid1, sid2]), callStmt('f2', [sid2, output])]),
    }),
  });
  const main = primFunc({
    params: [input, output],
    bufferMap: [
      [input, makeBuffer('input', 'int8', [16], input)],
      [output, makeBuffer('output', 'int8', [32], output)],
    ],
    body,
    attrs: { runner_function: true },
  });
  return [
    [MAIN_PRIM_FUNC, main],
    ['f1', addConstFunc(16, 1)],
    ['f2', copyViaScratchFunc(8)],
  ];
}

describe('extractBufferInfo', () => {
  it('gives each buffer its first..last access, callee accesses counted through the aliased params', () => {
    const a = extract(threeCallModule());
    const byName = new Map(a.buffers.map((b) => [b.name, b]));
    expect(a.buffers.map((b) => b.name)).toEqual(['sid_1', 'sid_2', 'tmp', 'tmp_1']);
    // Handed to a call, a buffer is live where the callee touches it, not at the call: sid_1
    // from f1's loop (5) to f2's first loop (11), sid_2 from f2's second loop (12).
    expect(byName.get('sid_1')!.liveRange).toEqual([5, 11]);
    expect(byName.get('sid_2')!.liveRange).toEqual([12, 18]);
    expect(byName.get('tmp')!.liveRange).toEqual([10, 13]);
    expect(byName.get('tmp_1')!.liveRange).toEqual([17, 20]);
  });

  it('makes one buffer per call of a function with scratch, and records where each comes from', () => {
    const a = extract(threeCallModule());
    const tmp = a.sites.get('tmp')!;
    const tmp1 = a.sites.get('tmp_1')!;
    expect(tmp.func).toBe('f2');
    expect(tmp1.func).toBe('f2');
    expect(tmp.node).toBe(tmp1.node);
    expect(tmp.instance).not.toBe(tmp1.instance);
    expect(a.callTree.calls.map((c) => c.func)).toEqual(['f1', 'f2', 'f2']);
    expect(a.sites.get('sid_1')!.func).toBe(MAIN_PRIM_FUNC);
  });

  it('derives conflicts by sweeping the intervals, and the memory pressure as the peak live bytes', () => {
    const a = extract(threeCallModule());
    const conflicts = Object.fromEntries(a.buffers.map((b) => [b.name, [...b.conflicts].sort()]));
    // f2 reads its input (sid_1) in its first loop and writes its output (sid_2) in its second:
    // the two never live together, as with the two operators called one by one.
    expect(conflicts).toEqual({
      sid_1: ['tmp'],
      sid_2: ['tmp', 'tmp_1'],
      tmp: ['sid_1', 'sid_2'],
      tmp_1: ['sid_2'],
    });
    // Peak at statements 12-13 and 17-18: sid_2 (32) + a tmp (8).
    expect(a.memoryPressure).toBe(40);
  });

  it('fills size, alignment and candidate pools from the annotation', () => {
    const a = extract(threeCallModule());
    const sid2 = a.buffers.find((b) => b.name === 'sid_2')!;
    expect(sid2.sizeBytes).toBe(32);
    expect(sid2.alignment).toBe(16);
    expect(sid2.poolCandidates.map((p) => p.name)).toEqual(['global_workspace']);
    expect(sid2.kind).toBe('workspace');
    expect(sid2.target).toBe('c');
  });

  it('extends a buffer used in a loop nest over the whole outermost loop', () => {
    // 1 a, 2 b, 3 c, 4 Seq, 5 store a, 6 For i, 7 Seq, 8 For j, 9 store b, 10 Evaluate, 11 store c=a.
    const [av, bv, cv] = ['a', 'b', 'c'].map((n) => makeVar(n, 'handle', 'int32'));
    const [a, b, c] = [av, bv, cv].map((v) => makeBuffer(v.name, 'int32', [4], v));
    const i = makeVar('i');
    const j = makeVar('j');
    const body: Stmt = seq([
      bufferStore(a, 1, [0]),
      forLoop(i, 0, 4, seq([forLoop(j, 0, 4, bufferStore(b, bufferLoad(a, [0]), [j])), evaluate(0)])),
      bufferStore(c, bufferLoad(a, [0]), [0]),
    ]);
    const wrap = [cv, bv, av].reduce<Stmt>((s, v) => allocate({ bufferVar: v, dtype: 'int32', extents: [4], body: s }), body);
    const r = extract([[MAIN_PRIM_FUNC, primFunc({ params: [], body: wrap })]]);
    const byName = new Map(r.buffers.map((x) => [x.name, x]));
    expect(byName.get('a')!.liveRange).toEqual([5, 11]);
    expect(byName.get('b')!.liveRange).toEqual([6, 10]);
    expect(byName.get('c')!.liveRange).toEqual([11, 11]);
    expect(byName.get('b')!.conflicts).toEqual(['a']);
    expect(byName.get('c')!.conflicts).toEqual(['a']);
  });

  it('leaves allocates under a parallel loop, in local scope or with dynamic extents unplanned, with reasons', () => {
    const n = makeVar('n');
    const i = makeVar('i');
    const par = makeVar('par', 'handle', 'int8');
    const loc = makeVar('loc', 'handle', 'int8');
    const dyn = makeVar('dyn', 'handle', 'int8');
    const use = (v: typeof par) => bufferStore(makeBuffer(v.name, 'int8', [1], v), 0, [0]);
    const body = seq([
      forLoop(i, 0, 4, allocate({ bufferVar: par, dtype: 'int8', extents: [8], body: use(par) }), 'parallel'),
      allocate({ bufferVar: loc, dtype: 'int8', extents: [8], storageScope: 'local', body: use(loc) }),
      allocate({ bufferVar: dyn, dtype: 'int8', extents: [n], body: use(dyn) }),
    ]);
    const r = extract([[MAIN_PRIM_FUNC, primFunc({ params: [n], body })]]);
    expect(r.buffers).toEqual([]);
    expect(r.unplanned.map(({ func, name, reason }) => ({ func, name, reason }))).toEqual([
      { func: MAIN_PRIM_FUNC, name: 'par', reason: "inside parallel loop 'i': every iteration needs its own copy" },
      { func: MAIN_PRIM_FUNC, name: 'loc', reason: "storage scope 'local' is not global; it stays a local array" },
      { func: MAIN_PRIM_FUNC, name: 'dyn', reason: 'extent is not a compile-time constant' },
    ]);
  });

  it('makes constants conflict with every other constant and with no workspace buffer', () => {
    const w1 = makeVar('w1', 'handle', 'int8');
    const w2 = makeVar('w2', 'handle', 'int8');
    const s = makeVar('s', 'handle', 'int8');
    const x = makeVar('x', 'handle', 'int8');
    const body = allocateConst({
      bufferVar: w1,
      dtype: 'int8',
      extents: [4],
      data: new Uint8Array(4),
      body: allocateConst({
        bufferVar: w2,
        dtype: 'int8',
        extents: [8],
        data: new Uint8Array(8),
        body: allocate({
          bufferVar: s,
          dtype: 'int8',
          extents: [16],
          body: allocate({
            bufferVar: x,
            dtype: 'int8',
            extents: [2],
            body: seq([callStmt('k', [w1, s]), callStmt('k', [w2, s, x])]),
          }),
        }),
      }),
    });
    const r = extract([[MAIN_PRIM_FUNC, primFunc({ params: [], body })]]);
    const byName = new Map(r.buffers.map((b) => [b.name, b]));
    expect(byName.get('w1')!.kind).toBe('constant');
    expect(byName.get('w1')!.conflicts).toEqual(['w2']);
    expect(byName.get('w2')!.conflicts).toEqual(['w1']);
    expect(byName.get('w1')!.poolCandidates.map((p) => p.name)).toEqual(['global_const_workspace']);
    expect(byName.get('s')!.conflicts).toEqual(['x']);
    // Workspace peak (s + x = 18) plus all constants (12).
    expect(r.memoryPressure).toBe(30);
  });

  it('keeps AllocateConsts unplanned when no constant pool exists', () => {
    const w = makeVar('w', 'handle', 'int8');
    const body = allocateConst({ bufferVar: w, dtype: 'int8', extents: [4], data: new Uint8Array(4), body: callStmt('k', [w]) });
    const wsOnly = pools.filter((p) => p.kind === 'workspace');
    const m = assignPoolInfo(tirModule([[MAIN_PRIM_FUNC, primFunc({ params: [], body })]]), wsOnly);
    const r = extractBufferInfo(m, wsOnly);
    expect(r.buffers).toEqual([]);
    expect(r.unplanned.map((u) => u.reason)).toEqual(['no constant pool was given; it stays a constant array']);
  });

  it('makes names unique across functions and uses the I/O tensor name for I/O allocates', () => {
    const a1 = makeVar('buf', 'handle', 'int8');
    const a2 = makeVar('buf', 'handle', 'int8');
    const io = makeVar('input_0', 'handle', 'int8');
    const inner = primFunc({
      params: [],
      body: allocate({ bufferVar: a2, dtype: 'int8', extents: [1], body: evaluate(intImm(0)) }),
    });
    const body = allocate({
      bufferVar: io,
      dtype: 'int8',
      extents: [3],
      annotations: { input_tensor: 'serving_default_x:0' },
      body: allocate({ bufferVar: a1, dtype: 'int8', extents: [1], body: callStmt('g', []) }),
    });
    const r = extract([
      [MAIN_PRIM_FUNC, primFunc({ params: [], body })],
      ['g', inner],
    ]);
    expect(r.buffers.map((b) => b.name)).toEqual(['serving_default_x:0', 'buf', 'buf_1']);
    expect(r.sites.get('serving_default_x:0')!.io).toEqual({ direction: 'input', tensor: 'serving_default_x:0' });
    expect(r.sites.get('buf_1')!.func).toBe('g');
  });

  it('follows a let-bound alias of a buffer var', () => {
    // 1 Allocate a, 2 Allocate b, 3 Seq, 4 store b, 5 Let p = a, 6 store p.
    const av = makeVar('a', 'handle', 'int8');
    const bv = makeVar('b', 'handle', 'int8');
    const p = makeVar('p', 'handle', 'int8');
    const body = seq([bufferStore(makeBuffer('b', 'int8', [1], bv), 0, [0]), letStmt(p, av, bufferStore(makeBuffer('p', 'int8', [1], p), 0, [0]))]);
    const wrap = allocate({ bufferVar: av, dtype: 'int8', extents: [1], body: allocate({ bufferVar: bv, dtype: 'int8', extents: [1], body }) });
    const r = extract([[MAIN_PRIM_FUNC, primFunc({ params: [], body: wrap })]]);
    expect(r.buffers.find((b) => b.name === 'a')!.liveRange).toEqual([5, 6]);
    expect(r.buffers.find((b) => b.name === 'b')!.liveRange).toEqual([4, 4]);
    expect(r.buffers.find((b) => b.name === 'a')!.conflicts).toEqual([]);
  });

  it('rejects an annotation naming a pool it was not given', () => {
    const v = makeVar('v', 'handle', 'int8');
    const body = allocate({ bufferVar: v, dtype: 'int8', extents: [1], annotations: { [ANN_CANDIDATE_POOLS]: ['nope'] }, body: evaluate(0) });
    const m = tirModule([[MAIN_PRIM_FUNC, primFunc({ params: [], body })]]);
    expect(() => extractBufferInfo(m, pools)).toThrow("buffer 'v' in '__tvm_main__' names unknown pool 'nope'");
  });
});
