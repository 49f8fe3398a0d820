import { MemoryPlanningError, PlanVerificationError } from '../../src/errors';
import { getPlanningAlgorithm } from '../../src/usmp/algo/registry';
import { seededRandom } from '../../src/usmp/algo/seededRandom';
import { intervalsToBufferInfos, LiveInterval } from '../../src/usmp/conflicts';
import { IntervalConflicts, intervalGroupOf } from '../../src/usmp/intervalConflicts';
import { BufferInfo, PoolInfo } from '../../src/usmp/types';
import { verifyPlan } from '../../src/usmp/verify';

const ws: PoolInfo = { name: 'ws', kind: 'workspace', targetAccess: {}, alignment: 1, internal: true };
const ALGORITHMS = ['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'];

function randomIntervals(seed: number, count: number, ops: number, maxLen: number): LiveInterval[] {
  const r = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = Math.floor(r() * ops);
    return { sizeBytes: 1 + Math.floor(r() * 100), firstUse: first, lastUse: first + Math.floor(r() * maxLen) };
  });
}

/** The same buffers as plain objects with explicit lists: not an interval group. */
function asListed(buffers: readonly BufferInfo[]): BufferInfo[] {
  return buffers.map((b) => ({ ...b, conflicts: [...b.conflicts] }));
}

describe('interval conflicts', () => {
  test('sweep-line conflicts are the pairwise overlaps, in index order', () => {
    const intervals = randomIntervals(1, 300, 200, 30);
    const buffers = intervalsToBufferInfos(intervals, [ws]);
    buffers.forEach((b, i) => {
      const expected = intervals
        .map((iv, j) => (j !== i && iv.firstUse <= intervals[i].lastUse && intervals[i].firstUse <= iv.lastUse ? `buf_${j}` : ''))
        .filter((x) => x !== '');
      expect(b.conflicts).toEqual(expected);
    });
    expect(Array.from(intervalGroupOf(buffers)!.degrees())).toEqual(buffers.map((b) => b.conflicts.length));
  });

  // A region's sub-core reads its rows from the whole set's (subset): they must be the rows a
  // sweep of the members' own ranges lists, for members picked at random or not ascending.
  test('a subset has the rows and degrees of its own ranges, read from the set or swept', () => {
    const intervals = randomIntervals(3, 400, 150, 40);
    const r = seededRandom(4);
    for (const built of [true, false]) {
      const whole = new IntervalConflicts(Float64Array.from(intervals, (iv) => iv.firstUse), Float64Array.from(intervals, (iv) => iv.lastUse));
      if (built) whole.adjacency();
      const ascending = intervals.map((_, i) => i).filter(() => r() < 0.4);
      for (const members of [ascending, [...ascending].reverse(), []]) {
        const sub = whole.subset(members);
        const swept = new IntervalConflicts(Float64Array.from(members, (b) => whole.first[b]), Float64Array.from(members, (b) => whole.last[b]));
        expect(Array.from(sub.first)).toEqual(Array.from(swept.first));
        expect(Array.from(sub.degrees())).toEqual(Array.from(swept.degrees()));
        const got = sub.adjacency();
        const want = swept.adjacency();
        expect(Array.from(got.start)).toEqual(Array.from(want.start));
        expect(Array.from(got.adj)).toEqual(Array.from(want.adj));
      }
    }
  });

  // Times above 2^53 / 2^k (k: bits of the buffer count) cannot be packed with the index into
  // one exact double: the sweep orders them by a comparator sort instead; same conflicts.
  test('sweep-line conflicts near 2^53 are the pairwise overlaps', () => {
    const small = randomIntervals(2, 200, 60, 12);
    const base = 2 ** 52;
    const intervals = small.map((iv) => ({ ...iv, firstUse: base + iv.firstUse * 7, lastUse: base + iv.lastUse * 7 }));
    const buffers = intervalsToBufferInfos(intervals, [ws]);
    buffers.forEach((b, i) => {
      const expected = small
        .map((iv, j) => (j !== i && iv.firstUse <= small[i].lastUse && small[i].firstUse <= iv.lastUse ? `buf_${j}` : ''))
        .filter((x) => x !== '');
      expect(b.conflicts).toEqual(expected);
    });
  });

  // Regression (issue 14 item 1): uses past 2^31-1 were stored in an Int32Array and wrapped, the
  // two buffers below lost their conflict and every planner stacked them at offset 0.
  test('uses past 2^31 keep their conflicts in every planner', () => {
    const big = 2 ** 31;
    const intervals: LiveInterval[] = [
      { sizeBytes: 64, firstUse: big - 2, lastUse: big + 5 },
      { sizeBytes: 32, firstUse: big + 3, lastUse: big + 9 },
      { sizeBytes: 16, firstUse: 2 ** 40, lastUse: 2 ** 40 + 1 },
    ];
    for (const name of ALGORITHMS) {
      const buffers = intervalsToBufferInfos(intervals, [ws]);
      expect(buffers[0].conflicts).toEqual(['buf_1']);
      const plan = getPlanningAlgorithm(name)(buffers, 0);
      expect(() => verifyPlan(buffers, plan)).not.toThrow();
      const [a, b] = [plan.get('buf_0')!, plan.get('buf_1')!];
      expect(a.offset + 64 <= b.offset || b.offset + 32 <= a.offset).toBe(true);
    }
  });

  test('times that are not safe integers are rejected naming the buffer', () => {
    expect(() => intervalsToBufferInfos([{ name: 'x', sizeBytes: 4, firstUse: 0, lastUse: 2 ** 53 }], [ws])).toThrow(
      new MemoryPlanningError("buffer 'x': last use 9007199254740992 is not a non-negative integer below 2^53"),
    );
  });

  test('the verifier checks live ranges directly, whatever the lists say', () => {
    const buffers = intervalsToBufferInfos(
      [
        { sizeBytes: 10, firstUse: 2 ** 33, lastUse: 2 ** 33 + 4 },
        { sizeBytes: 10, firstUse: 2 ** 33 + 4, lastUse: 2 ** 33 + 8 },
        { sizeBytes: 0, firstUse: 0, lastUse: 2 ** 34 },
      ],
      [ws],
    );
    const plan = (a: number, b: number, c: number) =>
      new Map([
        ['buf_0', { pool: 'ws', offset: a }],
        ['buf_1', { pool: 'ws', offset: b }],
        ['buf_2', { pool: 'ws', offset: c }],
      ]);
    expect(() => verifyPlan(buffers, plan(0, 10, 10))).not.toThrow();
    expect(() => verifyPlan(buffers, plan(0, 9, 20))).toThrow(PlanVerificationError);
    expect(() => verifyPlan(buffers, plan(0, 9, 20))).toThrow(/'buf_1' \[9, 19\) live \[8589934596, 8589934600\] and 'buf_0' \[0, 10\)/);
    // A zero-size buffer strictly inside a live buffer overlaps it, as in the pairwise check.
    expect(() => verifyPlan(buffers, plan(0, 10, 5))).toThrow(/'buf_2'/);
    expect(() => verifyPlan(asListed(buffers), plan(0, 10, 5))).toThrow(/'buf_2'/);
  });

  test('the sweep verifier agrees with the pairwise one on random plans', () => {
    const r = seededRandom(7);
    for (let trial = 0; trial < 40; trial++) {
      const buffers = intervalsToBufferInfos(randomIntervals(trial, 25, 30, 8), [ws]);
      const plan = new Map(buffers.map((b) => [b.name, { pool: 'ws', offset: Math.floor(r() * 300) }]));
      const outcome = (bs: BufferInfo[]) => {
        try {
          verifyPlan(bs, plan);
          return 'ok';
        } catch (e) {
          return e instanceof PlanVerificationError ? 'overlap' : String(e);
        }
      };
      expect(outcome(buffers)).toBe(outcome(asListed(buffers)));
    }
  });

  test("TVM's greedy planners give the same plan from intervals as from conflict lists", () => {
    for (const seed of [1, 2, 3]) {
      const buffers = intervalsToBufferInfos(randomIntervals(seed, 400, 300, 40), [ws]);
      for (const name of ['greedy_by_size', 'greedy_by_conflicts']) {
        const fromIntervals = getPlanningAlgorithm(name)(buffers, 0);
        expect([...fromIntervals]).toEqual([...getPlanningAlgorithm(name)(asListed(buffers), 0)]);
      }
    }
  });
});
