/**
 * Cliques of more than 500 buffers (every buffer live with every other: a compiled model's
 * constants, or workspace buffers all live at one operator) are stacked in the TFLM size order
 * first, and that stack is the plan when it meets the lower bound: no plan is smaller, and the
 * engine's n^2 adjacency is never built (auto.ts, stackedClique). A stack the alignments pad
 * above the bound leaves the call to the usual steps.
 */
import { planAuto } from '../../../src/usmp/algo/auto';
import { CompactConflicts, compactBufferInfos } from '../../../src/usmp/compactConflicts';
import { intervalsToBufferInfos, lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { BufferInfo, PoolInfo } from '../../../src/usmp/types';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { pool } from './helpers';

const SKYLINE = 'tflm size/skyline';

function planned(buffers: readonly BufferInfo[]) {
  const bound = lowerBoundOfBuffers(buffers);
  const { plan, stats } = planAuto(buffers, bound);
  verifyPlan(buffers, plan);
  const total = [...poolSizesOfPlan(buffers, plan).values()].reduce((a, b) => a + b, 0);
  return { total, bound, stats };
}

/** n live ranges that all contain time 10, sizes from `size`, one alignment. */
function allLiveAtTen(n: number, size: (i: number) => number, alignment: number | ((i: number) => number), pools: PoolInfo[]) {
  const align = typeof alignment === 'number' ? () => alignment : alignment;
  return intervalsToBufferInfos(
    Array.from({ length: n }, (_, i) => ({ sizeBytes: size(i), firstUse: i % 10, lastUse: 10 + (i % 7), alignment: align(i) })),
    pools,
  );
}

describe('a clique of more than 500 buffers', () => {
  it('is stacked at its bound, proven, when the stack meets it (live ranges sharing a time)', () => {
    const { total, bound, stats } = planned(allLiveAtTen(600, (i) => 16 * (1 + (i % 5)), 16, [pool('arena', undefined, 16)]));
    expect(total).toBe(bound);
    expect({ order: stats.initialOrder, proven: stats.provenOptimal }).toEqual({ order: SKYLINE, proven: true });
  });

  it.each([
    ['constants (one clique)', true],
    ['workspace buffers live at one operator', false],
  ])('is stacked at its bound in a compiled model: %s', (_, constant) => {
    const n = 700;
    const kind = constant ? ('constant' as const) : ('workspace' as const);
    const target: PoolInfo = { name: constant ? 'flash' : 'sram', kind, targetAccess: { c: constant ? 'ro' : 'rw' }, alignment: 8, internal: true };
    const set = new CompactConflicts(
      Float64Array.from({ length: n }, (_, i) => (constant ? 0 : i % 9)),
      Float64Array.from({ length: n }, (_, i) => (constant ? 0 : 9 + (i % 4))),
      new Uint8Array(n).fill(constant ? 1 : 0),
    );
    const buffers = compactBufferInfos(
      set,
      Array.from({ length: n }, (_, i) => ({ name: `t${i}`, sizeBytes: 8 * (1 + (i % 3)), alignment: 8, poolCandidates: [target], kind, liveRange: [0, 9] as const })),
    );
    const { total, bound, stats } = planned(buffers);
    expect(total).toBe(bound);
    expect(stats.initialOrder).toBe(SKYLINE);
  });

  it('goes on to the usual steps when alignment padding keeps the stack above the bound', () => {
    // 24-byte buffers at 16-byte alignment stacked one after another pad 8 bytes each; 8-byte
    // ones between them fill those gaps, which the size order (all 24s first) does not do.
    const buffers = allLiveAtTen(600, (i) => (i % 2 === 0 ? 24 : 8), (i) => (i % 2 === 0 ? 16 : 8), [pool('arena', undefined, 1)]);
    const { total, bound, stats } = planned(buffers);
    expect(stats.initialOrder).not.toBe(SKYLINE);
    const sizeOrderStack = 300 * 32 + 300 * 8 - 8;
    expect(total).toBeLessThan(sizeOrderStack);
    expect(total).toBeGreaterThanOrEqual(bound);
  });

  it('is left to the usual steps at 500 buffers and fewer', () => {
    const { total, bound, stats } = planned(allLiveAtTen(500, (i) => 16 * (1 + (i % 5)), 16, [pool('arena', undefined, 16)]));
    expect(total).toBe(bound);
    expect(stats.initialOrder).not.toBe(SKYLINE);
  });
});
