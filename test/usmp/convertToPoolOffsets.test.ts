import { allocate, makeBuffer, makeVar, primFunc, seq, tirModule } from '../../src/ir/tir/builder';
import { collectCallExterns } from '../../src/ir/tir/analysis';
import { runMain } from '../../src/ir/tir/eval';
import { Call, LetStmt, MAIN_PRIM_FUNC, PrimFunc, TirModule } from '../../src/ir/tir/nodes';
import { assignPoolInfo } from '../../src/usmp/assignPoolInfo';
import { ATTR_POOL_ARGS, convertToPoolOffsets } from '../../src/usmp/convertToPoolOffsets';
import { extractBufferInfo } from '../../src/usmp/extractBufferInfo';
import { makePool } from '../../src/usmp/pools';
import { PoolAllocation } from '../../src/usmp/types';
import { callStmt, copyViaScratchFunc } from './helpers';

const ws = makePool({ name: 'sram', targets: ['c'], alignment: 8 });

/** main(x, y): sid = copy(x) via f; y = copy(sid) via f — f has a scratch buffer, called twice. */
function twiceCalled(): TirModule {
  const x = makeVar('x', 'handle', 'int8');
  const y = makeVar('y', 'handle', 'int8');
  const sid = makeVar('sid', 'handle', 'int8');
  const main = primFunc({
    params: [x, y],
    bufferMap: [
      [x, makeBuffer('x', 'int8', [4], x)],
      [y, makeBuffer('y', 'int8', [4], y)],
    ],
    body: allocate({ bufferVar: sid, dtype: 'int8', extents: [4], body: seq([callStmt('f', [x, sid]), callStmt('f', [sid, y])]) }),
  });
  return tirModule([
    [MAIN_PRIM_FUNC, main],
    ['f', copyViaScratchFunc(4, { global_symbol: 'f' })],
  ]);
}

function rewrite(placements: Record<string, number>) {
  const m = assignPoolInfo(twiceCalled(), [ws]);
  const analysis = extractBufferInfo(m, [ws]);
  const plan = new Map<string, PoolAllocation>(Object.entries(placements).map(([b, offset]) => [b, { pool: 'sram', offset }]));
  return { analysis, ...convertToPoolOffsets(m, analysis, plan, [ws]) };
}

const scratchOffset = (f: PrimFunc) => ((f.body as LetStmt).value as Call).args[1];

describe('convertToPoolOffsets', () => {
  it('shares one function when both calls put the scratch buffer at the same place', () => {
    const r = rewrite({ sid: 0, tmp: 8, tmp_1: 8 });
    expect([...r.module.functions.keys()].sort()).toEqual([MAIN_PRIM_FUNC, 'f']);
    expect(collectCallExterns(r.module.functions.get(MAIN_PRIM_FUNC)!.body).map((c) => c.name)).toEqual(['f', 'f']);
    expect(scratchOffset(r.module.functions.get('f')!)).toMatchObject({ value: 8 });
  });

  it('specialises the function per call when the calls got different places', () => {
    const r = rewrite({ sid: 0, tmp: 8, tmp_1: 16 });
    const main = r.module.functions.get(MAIN_PRIM_FUNC)!;
    expect(collectCallExterns(main.body).map((c) => c.name)).toEqual(['f', 'f_1']);
    expect(scratchOffset(r.module.functions.get('f')!)).toMatchObject({ value: 8 });
    expect(scratchOffset(r.module.functions.get('f_1')!)).toMatchObject({ value: 16 });
    expect(r.module.functions.get('f_1')!.attrs.global_symbol).toBe('f_1');
    expect(r.module.functions.get('f_1')!.attrs[ATTR_POOL_ARGS]).toEqual(['sram']);
  });

  it('sizes a pool as the furthest end of its buffers, rounded up to the pool alignment', () => {
    const r = rewrite({ sid: 0, tmp: 8, tmp_1: 17 });
    expect(r.pools.map((p) => [p.pool.name, p.sizeBytes])).toEqual([['sram', 24]]);
    expect(r.pools[0].data).toBeUndefined();
  });

  it('keeps the program meaning, specialised or not', () => {
    const input = Uint8Array.from([9, 8, 7, 6]);
    for (const placements of [
      { sid: 0, tmp: 8, tmp_1: 8 },
      { sid: 0, tmp: 8, tmp_1: 16 },
    ]) {
      const r = rewrite(placements);
      const [out] = runMain(r.module, [input], { pools: new Map([['sram', new Uint8Array(r.pools[0].sizeBytes)]]) });
      expect(Array.from(out)).toEqual([9, 8, 7, 6]);
    }
  });

  it('refuses a plan that misses a buffer', () => {
    expect(() => rewrite({ sid: 0, tmp: 8 })).toThrow("the plan does not place buffer 'tmp_1'");
  });
});
