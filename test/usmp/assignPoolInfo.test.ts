import { allocate, allocateConst, evaluate, makeVar, primFunc, tirModule } from '../../src/ir/tir/builder';
import { collectAllocateConsts, collectAllocates } from '../../src/ir/tir/analysis';
import { ANN_CANDIDATE_POOLS, MAIN_PRIM_FUNC, PrimFunc, Stmt } from '../../src/ir/tir/nodes';
import { PoolConstraintError } from '../../src/errors';
import { assignPoolInfo } from '../../src/usmp/assignPoolInfo';
import { makePool } from '../../src/usmp/pools';

const l2 = makePool({ name: 'l2_mem', targets: ['c'] });
const act = makePool({ name: 'act_mem', targets: ['c', 'accel'] });
const wei = makePool({ name: 'wei_mem', kind: 'constant', targets: ['c', 'accel'] });

function withScratch(name: string, attrs: PrimFunc['attrs'], annotations = {}, scope = 'global'): PrimFunc {
  const v = makeVar(name, 'handle', 'int8');
  return primFunc({ params: [], body: allocate({ bufferVar: v, dtype: 'int8', extents: [4], storageScope: scope, annotations, body: evaluate(0) }), attrs });
}

function withConst(name: string, attrs: PrimFunc['attrs']): PrimFunc {
  const v = makeVar(name, 'handle', 'int8');
  return primFunc({ params: [], body: allocateConst({ bufferVar: v, dtype: 'int8', extents: [2], data: new Uint8Array(2), body: evaluate(0) }), attrs });
}

const annotation = (body: Stmt) => collectAllocates(body).map((a) => a.annotations[ANN_CANDIDATE_POOLS]);

describe('assignPoolInfo', () => {
  it('gives each allocate the workspace pools its target can write, in the user order', () => {
    const m = assignPoolInfo(
      tirModule([
        [MAIN_PRIM_FUNC, withScratch('sid_1', {})],
        ['accel_main_0', withScratch('scratch', { target: 'accel' })],
      ]),
      [l2, act, wei],
    );
    expect(annotation(m.functions.get(MAIN_PRIM_FUNC)!.body)).toEqual([['l2_mem', 'act_mem']]);
    expect(annotation(m.functions.get('accel_main_0')!.body)).toEqual([['act_mem']]);
  });

  it('gives constants the constant pools only', () => {
    const m = assignPoolInfo(tirModule([[MAIN_PRIM_FUNC, withConst('w', {})]]), [l2, act, wei]);
    const [c] = collectAllocateConsts(m.functions.get(MAIN_PRIM_FUNC)!.body);
    expect(c.annotations[ANN_CANDIDATE_POOLS]).toEqual(['wei_mem']);
  });

  it('keeps existing annotations and leaves non-global scopes alone', () => {
    const m = assignPoolInfo(
      tirModule([
        [MAIN_PRIM_FUNC, withScratch('sid_1', {}, { [ANN_CANDIDATE_POOLS]: ['act_mem'] })],
        ['f', withScratch('acc', {}, {}, 'local')],
      ]),
      [l2, act],
    );
    expect(annotation(m.functions.get(MAIN_PRIM_FUNC)!.body)).toEqual([['act_mem']]);
    expect(annotation(m.functions.get('f')!.body)).toEqual([undefined]);
  });

  it('rejects an annotation naming an unknown pool or a pool of the wrong kind', () => {
    const unknown = tirModule([[MAIN_PRIM_FUNC, withScratch('sid_1', {}, { [ANN_CANDIDATE_POOLS]: ['dram'] })]]);
    expect(() => assignPoolInfo(unknown, [l2, act])).toThrow(
      "buffer 'sid_1' in '__tvm_main__' names unknown pool 'dram' in candidate_memory_pools (pools: l2_mem, act_mem)",
    );
    const wrongKind = tirModule([[MAIN_PRIM_FUNC, withScratch('sid_1', {}, { [ANN_CANDIDATE_POOLS]: ['wei_mem'] })]]);
    expect(() => assignPoolInfo(wrongKind, [l2, wei])).toThrow(/is a workspace buffer but pool 'wei_mem' is a constant pool/);
  });

  it('fails with the function, its target and every pool with its targets when no pool fits', () => {
    const m = tirModule([
      [MAIN_PRIM_FUNC, withScratch('sid_1', {})],
      ['accel_main_0', withScratch('scratch', { target: 'accel' })],
    ]);
    let err: unknown;
    try {
      assignPoolInfo(m, [l2, wei]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PoolConstraintError);
    expect((err as Error).message).toBe(
      "no workspace pool is writable by target 'accel' of function 'accel_main_0' (buffer 'scratch'); " +
        'pools: l2_mem (workspace; c: rw); wei_mem (constant; c: ro, accel: ro)',
    );
    expect((err as PoolConstraintError).context).toMatchObject({ func: 'accel_main_0', target: 'accel', buffer: 'scratch' });
  });
});
