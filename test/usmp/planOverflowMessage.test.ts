import { planBufferSet } from '../../src/cli/plan';
import { MemoryPlanningError } from '../../src/errors';
import { parseBufferSet } from '../../src/usmp/bufferSet';
import { errorOf } from '../helpers/errorOf';

describe("uma-ts plan: a pools-exhausted error names each allowed pool once", () => {
  // Regression: a buffer listing a pool twice (one choice since fz21) was reported with
  // "allowed pools: sram (limit 8 bytes), sram (limit 8 bytes)".
  it('a pool repeated in candidatePools is named once', () => {
    const set = parseBufferSet(
      JSON.stringify({
        pools: [{ name: 'sram', sizeHintBytes: 8 }, { name: 'dram', sizeHintBytes: 4 }],
        buffers: [{ name: 'big', size: 16, candidatePools: ['sram', 'dram', 'sram', 'dram'], liveRange: [0, 1] }],
      }),
      'set.json',
    );
    for (const algorithm of ['auto', 'greedy_by_size']) {
      const e = errorOf(() => planBufferSet(set, algorithm));
      expect(e).toBeInstanceOf(MemoryPlanningError);
      expect(e.message).toBe(
        "the space available in the provided pools exceeded when trying to allocate the buffer: big (16 bytes); allowed pools: sram (limit 8 bytes), dram (limit 4 bytes); the pools' limits add up to 12 bytes, below the lower bound of 16 bytes, so no plan fits them; raise a pool's sizeHintBytes or allow another pool",
      );
    }
  });
});

describe('uma-ts plan: limits that add up to less than the lower bound', () => {
  const setOf = (limits: [number, number]) =>
    parseBufferSet(
      JSON.stringify({
        pools: [
          { name: 'sram', sizeHintBytes: limits[0] },
          { name: 'dram', sizeHintBytes: limits[1] },
        ],
        buffers: [
          { name: 'a', size: 64, candidatePools: ['sram', 'dram'], liveRange: [0, 2] },
          { name: 'b', size: 64, candidatePools: ['sram', 'dram'], liveRange: [1, 3] },
          { name: 'c', size: 64, candidatePools: ['sram', 'dram'], liveRange: [2, 4] },
        ],
      }),
      'set.json',
    );

  it('says so, with both sums, whatever the planner', () => {
    // 192 bytes live at time 2; the limits hold 96 + 64.
    for (const algorithm of ['auto', 'greedy_by_size', 'hill_climb']) {
      const e = errorOf(() => planBufferSet(setOf([96, 64]), algorithm));
      expect(e).toBeInstanceOf(MemoryPlanningError);
      expect(e.message).toMatch(/^the space available in the provided pools exceeded when trying to allocate the buffer: /);
      expect(e.message).toContain("; the pools' limits add up to 160 bytes, below the lower bound of 192 bytes, so no plan fits them;");
    }
  });

  it('says nothing of the kind where the limits hold the bound but the packing fails', () => {
    // 96 + 96 holds the 192 live bytes, yet each pool holds one of the three 64-byte buffers.
    const e = errorOf(() => planBufferSet(setOf([96, 96]), 'auto'));
    expect(e).toBeInstanceOf(MemoryPlanningError);
    expect(e.message).not.toContain('add up to');
  });
});
