/**
 * Placement orders tried by `auto` before it starts searching. Each suits a different shape:
 * size order is strong on chains, urgency (peak live bytes during the buffer's lifetime) packs
 * the busiest moment first, weighted degree stands in for urgency when no live ranges exist.
 * (Start-time order was tried and never won on chains or random intervals.)
 */
import { IndexedProblem } from './indexed';
import { PlacementEngine } from './placement';

export interface NamedOrder {
  readonly name: string;
  readonly order: Int32Array;
  /** Try this order with first-fit only (it reproduces a known planner that way). */
  readonly firstFitOnly?: boolean;
}

function sortedIndices(n: number, cmp: (a: number, b: number) => number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i).sort(cmp);
}

/** Size plus the sizes of all neighbours: how crowded a buffer's neighbourhood is. */
export function weightedDegree(engine: PlacementEngine): Float64Array {
  const w = new Float64Array(engine.n);
  for (let b = 0; b < engine.n; b++) {
    let s = engine.sizes[b];
    for (let ai = engine.adjStart[b]; ai < engine.adjStart[b + 1]; ai++) s += engine.sizes[engine.adj[ai]];
    w[b] = s;
  }
  return w;
}

/** Max over the buffer's lifetime of the bytes live at once (needs every live range). */
function urgencyOfLiveRanges(problem: IndexedProblem): Float64Array | undefined {
  const ranges = problem.buffers.map((b) => b.liveRange);
  if (ranges.some((r) => r === undefined)) return undefined;
  const times = [...new Set(ranges.flatMap((r) => [r![0], r![1]]))].sort((a, b) => a - b);
  const at = new Map(times.map((t, i) => [t, i] as const));
  const delta = new Float64Array(times.length + 1);
  ranges.forEach((r, b) => {
    delta[at.get(r![0])!] += problem.sizes[b];
    delta[at.get(r![1])! + 1] -= problem.sizes[b];
  });
  const live = new Float64Array(times.length);
  let run = 0;
  for (let i = 0; i < times.length; i++) live[i] = run += delta[i];
  return Float64Array.from(ranges, (r) => {
    let m = 0;
    for (let i = at.get(r![0])!; i <= at.get(r![1])!; i++) if (live[i] > m) m = live[i];
    return m;
  });
}

/**
 * Urgency first, then longer life, earlier start, larger size, lower index: Vela's order, and
 * the one of our starts that suits irregular live ranges. Undefined without live ranges.
 */
export function urgencyOrder(problem: IndexedProblem): Int32Array | undefined {
  const urgency = urgencyOfLiveRanges(problem);
  if (!urgency) return undefined;
  const size = problem.sizes;
  const first = (b: number): number => problem.buffers[b].liveRange![0];
  const duration = (b: number): number => problem.buffers[b].liveRange![1] - first(b);
  return sortedIndices(
    problem.count,
    (a, b) => urgency[b] - urgency[a] || duration(b) - duration(a) || first(a) - first(b) || size[b] - size[a] || a - b,
  );
}

/**
 * TFLite Micro's GreedyMemoryPlanner order: larger first, and among equal sizes the buffer added
 * later first (TFLM fills its sort array from the last buffer and sorts it with a stable bubble
 * sort). Placed first-fit, each buffer lands at the lowest offset that clears the placed buffers
 * it conflicts with, which is where TFLM's walk over the time-overlapping placed buffers in
 * offset order stops; with conflicts = overlapping live ranges and sizes that keep offsets
 * aligned, the engine reproduces TFLM's plan offset for offset, so `auto` is never worse.
 */
export function tflmOrder(problem: IndexedProblem): Int32Array {
  const size = problem.sizes;
  return sortedIndices(problem.count, (a, b) => size[b] - size[a] || b - a);
}

/** TFLM plans one arena from live ranges; its start is added for problems of that shape. */
export function tflmStartApplies(problem: IndexedProblem): boolean {
  return problem.pools.length === 1 && problem.buffers.every((b) => b.liveRange !== undefined);
}

export function initialOrders(problem: IndexedProblem, engine: PlacementEngine): NamedOrder[] {
  const n = problem.count;
  const size = problem.sizes;
  const degree = weightedDegree(engine);
  const orders: NamedOrder[] = [
    { name: 'size', order: sortedIndices(n, (a, b) => size[b] - size[a] || degree[b] - degree[a] || a - b) },
    { name: 'degree', order: sortedIndices(n, (a, b) => degree[b] - degree[a] || size[b] - size[a] || a - b) },
  ];
  const urgency = urgencyOrder(problem);
  if (urgency) orders.push({ name: 'urgency', order: urgency });
  // Last, so it only wins where it is strictly better than the starts above.
  if (tflmStartApplies(problem)) orders.push({ name: 'tflm', order: tflmOrder(problem), firstFitOnly: true });
  return orders;
}
