/**
 * `auto`'s wall clock, a safety net only (issue 15: the same input gives the same plan on any
 * machine). Every step of a call ends on its counted work budget, so the plan depends on the
 * input and the seed alone, unless a clock cuts in first: then it depends on the machine's
 * speed and load, and the call says so (AutoStats.timeCapReached).
 *
 * Up to UNCAPPED_UP_TO buffers there is no clock unless one is given (`timeBudgetMs`). Above
 * that a default one guards against inputs whose counted work takes far longer than measured
 * (each greedy start, dive and push-down is a pass over every conflict, so their time grows
 * with the conflicts, not the budget). It is set well above what the counted budgets take, so
 * that a normal run never reaches it, even on a loaded machine: on the bench's 10,000-buffer
 * sets (uniform, heavy-tailed, long lifetimes, multi-pool with pins, mixed seeds 1-12) a call
 * takes 0.2-1.3 s of CPU in one process, and up to 3 s of wall time with two other planners
 * on the two cores (load 8-10); 100,000 random intervals (the bench's scale set) 4.5 s of CPU,
 * 8.5 s of wall time so loaded. Until the twenty-fifth session the default was 1 s above
 * 5,000 buffers, and it cut in on most of those sets: their plans changed with the load (the
 * multi-pool 10,000-buffer set gave 0.109%, 0.440% and 0.035% above its bound with one build).
 */
import { performance } from 'node:perf_hooks';

/** Problems up to this many buffers have no default wall-clock cap. */
export const UNCAPPED_UP_TO = 5000;
/** The default cap above UNCAPPED_UP_TO buffers: at least this... */
export const SAFETY_CAP_MS = 10_000;
/**
 * ...and this much per buffer: the counted work's time grows with the buffers, 0.05-0.13 ms of
 * CPU each at 10,000-100,000 buffers (long lifetimes at 20,000: 2.3 s of CPU, 5.1 s of wall time
 * loaded; the cap there is 10 s, at 100,000 buffers 50 s).
 */
export const SAFETY_CAP_MS_PER_BUFFER = 0.5;

/** The wall-clock cap of a call on `count` buffers, `given` unless undefined (Infinity: none). */
export function timeCapMs(count: number, given: number | undefined): number {
  if (given !== undefined) return given;
  return count <= UNCAPPED_UP_TO ? Infinity : Math.max(SAFETY_CAP_MS, count * SAFETY_CAP_MS_PER_BUFFER);
}

/**
 * Whether a call that started at `startedAt` with the clock at `deadline` may have been cut
 * short by it: the deadline has passed. Every check of the clock is "now < deadline", so while
 * the deadline lies ahead none of them has changed the plan. A zero budget (deadline ===
 * startedAt) asks for the greedy phase alone, whatever the speed: not a cut.
 */
export function timeCapReached(startedAt: number, deadline: number): boolean {
  return deadline > startedAt && deadline !== Infinity && performance.now() >= deadline;
}
