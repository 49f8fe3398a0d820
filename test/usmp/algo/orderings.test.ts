/**
 * The initial orders sort packed ranks (orderByColumnsDescending), not by comparators: each must
 * be the order its comparator defines, ties and all (the plans depend on it). Sets with few
 * distinct sizes and start times, so that every tie rule decides some pairs, and with pins, so
 * that the pinned orders are made.
 */
import { indexProblem } from '../../../src/usmp/algo/indexed';
import { chronologicalOrder, initialOrders, tflmOrder, urgencyOrder, weightedDegree } from '../../../src/usmp/algo/orderings';
import { PlacementEngine } from '../../../src/usmp/algo/placement';
import { seededRandom } from '../../../src/usmp/algo/seededRandom';
import { intervalsToBufferInfos } from '../../../src/usmp/conflicts';
import { BufferInfo } from '../../../src/usmp/types';
import { pool } from './helpers';

function tiedSet(seed: number, count: number, pinned: boolean): BufferInfo[] {
  const random = seededRandom(seed);
  const intervals = Array.from({ length: count }, () => {
    const first = Math.floor(random() * 20);
    return { sizeBytes: [16, 48, 64, 256][Math.floor(random() * 4)], firstUse: first, lastUse: first + Math.floor(random() * 6), alignment: 16 };
  });
  // Unpinned: one arena, where the size order is TFLM's; pinned: two pools.
  if (!pinned) return intervalsToBufferInfos(intervals, [pool('arena', undefined, 16)]);
  const sram = pool('sram', 4096, 16);
  const dram = pool('dram', undefined, 16);
  return intervalsToBufferInfos(intervals, [sram, dram]).map((b) => {
    const r = random();
    return { ...b, poolCandidates: r < 0.2 ? [sram] : r < 0.35 ? [dram] : [sram, dram] };
  });
}

function byComparator(n: number, cmp: (a: number, b: number) => number): number[] {
  return Array.from({ length: n }, (_, i) => i).sort(cmp);
}

describe('initial orders', () => {
  it.each([
    [1, 60, false],
    [2, 200, false],
    [3, 120, true],
    [4, 300, true],
  ])('seed %i, %i buffers, pins %s: each order is its comparator order', (seed, count, pinned) => {
    const problem = indexProblem(tiedSet(seed, count, pinned));
    const engine = new PlacementEngine(problem);
    const n = problem.count;
    const size = problem.sizes;
    const degree = weightedDegree(engine);
    const first = (b: number) => problem.buffers[b].liveRange![0];
    const duration = (b: number) => problem.buffers[b].liveRange![1] - first(b);
    const urgencyDefs = new Float64Array(n);
    // The urgency order's first key, by its definition: the most bytes live at once in the lifetime.
    for (let b = 0; b < n; b++) {
      let peak = 0;
      for (let t = first(b); t <= problem.buffers[b].liveRange![1]; t++) {
        let live = 0;
        for (let c = 0; c < n; c++) if (first(c) <= t && t <= problem.buffers[c].liveRange![1]) live += size[c];
        peak = Math.max(peak, live);
      }
      urgencyDefs[b] = peak;
    }
    const urgency = byComparator(n, (a, b) => urgencyDefs[b] - urgencyDefs[a] || duration(b) - duration(a) || first(a) - first(b) || size[b] - size[a] || a - b);
    expect(Array.from(urgencyOrder(problem)!)).toEqual(urgency);
    expect(Array.from(tflmOrder(problem))).toEqual(byComparator(n, (a, b) => size[b] - size[a] || b - a));
    expect(Array.from(chronologicalOrder(problem)!)).toEqual(byComparator(n, (a, b) => first(a) - first(b) || size[b] - size[a] || a - b));
    const orders = new Map(initialOrders(problem, engine).map((o) => [o.name, Array.from(o.order)]));
    expect(orders.get('degree')).toEqual(byComparator(n, (a, b) => degree[b] - degree[a] || size[b] - size[a] || a - b));
    const choices = (b: number) => problem.candidates[b].length;
    if (pinned) {
      expect(orders.get('size')).toEqual(byComparator(n, (a, b) => size[b] - size[a] || degree[b] - degree[a] || a - b));
      expect(orders.get('pinned first')).toEqual(byComparator(n, (a, b) => choices(a) - choices(b) || size[b] - size[a] || degree[b] - degree[a] || a - b));
      const rank = new Int32Array(n);
      urgency.forEach((b, r) => (rank[b] = r));
      expect(orders.get('pinned first/urgency')).toEqual(byComparator(n, (a, b) => choices(a) - choices(b) || rank[a] - rank[b]));
    } else {
      expect(orders.get('tflm size')).toEqual(byComparator(n, (a, b) => size[b] - size[a] || b - a));
      expect(orders.has('pinned first')).toBe(false);
    }
  });
});
