/**
 * A pool limited to the size auto plans without a limit must still plan. Where no greedy start
 * fitted the limit, auto had only its rescues at the limit (a short decision of the exact core,
 * an order search): the steps that reach such plans without a limit (the core's dives after its
 * decision, its descents and re-solves) never ran, and the plan failed with the pool exhausted.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseBufferSet } from '../../../src/usmp/bufferSet';
import { planBufferSet } from '../../../src/cli/plan';
import { packedRectangles, longLifetimes, randomIntervals } from '../../../bench/generators';
import { pinnedBufferSet } from '../../../bench/portfolio';
import { poolSizesOfPlan } from '../../../src/usmp/verify';
import { fitWithin } from '../../../src/usmp/algo/coreSteps';
import { planAuto } from '../../../src/usmp/algo/auto';
import { intervalsToBufferInfos, lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { MemoryPlanningError } from '../../../src/errors';
import { verifyPlan } from '../../../src/usmp/verify';
import { BenchSet } from '../../../bench/generators';
import { BufferInfo } from '../../../src/usmp/types';
import { checkedTop, coreOfIntervals, pool, poolSize } from './helpers';

function limitedBuffers(set: BenchSet, limit?: number) {
  return intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 })),
    [pool('sram', limit, 16)],
  );
}

/** `buffers` with every pool limited to its size in `sizes` (0 for a pool it lacks). */
function limitedToSizes(buffers: readonly BufferInfo[], sizes: ReadonlyMap<string, number>): BufferInfo[] {
  const sized = new Map(buffers.flatMap((b) => b.poolCandidates).map((p) => [p.name, { ...p, sizeHintBytes: sizes.get(p.name) ?? 0 }]));
  return buffers.map((b) => ({ ...b, poolCandidates: b.poolCandidates.map((p) => sized.get(p.name)!) }));
}

function plannedTotal(set: BenchSet, limit?: number): number {
  const buffers = limitedBuffers(set, limit);
  const { plan, stats } = planAuto(buffers, lowerBoundOfBuffers(buffers));
  verifyPlan(buffers, plan);
  const total = poolSize(buffers, plan, 'sram');
  expect(stats.finalTotal).toBe(total);
  return total;
}

describe('a pool limited to what auto plans without a limit', () => {
  // 120 rectangles cut from a 1 MiB pool over 200 operators: the bound, 1 MiB, is the optimum.
  const packed = packedRectangles(2, 120, 200);

  it('plans rectangles cut from the pool itself within it (the decision alone found no fit)', () => {
    expect(plannedTotal(packed)).toBe(1 << 20);
    expect(plannedTotal(packed, 1 << 20)).toBe(1 << 20);
    // The core's own decision at 1 MiB runs out; one of its dives fits at once.
    expect(coreOfIntervals(packed).decide(1 << 20, 20_000_000).kind).toBe('unknown');
    const offsets = fitWithin(coreOfIntervals(packed), 1 << 20, 5_000_000, 20_000_000)!;
    expect(checkedTop(packed, 16, offsets)).toBeLessThanOrEqual(1 << 20);
  });

  it('plans a 2,000-buffer set at the total auto reaches without a limit, above the bound', () => {
    const set = longLifetimes(3);
    const open = plannedTotal(set);
    expect(open).toBeGreaterThan(lowerBoundOfBuffers(limitedBuffers(set)));
    expect(plannedTotal(set, open)).toBe(open);
  });

  it('still fails where the limit is below the lower bound', () => {
    const buffers = limitedBuffers(packed, (1 << 20) - 16);
    expect(() => planAuto(buffers, lowerBoundOfBuffers(buffers))).toThrow(MemoryPlanningError);
    expect(() => planAuto(buffers, lowerBoundOfBuffers(buffers))).toThrow(/the space available in the provided pools exceeded when trying to allocate the buffer/);
  });

  it('plans pools limited to their use in its own plan, as a user sizes them from the memory report', () => {
    // The bench's set with pins (SRAM limited to a third of the bound, DRAM not): DRAM then
    // limited to its use too. Every greedy start overflowed a pool and the plan failed.
    const buffers = pinnedBufferSet(randomIntervals(11, 500, 200));
    const open = poolSizesOfPlan(buffers, planAuto(buffers, lowerBoundOfBuffers(buffers)).plan);
    const limited = limitedToSizes(buffers, open);
    const { plan } = planAuto(limited, lowerBoundOfBuffers(limited));
    verifyPlan(limited, plan);
    for (const [name, end] of poolSizesOfPlan(limited, plan)) expect(end).toBeLessThanOrEqual(open.get(name)!);
  });
});

describe('several pools, each limited to its size in the plan auto makes without limits', () => {
  // Fuzzed (fz30's metalim mode): 80 buffers in three pools with alignments, every pool then
  // limited to its size in auto's own plan. No greedy start, order search or choice of pools by
  // live bytes fitted, nor any plan with one pool's limit lifted; with every limit lifted at
  // once, auto's own plan comes back.
  const file = path.join(__dirname, 'fixtures', 'threePoolsOwnPlan.json');
  const open = parseBufferSet(fs.readFileSync(file, 'utf8'), file);

  it('plans them within every limit', () => {
    const sizes = poolSizesOfPlan(open.buffers, planAuto(open.buffers, 0).plan);
    const limited = limitedToSizes(open.buffers, sizes);
    const { plan } = planAuto(limited, 0);
    verifyPlan(limited, plan);
    for (const [name, end] of poolSizesOfPlan(limited, plan)) expect(end).toBeLessThanOrEqual(sizes.get(name)!);
  });
});

describe('several pools limited to their sizes in the plan without limits, read as uma-ts plan reads them', () => {
  // Fuzzed (fz30's metalim mode): 41 buffers (five of zero size) in three pools, conflict lists
  // that differ from the live ranges, every pool limited to its size in the plan `uma-ts plan`
  // makes of the same file without limits. The JSON set's memoryPressure is its lower bound
  // with the limits (527 bytes; 412 without them), and the call with every limit lifted, given
  // that figure as its target, stopped at another plan, past the 1-byte pool's limit.
  const file = path.join(__dirname, 'fixtures', 'threePoolsListsOwnPlan.json');
  const text = fs.readFileSync(file, 'utf8');

  it('plans within every limit', () => {
    const limited = parseBufferSet(text, file);
    const doc = JSON.parse(text) as { pools: { sizeHintBytes?: number }[] };
    doc.pools.forEach((p) => delete p.sizeHintBytes);
    const open = planBufferSet(parseBufferSet(JSON.stringify(doc), file), 'auto');
    for (const p of limited.pools) expect(open.pools.find((q) => q.name === p.name)!.size).toBe(p.sizeHintBytes);
    const report = planBufferSet(limited, 'auto');
    for (const p of report.pools) expect(p.size).toBeLessThanOrEqual(limited.pools.find((q) => q.name === p.name)!.sizeHintBytes!);
  });
});
