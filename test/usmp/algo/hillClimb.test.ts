import { GlibcRandR } from '../../../src/usmp/algo/glibcRand';
import { hillClimb, hillClimbAttempts } from '../../../src/usmp/algo/hillClimb';
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { greedyBySize } from '../../../src/usmp/algo/tvmGreedy';
import { MemoryPlanningError } from '../../../src/errors';
import { verifyPlan } from '../../../src/usmp/verify';
import { buffers, offsets, pool } from './helpers';
import { intervalsToBufferInfos } from '../../../src/usmp/conflicts';
import { randomIntervals } from '../../../bench/generators';

const benchIntervals = (seed: number) =>
  randomIntervals(seed, 200, 80).intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last }));

describe('glibc rand_r', () => {
  test('matches glibc for seed 0 (values printed by a C program calling rand_r)', () => {
    const r = new GlibcRandR(0);
    expect([r.next(), r.next(), r.next(), r.next(), r.next()]).toEqual([
      1012484, 1716955679, 1792309082, 229610924, 1639479903,
    ]);
    expect(new GlibcRandR(12345).next()).toBe(1036784229);
  });
});

describe('hill_climb', () => {
  // Y [0,60), X above Y; Z only conflicts with X and fits in the gap under X.
  const gap = () =>
    buffers({
      Y: { size: 60, conflicts: ['X'] },
      X: { size: 50, conflicts: ['Y', 'Z'] },
      Z: { size: 40, conflicts: ['X'] },
    });

  test('first-fit pass uses the gap below a conflict (greedy_by_size does not)', () => {
    const bufs = gap();
    expect(greedyBySize(bufs, 0).get('Z')!.offset).toBe(110);
    const plan = hillClimb(bufs, 110);
    verifyPlan(bufs, plan);
    expect(offsets(plan)).toEqual({ Y: 0, X: 60, Z: 0 });
  });

  test('a time budget ends the attempts early, keeping the plan so far (0: the first attempt only)', () => {
    const bufs = intervalsToBufferInfos(benchIntervals(3), [pool('ws')]);
    const total = (plan: ReturnType<typeof hillClimb>) => Math.max(...bufs.map((b) => plan.get(b.name)!.offset + b.sizeBytes));
    const first = hillClimb(bufs, 0, { timeBudgetMs: 0 });
    const climbed = hillClimb(bufs, 0);
    verifyPlan(bufs, first);
    verifyPlan(bufs, climbed);
    expect(total(climbed)).toBeLessThan(total(first));
  });

  test('refuses interval sets whose conflict lists would not fit in memory, naming the other planners', () => {
    // 8,000 buffers all live at once: 64M conflict entries.
    const all = Array.from({ length: 8000 }, () => ({ sizeBytes: 16, firstUse: 0, lastUse: 1 }));
    expect(() => hillClimb(intervalsToBufferInfos(all, [pool('ws')]), 0)).toThrow(/conflict entries .*plan it with auto or greedy_by_size/);
  });

  test('is deterministic (fixed rand_r seed)', () => {
    const bufs = buffers({
      a: { size: 30, conflicts: ['b', 'c'] },
      b: { size: 20, conflicts: ['a', 'c', 'd'] },
      c: { size: 25, conflicts: ['a', 'b', 'd'] },
      d: { size: 40, conflicts: ['b', 'c', 'e'] },
      e: { size: 10, conflicts: ['d'] },
    });
    expect([...hillClimb(bufs, 0)]).toEqual([...hillClimb(bufs, 0)]);
  });

  test('pools: falls back on size hints and reports overflow with TVM\'s message', () => {
    const fast = pool('fast', 100);
    const slow = pool('slow');
    const bufs = buffers({ A: { size: 80, conflicts: ['B'] }, B: { size: 40, conflicts: ['A'] } }, [fast, slow]);
    const plan = hillClimb(bufs, 0);
    verifyPlan(bufs, plan);
    expect(plan.get('A')).toEqual({ pool: 'fast', offset: 0 });
    expect(plan.get('B')).toEqual({ pool: 'slow', offset: 0 });

    const only = buffers({ A: { size: 80, conflicts: ['B'] }, B: { size: 40, conflicts: ['A'] } }, [fast]);
    expect(() => hillClimb(only, 0)).toThrow(MemoryPlanningError);
    expect(() => hillClimb(only, 0)).toThrow('the space available in the provided pools exceeded when trying to allocate the buffer: B');
  });

  test('a buffer larger than every pool it may use is named at once, before any attempt', () => {
    const small = pool('sram', 100);
    const bufs = buffers({ big_tensor: { size: 1000, conflicts: [] } }, [small]);
    expect(() => hillClimb(bufs, 0)).toThrow('the space available in the provided pools exceeded when trying to allocate the buffer: big_tensor');
    // Among many that fit (the search used to run to its clock cap first, then name none).
    const many: Record<string, { size: number; conflicts: string[] }> = {};
    for (let i = 0; i < 300; i++) many[`b${i}`] = { size: 1 + (i % 7), conflicts: [`b${(i + 1) % 300}`, `b${(i + 299) % 300}`] };
    many.too_big = { size: 1000, conflicts: [] };
    expect(() => hillClimb(buffers(many, [small]), 0)).toThrow(/allocate the buffer: too_big$/);
  });
});

describe('hill_climb without a time budget', () => {
  const set = randomIntervals(3, 150, 60);
  const bufs = intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last })),
    [pool('ws')],
  );
  const total = (plan: ReturnType<typeof hillClimb>) => Math.max(...bufs.map((b) => plan.get(b.name)!.offset + b.sizeBytes));

  test('gives the same plan on a machine slow enough that a 10 s clock would have cut its attempts', () => {
    const plan = hillClimb(bufs, 0, {});
    verifyPlan(bufs, plan);
    // A clock that moves an hour each time it is read: every clock-bound attempt loop stops after one.
    let now = 0;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => (now += 3_600_000));
    try {
      const slow = hillClimb(bufs, 0, {});
      expect([...slow]).toEqual([...plan]);
      // What the clock would have cut: with a time budget the attempts do stop at it, and the
      // first attempt's plan is larger here.
      expect(total(hillClimb(bufs, 0, { timeBudgetMs: 10_000 }))).toBeGreaterThan(total(plan));
    } finally {
      clock.mockRestore();
    }
  });
});

describe('hill_climb without a time budget: attempts by work', () => {
  const chain = (n: number, width: number) =>
    indexProblem(intervalsToBufferInfos(Array.from({ length: n }, (_, i) => ({ sizeBytes: 1 + (i % 97), firstUse: i, lastUse: i + width })), [pool('p')]));

  test('a sparse set counts its buffers too (a 50,000-buffer chain made all 500 attempts: 41 s)', () => {
    // 2 entries a buffer: counted as 20 work units each, not 3.
    expect(hillClimbAttempts(chain(50_000, 1))).toBe(100);
    expect(hillClimbAttempts(chain(20_000, 8))).toBe(250);
  });

  test('small and dense sets keep their attempts (and so their plans)', () => {
    expect(hillClimbAttempts(chain(200, 3))).toBe(500);
    // About 440 entries a buffer, as the dense 2,000-buffer sets the cap was set on: by entries alone.
    const dense = chain(2000, 220);
    expect(hillClimbAttempts(dense)).toBe(Math.floor(100_000_000 / (2000 + dense.intervals!.entryCount())));
  });
});

describe('hill_climb on conflict lists with repeats', () => {
  // Found by fuzzing uma-ts plan: two buffers, one listing the other 3M times (a 12 MB file),
  // took 19 s of CPU; 2,000 buffers listing 5,000 names each, 26 s. Each attempt sorted every
  // listed entry, repeats included, in the greedy and again for the swap partners, where the
  // attempts' work budget counts each entry once.
  test('sorts each distinct entry, not each repeat, and places as TVM does', () => {
    const bufs = buffers({ a: { size: 5, conflicts: Array<string>(1_000_000).fill('b') }, b: { size: 7 } });
    const typedArraySort = Object.getPrototypeOf(Int32Array.prototype) as { sort: (this: { length: number }) => unknown };
    const original = typedArraySort.sort;
    let sorted = 0;
    const spy = jest.spyOn(typedArraySort, 'sort').mockImplementation(function (this: { length: number }, ...args: unknown[]) {
      sorted += this.length;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    });
    let plan;
    try {
      plan = hillClimb(bufs, 0);
    } finally {
      spy.mockRestore();
    }
    // b (the larger) first at 0; a, listing b, above it.
    expect(offsets(plan)).toEqual({ a: 7, b: 0 });
    expect(sorted).toBeLessThan(10_000);
  });
});
