import { indexProblem } from '../../../src/usmp/algo/indexed';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { lowerPoolTops, preferEarlierPools } from '../../../src/usmp/algo/preferPools';
import { buffers, pool } from './helpers';

describe('preferEarlierPools', () => {
  const sram = pool('sram', undefined, 16);
  const dram = pool('dram', undefined, 16);
  const bufs = buffers({
    a: { size: 32, conflicts: ['b', 'c'], pools: [sram, dram] },
    b: { size: 32, conflicts: ['a'], pools: [sram, dram] },
    c: { size: 16, conflicts: ['a'], pools: [sram, dram] },
    d: { size: 48, conflicts: [], pools: [sram, dram] },
  });
  const problem = indexProblem(bufs);
  const engine = new PlacementEngine(problem);

  it('moves a buffer to an earlier candidate pool where it fits below that pool’s end, clear of its conflicts', () => {
    // a at 0 and b at 32 in the SRAM (ends at 64); c and d in the DRAM. c conflicts with a only:
    // it fits the SRAM at 32..48 below its end; d (48 bytes) fits at 0..48, nothing conflicts.
    const placed = { pool: Int32Array.from([0, 0, 1, 1]), offset: Float64Array.from([0, 32, 0, 16]) };
    const moved = preferEarlierPools(problem, placed, engine.adjStart, engine.adj);
    expect([...moved.pool]).toEqual([0, 0, 0, 0]);
    expect([...moved.offset]).toEqual([0, 32, 32, 0]);
  });

  it('never grows a pool: a buffer that only fits above the earlier pool’s end stays', () => {
    // The SRAM holds a alone (ends at 32); b conflicts with a, so in the SRAM it would end at 64.
    const placed = { pool: Int32Array.from([0, 1, 1, 1]), offset: Float64Array.from([0, 0, 32, 48]) };
    const moved = preferEarlierPools(problem, placed, engine.adjStart, engine.adj);
    expect(moved.pool[1]).toBe(1);
    expect(moved.offset[1]).toBe(0);
    // c (16 bytes) conflicts with a, above it ends at 48; d (48 bytes) conflicts with nobody but
    // ends at 48 too: both stay.
    expect([...moved.pool]).toEqual([0, 1, 1, 1]);
  });
});

describe('lowerPoolTops', () => {
  const l2 = pool('l2', undefined, 16);
  const act = pool('act', undefined, 16);
  /** x at 0 and y on top of it in l2 (they conflict); z alone in act, `zSize` bytes. */
  function lowered(zSize: number) {
    const problem = indexProblem(
      buffers({
        x: { size: 32, conflicts: ['y'], pools: [l2, act] },
        y: { size: 32, conflicts: ['x'], pools: [l2, act] },
        z: { size: zSize, conflicts: [], pools: [act] },
      }),
    );
    const engine = new PlacementEngine(problem);
    const placed = { pool: Int32Array.from([0, 0, 1]), offset: Float64Array.from([0, 32, 0]) };
    return lowerPoolTops(problem, placed, engine.adjStart, engine.adj);
  }

  it("moves a pool's top buffers where another pool has room below its end, so the total shrinks", () => {
    // y leaves l2 (which now ends at 32) for act at 0, under act's end of 48: total 96 -> 80.
    const moved = lowered(48);
    expect([...moved.pool]).toEqual([0, 1, 1]);
    expect([...moved.offset]).toEqual([0, 0, 0]);
  });

  it("moves nothing where it would raise the other pool's end", () => {
    expect([...lowered(16).pool]).toEqual([0, 0, 1]);
  });
});
