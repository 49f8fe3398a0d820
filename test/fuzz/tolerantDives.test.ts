/**
 * The exact core's tolerant dives (ExactCore.greedyDive with a tolerance: auto's dense-set dives
 * and the sparse sets' final dives, coreSteps.ts) are not canonical plans, so nothing in the
 * search's own invariants vouches for them. Random interval sets (odd sizes, sizes near 2^47,
 * buffer and pool alignments 1..256, repeated intervals, one-operator and long lifetimes) dive
 * with tolerances from 0 to beyond every size; each plan is checked here independently: every
 * buffer placed at a multiple of its alignment in the pool, overlapping buffers apart, the total
 * the top, no smaller than the live-bytes bound, and the same offsets from a second core.
 */
import fc from 'fast-check';
import { finalTolerantDives, SPARSE_FINAL_PREORDERS, SPARSE_FINAL_TOLERANCES } from '../../src/usmp/algo/coreSteps';
import { ExactCore } from '../../src/usmp/algo/exactCore';
import { alignmentInPool, indexProblem } from '../../src/usmp/algo/indexed';
import { intervalsToBufferInfos, LiveInterval, memoryPressureOfIntervals } from '../../src/usmp/conflicts';
import { PoolInfo } from '../../src/usmp/types';
import { verifyPlan } from '../../src/usmp/verify';
import { FUZZ_SEED } from './harness';

const ALIGNS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

const intervalSet = fc
  .record({
    poolAlignment: fc.constantFrom(...ALIGNS),
    ops: fc.integer({ min: 1, max: 30 }),
    huge: fc.boolean(),
    specs: fc.array(
      fc.record({
        size: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 4000 }) }, { weight: 1, arbitrary: fc.constantFrom(1, 3, 7, 255, 257, 4097) }),
        alignment: fc.constantFrom(...ALIGNS),
        first: fc.nat(29),
        length: fc.oneof(fc.nat(3), fc.nat(29)),
        repeat: fc.boolean(),
      }),
      { minLength: 1, maxLength: 40 },
    ),
  })
  .map(({ poolAlignment, ops, huge, specs }) => {
    const ivs: LiveInterval[] = [];
    specs.forEach((s, i) => {
      const firstUse = s.first % ops;
      // Sizes near 2^47: a few of them stack past 2^53 only if the offsets are wrong.
      const sizeBytes = huge && i % 4 === 0 ? 2 ** 47 + s.size : s.size;
      const iv = { sizeBytes, firstUse, lastUse: Math.min(ops - 1, firstUse + s.length), alignment: s.alignment };
      ivs.push(iv);
      if (s.repeat) ivs.push({ ...iv });
    });
    return { poolAlignment, ivs };
  });

/** Throws naming the first problem of `offsets` as a plan of `ivs`. */
function checkDive(ivs: readonly LiveInterval[], poolAlignment: number, offsets: Float64Array, total: number): void {
  let top = 0;
  ivs.forEach((a, i) => {
    const align = ((a.alignment ?? 1) * poolAlignment) / gcd(a.alignment ?? 1, poolAlignment);
    const o = offsets[i];
    if (!Number.isSafeInteger(o) || o < 0 || o % align !== 0) throw new Error(`buffer ${i} at ${o}, alignment ${align}`);
    top = Math.max(top, o + a.sizeBytes);
    ivs.forEach((b, j) => {
      if (j <= i || a.lastUse < b.firstUse || b.lastUse < a.firstUse) return;
      if (o < offsets[j] + b.sizeBytes && offsets[j] < o + a.sizeBytes) throw new Error(`buffers ${i} and ${j} overlap`);
    });
  });
  if (top !== total) throw new Error(`total ${total}, top ${top}`);
}

function coreOf(ivs: readonly LiveInterval[], ws: PoolInfo) {
  const buffers = intervalsToBufferInfos(ivs, [ws]);
  const p = indexProblem(buffers);
  // As auto builds it: each buffer's alignment in the pool.
  const alignments = Float64Array.from({ length: p.count }, (_, b) => alignmentInPool(p, b, 0));
  return { buffers, core: new ExactCore({ count: p.count, sizes: p.sizes, alignments, intervals: p.intervals! }) };
}

describe('tolerant dives of the exact core', () => {
  it('give valid plans at or above the bound, the same from a second core, whatever the tolerance', () => {
    fc.assert(
      fc.property(intervalSet, fc.array(fc.constantFrom(0, 1 / 64, 1 / 16, 1 / 4, 1, 4, Infinity), { minLength: 1, maxLength: 3 }), fc.nat(7), ({ poolAlignment, ivs }, shares, preorder) => {
        const ws: PoolInfo = { name: 'ws', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: poolAlignment, internal: true };
        const { buffers, core } = coreOf(ivs, ws);
        const again = coreOf(ivs, ws).core;
        const bound = memoryPressureOfIntervals(ivs);
        for (const share of shares) {
          const tolerance = core.meanSize() * share;
          const dive = core.greedyDive(preorder, tolerance);
          checkDive(ivs, poolAlignment, dive.offsets, dive.total);
          verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: dive.offsets[i] }])));
          expect(dive.total).toBeGreaterThanOrEqual(bound);
          expect(Array.from(again.greedyDive(preorder, tolerance).offsets)).toEqual(Array.from(dive.offsets));
        }
      }),
      { seed: FUZZ_SEED + 40, numRuns: 300 },
    );
  });

  it("a sparse set's final dives: the smallest of them when below the plan handed in, valid, none past the deadline or the work limit", () => {
    fc.assert(
      fc.property(intervalSet, fc.double({ min: 0, max: 1.5, noNaN: true }), ({ poolAlignment, ivs }, above) => {
        const ws: PoolInfo = { name: 'ws', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: poolAlignment, internal: true };
        const { core } = coreOf(ivs, ws);
        const { core: reference } = coreOf(ivs, ws);
        // The dives the step runs: the first preorders, each with every tolerance.
        const dives = Array.from({ length: SPARSE_FINAL_PREORDERS }, (_, p) => p).flatMap((p) =>
          SPARSE_FINAL_TOLERANCES.map((t) => reference.greedyDive(p, reference.meanSize() * t)),
        );
        const smallest = Math.min(...dives.map((d) => d.total));
        // A plan handed in somewhere around the dives' totals.
        const best = Math.round(smallest * above);
        const found = finalTolerantDives(core, best, Infinity);
        if (smallest < best) {
          expect(found?.total).toBe(smallest);
          checkDive(ivs, poolAlignment, found!.offsets, found!.total);
        } else {
          expect(found).toBeUndefined();
        }
        expect(finalTolerantDives(coreOf(ivs, ws).core, Infinity, -Infinity)).toBeUndefined();
        // Past its work limit no dive starts: with a limit of one unit, the first dive alone.
        const first = finalTolerantDives(coreOf(ivs, ws).core, best, Infinity, 1);
        expect(first?.total).toBe(dives[0].total < best ? dives[0].total : undefined);
      }),
      { seed: FUZZ_SEED + 43, numRuns: 200 },
    );
  });
});
