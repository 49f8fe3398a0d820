import { MemoryPlanningError, PlanVerificationError } from '../../src/errors';
import { allocate, evaluate, forLoop, makeVar, primFunc, tirModule } from '../../src/ir/tir/builder';
import { collectAllocateConsts, collectAllocates } from '../../src/ir/tir/analysis';
import { runMain } from '../../src/ir/tir/eval';
import { Call, LetStmt, MAIN_PRIM_FUNC, Stmt, TirModule } from '../../src/ir/tir/nodes';
import { postOrderVisit } from '../../src/ir/tir/visitor';
import { makePool } from '../../src/usmp/pools';
import { runUsmp } from '../../src/usmp/pipeline';
import { UsmpResult } from '../../src/usmp/types';
import { aotModule, N, WEIGHTS } from './aotFixture';
import { firstFitPlanner } from './helpers';

const l2 = makePool({ name: 'l2_mem', targets: ['c'] });
const act = makePool({ name: 'act_mem', targets: ['c', 'accel'] });
const wei = makePool({ name: 'wei_mem', kind: 'constant', targets: ['c', 'accel'] });
const POOLS = [l2, act, wei];

const INPUT = Int8Array.from([-3, -2, -1, 0, 1, 2, 3, 4]);

function reference(): Int8Array {
  const out = new Int8Array(N);
  for (let i = 0; i < N; i++) out[i] = (INPUT[i] + WEIGHTS[i]) * 2 + 1 + 3;
  return out;
}

function poolMemories(r: UsmpResult<TirModule>): Map<string, Uint8Array> {
  return new Map(r.pools.map((p) => [p.pool.name, p.data ? new Uint8Array(p.data) : new Uint8Array(p.sizeBytes)]));
}

function lets(body: Stmt): LetStmt[] {
  const out: LetStmt[] = [];
  postOrderVisit(body, (n) => {
    if (n.kind === 'LetStmt') out.push(n);
  });
  return out;
}

function calls(body: Stmt): Call[] {
  const out: Call[] = [];
  postOrderVisit(body, (n) => {
    if (n.kind === 'Call' && n.op === 'tir.call_extern') out.push(n);
  });
  return out;
}

describe('runUsmp on an AoT module with an offloaded function', () => {
  const run = () => runUsmp(aotModule(true), { pools: POOLS, planner: firstFitPlanner, algorithm: 'first_fit' });

  it('places each buffer in a pool its users can reach', () => {
    const r = run();
    const poolOf = Object.fromEntries([...r.plan].map(([b, a]) => [b, a.pool]));
    expect(poolOf).toEqual({ w: 'wei_mem', sid_1: 'act_mem', sid_2: 'act_mem', scratch: 'act_mem' });
    expect(r.algorithm).toBe('first_fit');
  });

  it('rewrites allocations into pool pointers at the planned offsets', () => {
    const r = run();
    const main = r.module.functions.get(MAIN_PRIM_FUNC)!;
    expect(collectAllocates(main.body)).toEqual([]);
    expect(collectAllocateConsts(main.body)).toEqual([]);
    const ptrs = lets(main.body).map((l) => {
      const v = l.value as Call;
      return [l.var.name, v.op, (v.args[0] as { name: string }).name, (v.args[1] as { value: number }).value];
    });
    ptrs.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    // First fit in extraction order: sid_1 at 0, and sid_2 at 0 too: the accelerator reads sid_1
    // in its first loop and writes sid_2 in its second, so the two are never live together.
    // w alone in wei_mem.
    expect(ptrs).toEqual([
      ['sid_1', 'tir.pool_ptr', 'act_mem_var', 0],
      ['sid_2', 'tir.pool_ptr', 'act_mem_var', 0],
      ['w', 'tir.pool_ptr', 'wei_mem_var', 0],
    ]);
    const accel = r.module.functions.get('tvmgen_default_accel_main_0')!;
    const [scratch] = lets(accel.body);
    expect(scratch.var.name).toBe('scratch');
    // scratch is live with both sid_1 and sid_2 inside the accelerator call (aligned to 16).
    expect((scratch.value as Call).args[1]).toMatchObject({ value: 16 });
  });

  it('appends one uint8 pool param per used pool, in pool order, and passes them on every call', () => {
    const r = run();
    expect(r.pools.map((p) => [p.pool.name, p.sizeBytes])).toEqual([
      ['act_mem', 32],
      ['wei_mem', 16],
    ]);
    for (const [name, f] of r.module.functions) {
      const tail = f.params.slice(-2);
      expect([name, tail.map((p) => p.name)]).toEqual([name, ['act_mem_var', 'wei_mem_var']]);
      expect(tail.every((p) => p.dtype === 'handle' && p.pointee === 'uint8')).toBe(true);
    }
    const main = r.module.functions.get(MAIN_PRIM_FUNC)!;
    expect(main.params.map((p) => p.name)).toEqual(['x', 'y', 'act_mem_var', 'wei_mem_var']);
    for (const c of calls(main.body)) {
      expect(c.args.slice(-2)).toEqual(main.params.slice(-2));
    }
  });

  it('fills the constant pool with the weights at their offsets', () => {
    const r = run();
    const wp = r.pools.find((p) => p.pool.name === 'wei_mem')!;
    expect(Array.from(wp.data!.subarray(0, N))).toEqual(Array.from(WEIGHTS));
    expect(wp.data!.length).toBe(wp.sizeBytes);
  });

  it('computes the same outputs as the program before planning', () => {
    const before = runMain(aotModule(true), [new Uint8Array(INPUT.buffer)]);
    expect(Array.from(new Int8Array(before[0].buffer))).toEqual(Array.from(reference()));
    const r = runUsmp(aotModule(true), { pools: POOLS });
    const after = runMain(r.module, [new Uint8Array(INPUT.buffer)], { pools: poolMemories(r) });
    expect(Array.from(new Int8Array(after[0].buffer))).toEqual(Array.from(reference()));
    expect(r.algorithm).toBe('auto');
  });

  it('plans inputs and outputs in the workspace and says where they are', () => {
    const r = runUsmp(aotModule(true), { pools: POOLS, ioInWorkspace: true, timeBudgetMs: 50 });
    const main = r.module.functions.get(MAIN_PRIM_FUNC)!;
    expect(main.params.map((p) => p.name)).toEqual(r.pools.map((p) => `${p.pool.name}_var`));
    expect(r.inputs.map((p) => [p.name, p.sizeBytes])).toEqual([['x', N]]);
    expect(r.outputs.map((p) => [p.name, p.sizeBytes])).toEqual([['y', N]]);
    const mem = poolMemories(r);
    const inp = r.inputs[0];
    mem.get(inp.pool)!.set(new Uint8Array(INPUT.buffer), inp.offset);
    runMain(r.module, [], { pools: mem });
    const out = r.outputs[0];
    const y = new Int8Array(mem.get(out.pool)!.slice(out.offset, out.offset + out.sizeBytes).buffer);
    expect(Array.from(y)).toEqual(Array.from(reference()));
  });

  it('uses the default pools when none are given', () => {
    const r = runUsmp(aotModule(false), { timeBudgetMs: 50 });
    expect(r.pools.map((p) => [p.pool.name, p.pool.internal])).toEqual([
      ['global_workspace', true],
      ['global_const_workspace', true],
    ]);
    expect(r.pools[0].pool.targetAccess).toEqual({ c: 'rw', accel: 'rw' });
  });

  it('refuses to leave a global allocate unplanned, with the reason', () => {
    const v = makeVar('par', 'handle', 'int8');
    const i = makeVar('i');
    const body = forLoop(i, 0, 2, allocate({ bufferVar: v, dtype: 'int8', extents: [4], body: evaluate(0) }), 'parallel');
    const m = tirModule([[MAIN_PRIM_FUNC, primFunc({ params: [], body })]]);
    expect(() => runUsmp(m)).toThrow(MemoryPlanningError);
    expect(() => runUsmp(m)).toThrow(
      "cannot statically plan 1 global allocate(s): 'par' in '__tvm_main__': inside parallel loop 'i': every iteration needs its own copy",
    );
  });

  it('verifies the plan: a planner that overlaps conflicting buffers is caught', () => {
    const overlapping = (bs: readonly { name: string; poolCandidates: readonly { name: string }[] }[]) =>
      new Map(bs.map((b) => [b.name, { pool: b.poolCandidates[0].name, offset: 0 }]));
    expect(() => runUsmp(aotModule(true), { pools: POOLS, planner: overlapping })).toThrow(PlanVerificationError);
  });

  it('names an unknown algorithm', () => {
    expect(() => runUsmp(aotModule(true), { pools: POOLS, algorithm: 'nope' })).toThrow(/unknown memory planning algorithm 'nope'/);
  });
});
