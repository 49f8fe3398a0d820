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
  /**
   * Present (true) when the planner's wall clock ran out before it ended (auto: `timeBudgetMs`,
   * or its safety cap above 5,000 buffers): the plan may then depend on the machine's speed.
   */
  readonly timeCapReached?: true;
}

/** What a planner recorded on a plan (recordOptimality). */
interface Recorded {
  readonly provenOptimal: boolean;
  readonly lowerBound: number;
  readonly timeCapReached: boolean;
}

const recorded = new WeakMap<BufferPlan, Recorded>();

/**
 * Called by a planner on the plan it returns: what it proved about that plan, and whether its
 * clock cut the search short.
 */
export function recordOptimality(plan: BufferPlan, provenOptimal: boolean, lowerBound: number, timeCapReached = false): void {
  recorded.set(plan, { provenOptimal, lowerBound, timeCapReached });
}

/** The note a report shows when the planner's clock cut in (PlanOptimality.timeCapReached). */
export const TIME_CAP_NOTE = 'ended by the time cap: the plan depends on machine speed';

/**
 * The optimality of `plan` whose pools total `totalBytes`, given the lower bound `lowerBound`.
 * `useRecordedProof: false` ignores what the planner recorded (its proof may rest on a memory
 * pressure nobody verified).
 */
export function planOptimality(plan: BufferPlan, totalBytes: number, lowerBound: number, useRecordedProof = true): PlanOptimality {
  const record = recorded.get(plan);
  const proof = useRecordedProof ? record : undefined;
  const bound = Math.max(lowerBound, proof?.lowerBound ?? 0);
  const provenOptimal = totalBytes <= bound || (proof?.provenOptimal ?? false);
  const best = provenOptimal ? totalBytes : bound;
  const gapBytes = Math.max(0, totalBytes - best);
  return {
    provenOptimal,
    lowerBoundBytes: best,
    gapBytes,
    gapPercent: best > 0 ? Math.round((10000 * gapBytes) / best) / 100 : 0,
    // Not a proof: said whatever bound the report rests on.
    ...(record?.timeCapReached ? { timeCapReached: true as const } : {}),
  };
}
