/**
 * A custom memory planner, as shown in docs/memory-planner.md: "first fit in order of first
 * use". Each buffer, taken by the start of its live range, goes to the first candidate pool
 * where it fits, at the lowest aligned offset that overlaps no conflicting buffer placed so far.
 * Registering it makes it available everywhere an algorithm name is accepted
 * (`runUsmp({ algorithm })`, `compileModel({ algorithm })`, `--algorithm`).
 */
import { BufferInfo, BufferPlan, MemoryPlanningError, PlanningAlgorithm, PoolAllocation, registerPlanningAlgorithm } from '../../src';

export const FIRST_FIT_BY_START = 'first_fit_by_start';

const alignUp = (n: number, a: number): number => Math.ceil(n / a) * a;

/** The lowest offset >= 0, aligned to `alignment`, where `size` bytes avoid every `taken` range. */
function lowestGap(taken: readonly (readonly [number, number])[], size: number, alignment: number): number {
  let offset = 0;
  for (const [start, end] of [...taken].sort((x, y) => x[0] - y[0])) {
    if (offset + size <= start) break;
    offset = Math.max(offset, alignUp(end, alignment));
  }
  return offset;
}

export const firstFitByStart: PlanningAlgorithm = (buffers) => {
  // Conflicts are directional in BufferInfo; this planner keeps both directions apart.
  const conflicts = new Map<string, Set<string>>(buffers.map((b) => [b.name, new Set<string>()]));
  for (const b of buffers) {
    for (const c of b.conflicts) {
      conflicts.get(b.name)!.add(c);
      conflicts.get(c)?.add(b.name);
    }
  }
  const start = (b: BufferInfo): number => b.liveRange?.[0] ?? 0;
  const order = [...buffers].sort((a, b) => start(a) - start(b) || b.sizeBytes - a.sizeBytes || a.name.localeCompare(b.name));
  const plan = new Map<string, PoolAllocation>();
  const sizes = new Map(buffers.map((b) => [b.name, b.sizeBytes]));
  for (const b of order) {
    const placed = [...conflicts.get(b.name)!].filter((c) => plan.has(c));
    const spot = b.poolCandidates
      .map((pool) => {
        const taken = placed
          .filter((c) => plan.get(c)!.pool === pool.name)
          .map((c) => [plan.get(c)!.offset, plan.get(c)!.offset + sizes.get(c)!] as const);
        const offset = lowestGap(taken, b.sizeBytes, Math.max(b.alignment, pool.alignment));
        return { pool: pool.name, offset, fits: offset + b.sizeBytes <= (pool.sizeHintBytes ?? Infinity) };
      })
      .find((s) => s.fits);
    if (!spot) {
      throw new MemoryPlanningError(`${FIRST_FIT_BY_START}: buffer '${b.name}' (${b.sizeBytes} bytes) fits in none of its pools`, {
        buffer: b.name,
      });
    }
    plan.set(b.name, { pool: spot.pool, offset: spot.offset });
  }
  return plan as BufferPlan;
};

registerPlanningAlgorithm(FIRST_FIT_BY_START, firstFitByStart);
