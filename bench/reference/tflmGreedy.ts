/**
 * TFLite Micro's GreedyMemoryPlanner (tensorflow/lite/micro/memory_planner/
 * greedy_memory_planner.cc), reimplemented for comparison. Buffers are taken largest first
 * (ties: the later-added buffer first, as TFLM fills its sort array from the tail and its bubble
 * sort is stable); each goes into the first gap, walking the time-overlapping placed buffers in
 * offset order, that is big enough, else after the last of them. No offline offsets here.
 */
import { RefInterval, RefPlan, arenaOf } from './interval';

export function tflmGreedyPlan(intervals: readonly RefInterval[]): RefPlan {
  const n = intervals.length;
  const offsets = new Array<number>(n).fill(-1);
  if (n === 0) return { offsets: [], arenaBytes: 0 };
  const order = Array.from({ length: n }, (_, i) => n - 1 - i);
  order.sort((a, b) => intervals[b].size - intervals[a].size); // stable (ES2019+)

  // Placed buffers as a list sorted by offset (equal offsets keep insertion order).
  const byOffset: number[] = [order[0]];
  offsets[order[0]] = 0;
  for (let k = 1; k < n; k++) {
    const id = order[k];
    const want = intervals[id];
    let candidate = 0;
    for (const other of byOffset) {
      const o = intervals[other];
      if (o.first > want.last || want.first > o.last) continue;
      if (offsets[other] - candidate >= want.size) break;
      candidate = Math.max(candidate, offsets[other] + o.size);
    }
    offsets[id] = candidate;
    // TFLM inserts after every entry whose offset is <= the new one.
    let at = byOffset.length;
    if (offsets[byOffset[0]] > candidate) at = 0;
    else {
      for (let i = 1; i < byOffset.length; i++) {
        if (offsets[byOffset[i]] > candidate) {
          at = i;
          break;
        }
      }
    }
    byOffset.splice(at, 0, id);
  }
  return { offsets, arenaBytes: arenaOf(intervals, offsets) };
}
