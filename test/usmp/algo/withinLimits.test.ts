import { indexProblem } from '../../../src/usmp/algo/indexed';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { searchWithinLimits } from '../../../src/usmp/algo/withinLimits';
import { buffers, pool } from './helpers';

describe('order search within pool limits', () => {
  test('finds the one order of a clique that fits, and the engine places it the same way', () => {
    // 1 byte aligned to 256, 4,097 and 2 bytes in a 64-aligned pool of 4,225: only 1, 2, 4,097
    // from the bottom fits (0, 64, 128); every greedy order overflows.
    const sram = pool('sram', 4225, 64);
    const bufs = buffers(
      { a: { size: 1, alignment: 256, conflicts: ['b', 'c'] }, b: { size: 4097, conflicts: ['a', 'c'] }, c: { size: 2, conflicts: ['a', 'b'] } },
      [sram],
    );
    const problem = indexProblem(bufs);
    const engine = new PlacementEngine(problem);
    const found = searchWithinLimits(problem, engine.adjStart, engine.adj, 1_000_000)!;
    expect([...found.offset]).toEqual([0, 128, 64]);
    engine.setOrder(found.order);
    expect(engine.placeFrom(0, Infinity)).toBe(4225);
    expect([...engine.offset]).toEqual([0, 128, 64]);
  });

  test('none when nothing fits, within the budget; choosing pools finds what the first-fitting pool rule misses', () => {
    const tiny = pool('tiny', 50);
    const clash = buffers({ a: { size: 40, conflicts: ['b'] }, b: { size: 40, conflicts: ['a'] } }, [tiny]);
    const p = indexProblem(clash);
    const e = new PlacementEngine(p);
    expect(searchWithinLimits(p, e.adjStart, e.adj, 1_000_000)).toBeUndefined();
    // Fuzzed: b2 must sit under b1 in tcm, and b0 fill sram; but b2 prefers sram, where it fits
    // whenever it is placed, so with the engine's rule (the first pool that fits) no order works.
    const sram = pool('sram', 336, 64);
    const dram = pool('dram', 368);
    const tcm = pool('tcm', 592, 64);
    const ranges: Record<string, [number, number]> = { b0: [0, 3], b1: [1, 3], b2: [3, 3], b3: [1, 2], b4: [3, 6] };
    const overlapping = (x: string) => Object.keys(ranges).filter((y) => y !== x && ranges[x][0] <= ranges[y][1] && ranges[y][0] <= ranges[x][1]);
    const bufs = buffers({
      b0: { size: 336, conflicts: overlapping('b0'), pools: [tcm, sram] },
      b1: { size: 528, conflicts: overlapping('b1'), pools: [tcm] },
      b2: { size: 48, conflicts: overlapping('b2'), pools: [sram, tcm] },
      b3: { size: 128, conflicts: overlapping('b3'), pools: [dram] },
      b4: { size: 368, conflicts: overlapping('b4'), pools: [dram], alignment: 64 },
    });
    const problem = indexProblem(bufs);
    const engine = new PlacementEngine(problem);
    expect(searchWithinLimits(problem, engine.adjStart, engine.adj, 1_000_000)).toBeUndefined();
    const chosen = searchWithinLimits(problem, engine.adjStart, engine.adj, 1_000_000, true)!;
    expect([...chosen.pool].map((q) => problem.pools[q].name)).toEqual(['sram', 'tcm', 'tcm', 'dram', 'dram']);
    expect([...chosen.offset]).toEqual([0, 64, 0, 0, 0]);
  });
});
