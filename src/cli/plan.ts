/**
 * `uma-ts plan <file> [--algorithm NAME] [--json]`: runs a memory planning algorithm on a buffer
 * set (interval text or JSON, see src/usmp/bufferSet.ts), verifies the plan and prints it with
 * the pool sizes and the overhead over the lower bound.
 */
import { Command } from 'commander';
import { tableLines } from '../util/textTable';
import { nonEmptyValue, pathValue } from './optionValues';
import { performance } from 'node:perf_hooks';
// POOLS_EXHAUSTED from errors, not driver/poolOverflow, which loads the TIR's modules (5 ms a start).
import { ConfigError, MemoryPlanningError, PlanVerificationError, POOLS_EXHAUSTED } from '../errors';
import { MAX_BYTE_COUNT } from '../config/numbers';
import { CONFIG_FILE_LIMIT_BYTES, readInputText } from '../util/files';
import { DEFAULT_PLANNING_ALGORITHM, getPlanningAlgorithm } from '../usmp/algo/registry';
import { BufferSet, parseBufferSet } from '../usmp/bufferSet';
import { BufferPlan, PlanningOptions } from '../usmp/types';
import { lowerBoundOfBuffers } from '../usmp/conflicts';
import { planOptimality, TIME_CAP_NOTE } from '../usmp/optimality';
import { oneWayConflicts, poolSizesOfPlan, unlistedOverlaps, verifyPlan } from '../usmp/verify';
import { CliIO } from './io';
import { shownName } from '../util/shownName';

/** The `--json` document (schemas/memory-plan.schema.json). */
export interface MemoryPlanReport {
  readonly algorithm: string;
  readonly pools: { name: string; size: number }[];
  readonly allocations: { buffer: string; pool: string; offset: number }[];
  readonly lowerBound: number;
  readonly overheadPercent: number;
  /** No plan uses fewer bytes: the bound was reached, or the planner proved it. */
  readonly provenOptimal: boolean;
  /** The best proven lower bound (the total itself when proven optimal). */
  readonly provenLowerBound: number;
  /** How far above provenLowerBound the total is, in percent. */
  readonly gapPercent: number;
  /** Present (true) when the planner's clock cut in: the plan depends on the machine's speed. */
  readonly timeCapReached?: true;
  readonly planMs: number;
}

/**
 * Where every pool is limited and the limits add up to less than the lower bound, no plan can
 * fit them, whatever the planner: said in so many words, with the bytes that are missing (the
 * buffer that overflowed is only where one planner ran out).
 */
function limitsBelowBound(set: BufferSet): string {
  if (set.pools.some((p) => p.sizeHintBytes === undefined)) return '';
  const limits = set.pools.reduce((sum, p) => sum + p.sizeHintBytes!, 0);
  const bound = lowerBoundOfBuffers(set.buffers);
  return limits < bound ? `; the pools' limits add up to ${limits} bytes, below the lower bound of ${bound} bytes, so no plan fits them` : '';
}

/**
 * Why no plan fits, where that is known: the limits' sum below the bound (whatever the planner),
 * else the planner's own proof (auto's, limitShortfall.ts).
 */
function whyNoPlan(e: MemoryPlanningError, set: BufferSet): string {
  return limitsBelowBound(set) || (typeof e.context.shortfall === 'string' ? `; ${e.context.shortfall}` : '');
}

/** A pool overflow names the buffer's size and each allowed pool's limit. */
function withOverflowLimits<T>(set: BufferSet, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof MemoryPlanningError) || !e.message.startsWith(POOLS_EXHAUSTED)) throw e;
    const buffer = set.buffers.find((b) => b.name === e.context.buffer);
    if (buffer === undefined) throw e;
    // A pool named twice in candidatePools is one choice (the planner's reading): named once.
    const candidates = buffer.poolCandidates.filter((p, i) => buffer.poolCandidates.findIndex((q) => q.name === p.name) === i);
    const pools = candidates.map((p) => `${p.name} (${p.sizeHintBytes !== undefined ? `limit ${p.sizeHintBytes} bytes` : 'no limit'})`);
    throw new MemoryPlanningError(
      `${POOLS_EXHAUSTED}: ${buffer.name} (${buffer.sizeBytes} bytes); allowed pools: ${pools.join(', ')}${whyNoPlan(e, set)}; raise a pool's sizeHintBytes or allow another pool`,
      e.context,
    );
  }
}

/** `file`: where the set came from, named in errors about its own fields. */
export function planBufferSet(set: BufferSet, algorithm: string, options: PlanningOptions = {}, file?: string): MemoryPlanReport {
  const planner = getPlanningAlgorithm(algorithm);
  const t0 = performance.now();
  const plan: BufferPlan = withOverflowLimits(set, () => planner(set.buffers, set.memoryPressure, options));
  const planMs = performance.now() - t0;
  verifyPlan(set.buffers, plan, set.pools);
  const used = poolSizesOfPlan(set.buffers, plan);
  const pools = set.pools.map((p) => ({ name: p.name, size: used.get(p.name) ?? 0 }));
  const total = pools.reduce((s, p) => s + p.size, 0);
  if (total > MAX_BYTE_COUNT) {
    throw new MemoryPlanningError(
      `the pools of the plan add up to more than 2^53-1 = ${MAX_BYTE_COUNT} bytes (${pools.map((p) => `${p.name} ${p.size}`).join(', ')}); uma-ts cannot represent the total exactly`,
      {},
    );
  }
  if (total < set.memoryPressure) {
    if (set.memoryPressureGiven) {
      throw new ConfigError(
        `${file !== undefined ? `${file}: /memoryPressure: ` : ''}memoryPressure ${set.memoryPressure} is not a lower bound: ` +
          `the plan uses ${total} bytes in total; give at most ${total}, or leave it out`,
        { ...(file !== undefined ? { file } : {}), jsonPath: '/memoryPressure' },
      );
    }
    // Our own bound below a verified plan is a bug in the bound, not in the user's input.
    throw new PlanVerificationError(
      `internal: the plan uses ${total} bytes in total, below the computed lower bound ${set.memoryPressure}`,
      {},
    );
  }
  // A given memoryPressure steers the planner (TVM's meaning: the size to aim at) but is the
  // user's word, not a proof: above the true optimum, auto stopped on reaching it and recorded
  // the plan as optimal. What is reported as a bound rests on our own bound; the planner's
  // recorded proof counts only when the given figure did not raise the bound it started from.
  const ownBound = set.memoryPressureGiven ? lowerBoundOfBuffers(set.buffers) : set.memoryPressure;
  const optimality = planOptimality(plan, total, ownBound, set.memoryPressure <= ownBound);
  return {
    algorithm,
    pools,
    allocations: set.buffers.map((b) => ({ buffer: b.name, pool: plan.get(b.name)!.pool, offset: plan.get(b.name)!.offset })),
    lowerBound: ownBound,
    overheadPercent: ownBound === 0 ? 0 : ((total - ownBound) / ownBound) * 100,
    provenOptimal: optimality.provenOptimal,
    provenLowerBound: optimality.lowerBoundBytes,
    gapPercent: optimality.gapPercent,
    ...(optimality.timeCapReached ? { timeCapReached: true as const } : {}),
    planMs: Math.round(planMs * 1000) / 1000,
  };
}

export function formatPlanReport(report: MemoryPlanReport, set: BufferSet): string {
  const total = report.pools.reduce((s, p) => s + p.size, 0);
  const size = new Map(set.buffers.map((b) => [b.name, b.sizeBytes] as const));
  return [
    `algorithm: ${report.algorithm} (${report.planMs.toFixed(1)} ms)`,
    `total: ${total} bytes, lower bound: ${report.lowerBound} bytes, overhead: ${report.overheadPercent.toFixed(3)}%`,
    report.provenOptimal
      ? 'optimality: proven optimal'
      : `optimality: not proven; at most ${total - report.provenLowerBound} bytes (${report.gapPercent.toFixed(2)}%) above the optimum (proven lower bound ${report.provenLowerBound})`,
    ...(report.timeCapReached ? [`search: ${TIME_CAP_NOTE}`] : []),
    '',
    ...tableLines(['pool', 'size'], report.pools.map((p) => [shownName(p.name), String(p.size)])),
    '',
    ...tableLines(
      ['buffer', 'pool', 'offset', 'size', 'end'],
      report.allocations.map((a) => {
        const s = size.get(a.buffer)!;
        return [shownName(a.buffer), shownName(a.pool), String(a.offset), String(s), String(a.offset + s)];
      }),
    ),
  ].join('\n');
}

function readBufferSet(file: string): BufferSet {
  return parseBufferSet(readInputText(file, { what: 'buffer set', limitBytes: CONFIG_FILE_LIMIT_BYTES }), file);
}

function nonNegativeInt(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new ConfigError(`--${name} must be a non-negative integer up to 2^53-1, got '${value.slice(0, 40)}'`);
    }
    return Number(value);
  };
}

export function register(program: Command, io: CliIO): void {
  program
    .command('plan')
    .description('plan a buffer set (intervals "size first last" per line, JSON, or MiniMalloc\'s CSV) and print the memory plan')
    .argument('<file>', "buffer set: text intervals, JSON (schemas/buffer-set.schema.json) or MiniMalloc's CSV (id,lower,upper,size)", pathValue)
    .option('-a, --algorithm <name>', 'memory planning algorithm', nonEmptyValue, DEFAULT_PLANNING_ALGORITHM)
    .option('--json', 'print the plan as JSON (schemas/memory-plan.schema.json)')
    .option('--time-budget <ms>', 'search time budget for searching planners (auto: a safety cap; by default none up to 5,000 buffers, above that 10 s or 0.5 ms per buffer)', nonNegativeInt('time-budget'))
    .option('--seed <n>', 'seed for randomised planners', nonNegativeInt('seed'))
    .action((file: string, opts: { algorithm: string; json?: boolean; timeBudget?: number; seed?: number }) => {
      const set = readBufferSet(file);
      const report = planBufferSet(set, opts.algorithm, { timeBudgetMs: opts.timeBudget, seed: opts.seed }, file);
      const oneWay = oneWayConflicts(set.buffers);
      if (oneWay.length > 0) {
        // Directional lists are TVM's semantics; users who meant a symmetric conflict should know.
        io.err(
          `note: ${oneWay.length} conflict(s) listed in one direction only (${oneWay.slice(0, 5).join(', ')}${oneWay.length > 5 ? ', ...' : ''}): ` +
            'TVM-compatible planners honour them only for the buffer that lists them; auto keeps every listed pair apart',
        );
      }
      const unlisted = unlistedOverlaps(set.buffers);
      if (unlisted.length > 0) {
        io.err(
          `note: buffers live at once that neither lists as a conflict (${unlisted.join(', ')}${unlisted.length >= 5 ? ', ...' : ''}): ` +
            'the conflict lists decide, so these may share addresses; list them (or leave out every list to plan from the live ranges)',
        );
      }
      io.out(opts.json ? JSON.stringify(report, null, 2) : formatPlanReport(report, set));
    });
}
