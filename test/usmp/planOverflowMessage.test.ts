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
        'the space available in the provided pools exceeded when trying to allocate the buffer: big (16 bytes); allowed pools: sram (limit 8 bytes), dram (limit 4 bytes); raise a pool\'s sizeHintBytes or allow another pool',
      );
    }
  });
});
