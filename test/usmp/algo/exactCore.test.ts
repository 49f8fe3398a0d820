import { planAuto } from '../../../src/usmp/algo/auto';
import { ExactCore } from '../../../src/usmp/algo/exactCore';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { intervalsToBufferInfos, LiveInterval, memoryPressureOfIntervals } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { pool } from './helpers';
import { pushDown } from '../../../src/usmp/algo/pushDown';
import { mediumLifetimes, randomIntervals } from '../../../bench/generators';
import { IntervalConflicts } from '../../../src/usmp/intervalConflicts';

function randomSet(seed: number, count: number): LiveInterval[] {
  const r = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = Math.floor(r() * 5);
    // Mixed alignments make the live-bytes bound unreachable on some sets.
    const alignment = [1, 1, 2, 4][Math.floor(r() * 4)];
    return { sizeBytes: 1 + Math.floor(r() * 9), firstUse: first, lastUse: first + Math.floor(r() * 3), alignment };
  });
}

const overlaps = (a: LiveInterval, b: LiveInterval) => a.firstUse <= b.lastUse && b.firstUse <= a.lastUse;

/**
 * The optimum by brute force over every canonical solution: each buffer, in every order, at 0
 * (or its floor) or on top of any earlier placed conflicting buffer (rounded up to its
 * alignment, not below its floor), where it overlaps none.
 */
function bruteForceOptimum(ivs: LiveInterval[], floors?: number[]): number {
  let best = Infinity;
  const offset = new Array<number>(ivs.length).fill(-1);
  const rec = (placed: number, top: number) => {
    if (top >= best) return;
    if (placed === ivs.length) {
      best = top;
      return;
    }
    for (let b = 0; b < ivs.length; b++) {
      if (offset[b] >= 0) continue;
      const floor = floors?.[b] ?? 0;
      const spots = new Set([floor]);
      ivs.forEach((o, j) => {
        const a = ivs[b].alignment ?? 1;
        const on = Math.ceil((offset[j] + o.sizeBytes) / a) * a;
        if (offset[j] >= 0 && overlaps(o, ivs[b]) && on >= floor) spots.add(on);
      });
      for (const at of spots) {
        const clash = ivs.some((o, j) => offset[j] >= 0 && overlaps(o, ivs[b]) && offset[j] < at + ivs[b].sizeBytes && at < offset[j] + o.sizeBytes);
        if (clash) continue;
        offset[b] = at;
        rec(placed + 1, Math.max(top, at + ivs[b].sizeBytes));
        offset[b] = -1;
      }
    }
  };
  rec(0, 0);
  return best;
}

function coreOf(ivs: LiveInterval[], floors?: number[]) {
  const buffers = intervalsToBufferInfos(ivs, [pool('ws')]);
  const p = indexProblem(buffers);
  const core = new ExactCore({ count: p.count, sizes: p.sizes, alignments: p.alignments, intervals: p.intervals!, floors: floors && Float64Array.from(floors) });
  return { buffers, core };
}

describe('exact core', () => {
  test('decides exactly: the brute-force optimum fits, one byte less is proven infeasible', () => {
    let aboveBound = 0;
    for (let seed = 1; seed <= 80; seed++) {
      const ivs = randomSet(seed, 6);
      const optimum = bruteForceOptimum(ivs);
      if (optimum > memoryPressureOfIntervals(ivs)) aboveBound++;
      const { buffers, core } = coreOf(ivs);
      const fits = core.decide(optimum, 1e9);
      expect(fits.kind).toBe('fits');
      if (fits.kind !== 'fits') continue;
      expect(fits.total).toBeLessThanOrEqual(optimum);
      const plan = new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }]));
      verifyPlan(buffers, plan);
      expect(core.decide(optimum - 1, 1e9).kind).toBe('infeasible');
    }
    // The sample must contain sets whose optimum is above the live-bytes bound.
    expect(aboveBound).toBeGreaterThan(0);
  });

  test('decides exactly over floors: every buffer at or above its own lowest offset', () => {
    let raised = 0;
    for (let seed = 301; seed <= 380; seed++) {
      const r = seededRandom(seed);
      const ivs = randomSet(seed, 6);
      const floors = ivs.map((iv) => {
        const a = iv.alignment ?? 1;
        return r() < 0.4 ? 0 : Math.ceil(Math.floor(r() * 14) / a) * a;
      });
      const optimum = bruteForceOptimum(ivs, floors);
      if (optimum > bruteForceOptimum(ivs)) raised++;
      const { buffers, core } = coreOf(ivs, floors);
      const fits = core.decide(optimum, 1e9);
      expect(fits.kind).toBe('fits');
      if (fits.kind !== 'fits') continue;
      expect(fits.total).toBeLessThanOrEqual(optimum);
      fits.offsets.forEach((o, b) => expect(o).toBeGreaterThanOrEqual(floors[b]));
      verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }])));
      expect(core.decide(optimum - 1, 1e9).kind).toBe('infeasible');
    }
    // The floors must bind on many sets.
    expect(raised).toBeGreaterThan(20);
    // Two buffers live together, both held at 6 or above: 6 + 4 + 4 = 14, whatever the order.
    const { core } = coreOf(
      [
        { sizeBytes: 4, firstUse: 0, lastUse: 2 },
        { sizeBytes: 4, firstUse: 1, lastUse: 3 },
        { sizeBytes: 5, firstUse: 3, lastUse: 4 },
      ],
      [6, 6, 0],
    );
    expect(core.decide(13, 1e9).kind).toBe('infeasible');
    const fits = core.decide(14, 1e9);
    expect(fits.kind === 'fits' && [...fits.offsets.subarray(0, 2)].sort((x, y) => x - y)).toEqual([6, 10]);
  });

  test('decides exactly with zero-size buffers and larger alignments among them', () => {
    for (let seed = 101; seed <= 140; seed++) {
      const r = seededRandom(seed);
      const ivs = randomSet(seed, 6).map((iv) => ({
        ...iv,
        sizeBytes: r() < 0.2 ? 0 : iv.sizeBytes,
        alignment: r() < 0.2 ? 8 : iv.alignment,
      }));
      const optimum = bruteForceOptimum(ivs);
      const { buffers, core } = coreOf(ivs);
      const fits = core.decide(optimum, 1e9);
      expect(fits.kind).toBe('fits');
      if (fits.kind !== 'fits') continue;
      verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }])));
      if (optimum > 0) expect(core.decide(optimum - 1, 1e9).kind).toBe('infeasible');
    }
  });

  test('granularity: every optimum is a multiple of it, and so is every plan the core finds', () => {
    const granularOf = (sizes: number[], alignments: number[]) =>
      new ExactCore({
        count: sizes.length,
        sizes: Float64Array.from(sizes),
        alignments: Float64Array.from(alignments),
        intervals: new IntervalConflicts(new Float64Array(sizes.length), new Float64Array(sizes.length)),
      }).granularity();
    // Sizes in KiB, alignments that divide them: offsets stay in KiB.
    expect(granularOf([1024, 3072, 2048], [1, 16, 1024])).toBe(1024);
    // An alignment above the sizes' gcd keeps it when it is a multiple of it...
    expect(granularOf([1024, 3072], [4096, 1])).toBe(1024);
    // ... else the step shrinks until every alignment divides it or is a multiple of it.
    expect(granularOf([6, 12], [4, 1])).toBe(2);
    expect(granularOf([12, 24], [4, 9])).toBe(1);
    let coarse = 0;
    for (let seed = 201; seed <= 260; seed++) {
      const r = seededRandom(seed);
      const unit = [1, 2, 3, 4, 6][Math.floor(r() * 5)];
      const ivs = randomSet(seed, 6).map((iv) => ({ ...iv, sizeBytes: iv.sizeBytes * unit, alignment: [1, 2, 4, 8][Math.floor(r() * 4)] }));
      const { core } = coreOf(ivs);
      const g = core.granularity();
      if (g > 1) coarse++;
      const optimum = bruteForceOptimum(ivs);
      expect(optimum % g).toBe(0);
      const fits = core.decide(optimum + 2 * g, 1e9);
      expect(fits.kind).toBe('fits');
      if (fits.kind === 'fits') expect(fits.total % g).toBe(0);
    }
    expect(coarse).toBeGreaterThan(10);
  });

  test('auto proves optimality above the bound, or reports the gap', () => {
    let provenAbove = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const ivs = randomSet(seed, 6);
      const optimum = bruteForceOptimum(ivs);
      const bound = memoryPressureOfIntervals(ivs);
      const buffers = intervalsToBufferInfos(ivs, [pool('ws')]);
      const { plan, stats } = planAuto(buffers, bound);
      verifyPlan(buffers, plan);
      expect(poolSizesOfPlan(buffers, plan).get('ws')).toBe(stats.finalTotal);
      expect(stats.finalTotal).toBe(optimum);
      expect(stats.provenOptimal).toBe(true);
      expect(stats.provenLowerBound).toBe(optimum);
      if (optimum > bound) provenAbove++;
    }
    expect(provenAbove).toBeGreaterThan(0);
  });

  test('a budget too small to decide answers unknown, never a wrong proof', () => {
    const r = seededRandom(5);
    const ivs = Array.from({ length: 300 }, () => {
      const first = Math.floor(r() * 100);
      return { sizeBytes: 16 * (1 + Math.floor(r() * 50)), firstUse: first, lastUse: first + Math.floor(r() * 20) };
    });
    const { core } = coreOf(ivs);
    expect(core.decide(memoryPressureOfIntervals(ivs), 1000).kind).toBe('unknown');
  });

  test('decides exactly when no alignment is 1 and sizes are not multiples of them (stacked sections)', () => {
    let padded = 0;
    for (let seed = 401; seed <= 470; seed++) {
      const r = seededRandom(seed);
      const ivs = randomSet(seed, 6).map((iv) => ({ ...iv, alignment: [2, 4, 4, 8][Math.floor(r() * 4)] }));
      const floors = seed % 2 === 0 ? ivs.map((iv) => (r() < 0.5 ? 0 : iv.alignment * Math.floor(r() * 3))) : undefined;
      const optimum = bruteForceOptimum(ivs, floors);
      if (ivs.some((iv) => iv.sizeBytes % 2 !== 0)) padded++;
      const { buffers, core } = coreOf(ivs, floors);
      const fits = core.decide(optimum, 1e9);
      expect(fits.kind).toBe('fits');
      if (fits.kind !== 'fits') continue;
      verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }])));
      expect(core.decide(optimum - 1, 1e9).kind).toBe('infeasible');
    }
    expect(padded).toBeGreaterThan(30);
  });

  test('a section counts the padding between stacked buffers, not their bare bytes', () => {
    // Twelve 17-byte buffers live together in a 16-byte pool: eleven take 32 bytes each, the top
    // one 17, so 369. Below that, bare bytes (204) leave the search 12! orders to exhaust; the
    // stacked height ends it at once.
    const ivs = Array.from({ length: 12 }, () => ({ sizeBytes: 17, firstUse: 0, lastUse: 0, alignment: 16 }));
    const { core } = coreOf(ivs);
    expect(core.decide(368, 100_000).kind).toBe('infeasible');
    expect(core.decide(369, 100_000).kind).toBe('fits');
  });

  test('a section counts what its unplaced buffers save on top, not what a placed one saved', () => {
    // In a 16-byte pool, a 33-byte buffer saves 15 bytes on top (48 stacked) and eleven 18-byte
    // ones save 14 (32 stacked): the 33-byte one must go on top, at 352, ending at 385. Every
    // preorder places it first (largest, lowest index); at 0 the rest need 11 * 32 - 14 = 338
    // above it, 386 in all. Counting the 15 bytes it no longer saves, the search tried the
    // eleven others' 11! orders under it before moving it.
    const ivs = [{ sizeBytes: 33, firstUse: 0, lastUse: 0, alignment: 16 }];
    for (let k = 0; k < 11; k++) ivs.push({ sizeBytes: 18, firstUse: 0, lastUse: 0, alignment: 16 });
    const { buffers, core } = coreOf(ivs);
    const fits = core.decide(385, 100_000);
    expect(fits.kind).toBe('fits');
    if (fits.kind !== 'fits') return;
    expect(fits.offsets[0]).toBe(352);
    verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }])));
    expect(core.decide(384, 100_000).kind).toBe('infeasible');
  });

  test('honours alignment: offsets are multiples of each buffer alignment', () => {
    const ivs = randomSet(9, 6).map((iv, i) => ({ ...iv, alignment: i % 2 === 0 ? 8 : 1 }));
    const { buffers, core } = coreOf(ivs);
    const r = core.decide(1000, 1e9);
    expect(r.kind).toBe('fits');
    if (r.kind === 'fits') buffers.forEach((b, i) => expect(r.offsets[i] % b.alignment).toBe(0));
  });

  test('at the bound, the late runs vary the preorders whose dynamic runs dive deepest', () => {
    // A uniform 2,000-buffer set (not among the held-out ones) whose bound the runs over the six
    // preorders in turn missed within 200M units; with the late runs dynamic and varying A and
    // W-A-T (BOUND_VARIED), the first late run (the ninth) packs it there, at 38.8M.
    const set = randomIntervals(173);
    const ivs: LiveInterval[] = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const bound = memoryPressureOfIntervals(ivs);
    const { buffers, core } = coreOf(ivs);
    const fits = core.decide(bound, 45_000_000);
    expect(fits.kind).toBe('fits');
    if (fits.kind !== 'fits') return;
    expect(fits.total).toBe(bound);
    verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: fits.offsets[i] }])));
  });

  test('a bound decision that ran out of work resumes with the same runs where it stopped', () => {
    // Uniform 173 (above): its bound's fit is the ninth run's, at 38.8M units. Stopped at 20M, the
    // decision goes on from its next run with its random factors and packs the set at the bound as
    // the whole decision does, in the same offsets.
    const set = randomIntervals(173);
    const ivs: LiveInterval[] = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const bound = memoryPressureOfIntervals(ivs);
    const { buffers, core } = coreOf(ivs);
    expect(core.decide(bound, 20_000_000).kind).toBe('unknown');
    // Only the decision at that capacity resumes, and a probe above it (slack) leaves it paused.
    expect(core.resumeDecision(bound + 16, 30_000_000).kind).toBe('unknown');
    const before = core.work;
    expect(core.decide(bound + 4096, 1_000_000, { slack: true }).kind).not.toBe('infeasible');
    expect(core.work).toBeGreaterThan(before);
    const resumed = core.resumeDecision(bound, 30_000_000);
    expect(resumed.kind).toBe('fits');
    if (resumed.kind !== 'fits') return;
    expect(resumed.total).toBe(bound);
    verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: resumed.offsets[i] }])));
    // Ended: nothing left to resume.
    expect(core.resumeDecision(bound, 30_000_000).kind).toBe('unknown');
    const whole = coreOf(ivs).core.decide(bound, 45_000_000);
    expect(whole.kind).toBe('fits');
    if (whole.kind === 'fits') expect(Array.from(resumed.offsets)).toEqual(Array.from(whole.offsets));
  });
});

describe('spatial greedy dives', () => {
  test('never fail: every preorder, fixed or varied, gives a valid plan at or above the bound', () => {
    const r = seededRandom(21);
    const ivs = Array.from({ length: 250 }, () => {
      const first = Math.floor(r() * 80);
      return { sizeBytes: 16 * (1 + Math.floor(r() * 64)), firstUse: first, lastUse: first + Math.floor(r() * r() * 40), alignment: 16 };
    });
    const { buffers, core } = coreOf(ivs);
    const bound = memoryPressureOfIntervals(ivs);
    const totals = new Set<number>();
    for (let preorder = 0; preorder < 10; preorder++) {
      const dive = core.greedyDive(preorder);
      const plan = new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: dive.offsets[i] }]));
      verifyPlan(buffers, plan);
      expect(dive.total).toBe(Math.max(...buffers.map((b, i) => dive.offsets[i] + b.sizeBytes)));
      expect(dive.total).toBeGreaterThanOrEqual(bound);
      totals.add(dive.total);
    }
    // The preorders are different dives, not one plan ten times.
    expect(totals.size).toBeGreaterThan(1);
  });

  // A dive over one alignment raises conflicts with one rounded offset; over several it rounds
  // per conflict: both give valid plans with every offset on its buffer's alignment.
  test('over one alignment and over several: valid plans, every offset aligned', () => {
    for (const alignments of [[64], [1, 4, 16, 64]]) {
      const r = seededRandom(alignments.length);
      const ivs = Array.from({ length: 300 }, () => {
        const first = Math.floor(r() * 80);
        const alignment = alignments[Math.floor(r() * alignments.length)];
        return { sizeBytes: 1 + Math.floor(r() * 5000), firstUse: first, lastUse: first + Math.floor(r() * 60), alignment };
      });
      const { buffers, core } = coreOf(ivs);
      for (let preorder = 0; preorder < 4; preorder++) {
        for (const tolerance of [0, 256]) {
          const dive = core.greedyDive(preorder, tolerance);
          verifyPlan(buffers, new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: dive.offsets[i] }])));
          buffers.forEach((b, i) => expect(dive.offsets[i] % ivs[i].alignment).toBe(0));
          expect(dive.total).toBe(Math.max(...buffers.map((b, i) => dive.offsets[i] + b.sizeBytes)));
        }
      }
    }
  });

  test('with a tolerance: valid aligned plans (not canonical), other dives than the plain ones, the same on every call', () => {
    const r = seededRandom(34);
    const ivs = Array.from({ length: 300 }, () => {
      const first = Math.floor(r() * 60);
      return { sizeBytes: 16 * (1 + Math.floor(2 ** (r() * 8))), firstUse: first, lastUse: first + Math.floor(r() * r() * 50), alignment: 16 };
    });
    const { buffers, core } = coreOf(ivs);
    const again = coreOf(ivs).core;
    const bound = memoryPressureOfIntervals(ivs);
    let differs = false;
    for (let preorder = 0; preorder < 6; preorder++) {
      const plain = core.greedyDive(preorder);
      const tolerant = core.greedyDive(preorder, 128);
      const plan = new Map(buffers.map((b, i) => [b.name, { pool: 'ws', offset: tolerant.offsets[i] }]));
      verifyPlan(buffers, plan);
      buffers.forEach((b, i) => expect(tolerant.offsets[i] % 16).toBe(0));
      expect(tolerant.total).toBe(Math.max(...buffers.map((b, i) => tolerant.offsets[i] + b.sizeBytes)));
      expect(tolerant.total).toBeGreaterThanOrEqual(bound);
      if (plain.offsets.some((o, i) => o !== tolerant.offsets[i])) differs = true;
      // A zero tolerance is the plain dive.
      expect(Array.from(again.greedyDive(preorder, 0).offsets)).toEqual(Array.from(plain.offsets));
      expect(Array.from(again.greedyDive(preorder, 128).offsets)).toEqual(Array.from(tolerant.offsets));
    }
    expect(differs).toBe(true);
  });

  test('with a total to beat: the same dive when it ends below it, stopped early (total Infinity) when it cannot', () => {
    const r = seededRandom(35);
    const ivs = Array.from({ length: 300 }, () => {
      const first = Math.floor(r() * 60);
      return { sizeBytes: 16 * (1 + Math.floor(2 ** (r() * 8))), firstUse: first, lastUse: first + Math.floor(r() * r() * 50), alignment: 16 };
    });
    const { core } = coreOf(ivs);
    const workOf = (dive: () => { total: number }) => {
      const before = core.work;
      const { total } = dive();
      return { total, work: core.work - before };
    };
    let stoppedEarly = 0;
    for (let preorder = 0; preorder < 6; preorder++) {
      for (const tolerance of [0, 128]) {
        const full = core.greedyDive(preorder, tolerance);
        // Just above its total: the dive runs to the end and is the same plan.
        const kept = core.greedyDive(preorder, tolerance, full.total + 1);
        expect(kept.total).toBe(full.total);
        expect(Array.from(kept.offsets)).toEqual(Array.from(full.offsets));
        // (The preorder's ranks are built by now: the work below is the dives' own.)
        const whole = workOf(() => core.greedyDive(preorder, tolerance));
        // At its total it cannot end below: it stops, at the latest where it would have ended.
        const atTotal = workOf(() => core.greedyDive(preorder, tolerance, full.total));
        expect(atTotal.total).toBe(Infinity);
        expect(atTotal.work).toBeLessThanOrEqual(whole.work);
        // Well below its total the test fires long before the last placement.
        const below = workOf(() => core.greedyDive(preorder, tolerance, Math.floor(full.total * 0.95)));
        expect(below.total).toBe(Infinity);
        if (below.work < whole.work / 2) stoppedEarly++;
      }
    }
    expect(stoppedEarly).toBeGreaterThan(6);
  });
});

describe('auto on dense sets (long lifetimes)', () => {
  test('no local search, a valid plan no larger than the greedy start (TFLM order), the same on every run', () => {
    const r = seededRandom(8);
    // 400 buffers over 100 operators living up to 80 of them: several hundred conflicts each.
    const ivs = Array.from({ length: 400 }, () => {
      const first = Math.floor(r() * 100);
      return { sizeBytes: 16 * (1 + Math.floor(2 ** (r() * 10))), firstUse: first, lastUse: Math.min(99, first + 20 + Math.floor(r() * 60)), alignment: 16 };
    });
    const buffers = intervalsToBufferInfos(ivs, [pool('ws', undefined, 16)]);
    const bound = memoryPressureOfIntervals(ivs);
    const a = planAuto(buffers, bound);
    const b = planAuto(buffers, bound);
    verifyPlan(buffers, a.plan);
    expect(a.stats.iterations).toBe(0);
    expect(a.stats.initialOrder).toBe('tflm size/first-fit');
    expect(a.stats.finalTotal).toBeLessThanOrEqual(a.stats.initialTotal);
    expect(poolSizesOfPlan(buffers, a.plan).get('ws')).toBe(a.stats.finalTotal);
    expect([...b.plan]).toEqual([...a.plan]);
    // The core's dives and descent did the work: strictly better than the greedy start here.
    expect(a.stats.finalTotal).toBeLessThan(a.stats.initialTotal);
    expect(a.stats.strategy).toBe('exact core');
  });

  test('the plan comes pushed down: no gap a tolerant dive left is kept that a buffer above could fill', () => {
    // A bench-style medium-lifetimes set (500 buffers, lifetimes up to 160 of 200 operators)
    // whose best plan is above the bound (seed 20 was, until dense sets got more mirrored rounds).
    const ivs = mediumLifetimes(23, 500, 200).intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const buffers = intervalsToBufferInfos(ivs, [pool('ws', undefined, 16)]);
    const { plan, stats } = planAuto(buffers, memoryPressureOfIntervals(ivs));
    verifyPlan(buffers, plan);
    expect(stats.provenOptimal).toBe(false);
    const index = new Map(buffers.map((b, i) => [b.name, i]));
    const rows = buffers.map((b) => b.conflicts.map((c) => index.get(c)!));
    const adjStart = new Int32Array(buffers.length + 1);
    rows.forEach((row, i) => (adjStart[i + 1] = adjStart[i] + row.length));
    const offsets = Float64Array.from(buffers, (b) => plan.get(b.name)!.offset);
    const again = pushDown(
      { sizes: Float64Array.from(ivs, (iv) => iv.sizeBytes), alignments: new Float64Array(ivs.length).fill(16), adjStart, adj: Int32Array.from(rows.flat()) },
      offsets,
    );
    expect(again.total).toBe(stats.finalTotal);
  });
});

describe('auto with pins', () => {
  test('a pinned buffer gets its only pool even where free buffers would fill it first', () => {
    const sram = pool('sram', 100);
    const dram = pool('dram');
    const buffers = [
      { name: 'big', sizeBytes: 100, alignment: 1, poolCandidates: [sram, dram], conflicts: ['pinned'], kind: 'workspace' as const, liveRange: [0, 1] as const },
      { name: 'pinned', sizeBytes: 10, alignment: 1, poolCandidates: [sram], conflicts: ['big'], kind: 'workspace' as const, liveRange: [1, 2] as const },
    ];
    const { plan } = planAuto(buffers, 0);
    verifyPlan(buffers, plan);
    expect(plan.get('pinned')!.pool).toBe('sram');
  });
});
