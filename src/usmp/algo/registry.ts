/**
 * Planning algorithms by name. The USMP pipeline and the `plan` command look algorithms up
 * here; the built-ins register when this module is first imported.
 */
import { MemoryPlanningError } from '../../errors';
import { PlanningAlgorithm } from '../types';
import { autoPlanner } from './auto';
import { hillClimb } from './hillClimb';
import { greedyByConflicts, greedyBySize } from './tvmGreedy';

export const DEFAULT_PLANNING_ALGORITHM = 'auto';

const algorithms = new Map<string, PlanningAlgorithm>();

/** Adds (or replaces) an algorithm under `name`. */
export function registerPlanningAlgorithm(name: string, fn: PlanningAlgorithm): void {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) {
    throw new MemoryPlanningError(`invalid memory planning algorithm name '${name}'`);
  }
  algorithms.set(name, fn);
}

export function getPlanningAlgorithm(name: string): PlanningAlgorithm {
  const fn = algorithms.get(name);
  if (!fn) {
    throw new MemoryPlanningError(
      `unknown memory planning algorithm '${name}'; known: ${listPlanningAlgorithms().join(', ')}`,
    );
  }
  return fn;
}

/** Registered names, sorted. */
export function listPlanningAlgorithms(): string[] {
  return [...algorithms.keys()].sort();
}

registerPlanningAlgorithm('auto', autoPlanner);
registerPlanningAlgorithm('greedy_by_size', greedyBySize);
registerPlanningAlgorithm('greedy_by_conflicts', greedyByConflicts);
registerPlanningAlgorithm('hill_climb', hillClimb);
