/**
 * The global pool-pinning pass: runs on the whole lowered module before memory planning,
 * merges every constraint source and writes `candidate_memory_pools` on every allocate.
 * Unsatisfiable constraints fail here, before any planning, with the full story.
 */
import { TirModule } from '../../src/ir/tir/nodes';
import { PoolInfo } from '../../src/usmp/types';
import { writeCandidatePools } from './annotate';
import { PinningConstraints } from './constraints';
import { PinningSolution, solvePoolPinning } from './solve';
import { traceOperands } from './traceOperands';

export const POOL_PINNING_PASS_NAME = 'uma.PoolPinning';

export interface PoolPinningResult {
  readonly module: TirModule;
  readonly solution: PinningSolution;
}

export function runPoolPinning(
  module: TirModule,
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
): PoolPinningResult {
  const trace = traceOperands(module);
  const solution = solvePoolPinning(trace, pools, constraints);
  return { module: writeCandidatePools(module, solution), solution };
}
