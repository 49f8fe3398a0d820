import { kick } from '../../../src/usmp/algo/auto';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { buffers, pool } from './helpers';

describe('auto on multi-pool problems', () => {
  // SRAM holds one of the two (they are live together); `pinned` may only live there.
  const sram = pool('sram', 10);
  const dram = pool('dram');
  const pinnedSet = () =>
    buffers({
      free: { size: 10, conflicts: ['pinned'], pools: [sram, dram] },
      pinned: { size: 10, conflicts: ['free'], pools: [sram] },
    });

  test('a restart kick leaves an order whose full placement completes', () => {
    const engine = new PlacementEngine(indexProblem(pinnedSet()));
    engine.setOrder([1, 0]); // pinned first: it takes the SRAM, free goes to the DRAM
    expect(engine.placeFrom(0, Infinity)).toBe(20);
    engine.commit(0);
    // random() = 0 moves `free` (both stick out above a target of 5) to the front, where it would
    // take the SRAM the pinned buffer needs.
    // Every kick fails here, so the order is left as it was.
    expect(kick(engine, 5, () => 0)).toBe(20);
    expect([...engine.order]).toEqual([1, 0]);
    expect(engine.placeFrom(0, Infinity)).toBe(20);
    expect(engine.failedBuffer).toBe(-1);
  });
});
