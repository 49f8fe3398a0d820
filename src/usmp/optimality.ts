/**
 * Whether a plan is proven optimal, and otherwise how far it may be from the optimum. A planner
 * that proves more than "the total reached the lower bound" (auto's exact core can prove that no
 * smaller capacity fits) records it on the plan it returns; every other plan is judged against
 * the lower bound alone.
 */
import { BufferPlan } from './types';

export interface PlanOptimality {
  /** No valid plan uses fewer bytes in total. */
  readonly provenOptimal: boolean;
  /** The best proven lower bound on the total bytes of any plan. */
  readonly lowerBoundBytes: number;
  /** Total bytes minus lowerBoundBytes (0 when proven optimal). */
  readonly gapBytes: number;
  /** gapBytes / lowerBoundBytes in percent, 2 decimals. */
  readonly gapPercent: number;
}

const recorded = new WeakMap<BufferPlan, { provenOptimal: boolean; lowerBound: number }>();

/** Called by a planner on the plan it returns: what it proved about that plan. */
export function recordOptimality(plan: BufferPlan, provenOptimal: boolean, lowerBound: number): void {
  recorded.set(plan, { provenOptimal, lowerBound });
}

/**
 * The optimality of `plan` whose pools total `totalBytes`, given the lower bound `lowerBound`.
 * `useRecordedProof: false` ignores what the planner recorded (its proof may rest on a memory
 * pressure nobody verified).
 */
export function planOptimality(plan: BufferPlan, totalBytes: number, lowerBound: number, useRecordedProof = true): PlanOptimality {
  const proof = useRecordedProof ? recorded.get(plan) : undefined;
  const bound = Math.max(lowerBound, proof?.lowerBound ?? 0);
  const provenOptimal = totalBytes <= bound || (proof?.provenOptimal ?? false);
  const best = provenOptimal ? totalBytes : bound;
  const gapBytes = Math.max(0, totalBytes - best);
  return {
    provenOptimal,
    lowerBoundBytes: best,
    gapBytes,
    gapPercent: best > 0 ? Math.round((10000 * gapBytes) / best) / 100 : 0,
  };
}
