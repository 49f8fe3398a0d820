/**
 * `npm run bench`: every planner on CNN-like and irregular buffer sets, against the lower bound
 * (peak live bytes) and two reference planners (TFLite Micro greedy, Vela 3.10's hill climb); then
 * every bundled model compiled host-only (`modelTable.ts`: workspace, tensor-level bound,
 * TFLite Micro's arena, generated C inference time). Prints one
 * table per set, one summary line per irregular family and an overall verdict on the targets of
 * `auto`: the bound on every CNN-like set; on every irregular set no larger than either
 * reference, within 1 s, greedy phase within 50 ms; mean overhead <= 0.10% on the uniform family.
 * Also times a host-only compile of a 4 MB MobileNetV2 (`compileTime.ts`, target < 10 s), and
 * of two wide models (5,000 buffers live at once, 20,000 distinct constants) with their peak RSS.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { getPlanningAlgorithm, listPlanningAlgorithms } from '../src/usmp/algo/registry';
import { AutoStats, planAuto } from '../src/usmp/algo/auto';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../src/usmp/verify';
import { BufferInfo, BufferPlan, PoolInfo } from '../src/usmp/types';
import { coldRunSection } from './coldRuns';
import { compileTimeBench, wideCompileBench } from './compileTime';
import { BenchSet, benchSets, portfolioSets } from './generators';
import { runModelTable } from './modelTable';
import { portfolioSection, scaleSection } from './portfolio';
import { RefInterval, RefPlan } from './reference/interval';
import { tflmGreedyPlan } from './reference/tflmGreedy';
import { velaPlan } from './velaPlan';

const ALIGNMENT = 16;
const ARENA: PoolInfo = { name: 'arena', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: ALIGNMENT, internal: true };

interface Row {
  readonly planner: string;
  readonly arena: number;
  readonly ms: number;
}

function timed<T>(f: () => T): { value: T; ms: number } {
  const t0 = performance.now();
  const value = f();
  return { value, ms: performance.now() - t0 };
}

function refToPlan(plan: RefPlan, buffers: readonly BufferInfo[]): BufferPlan {
  return new Map(buffers.map((b, i) => [b.name, { pool: ARENA.name, offset: plan.offsets[i] }]));
}

/**
 * TVM's hill_climb takes about 6 s per 2000-buffer set; it runs on the CNN-like sets and the
 * first five uniform seeds (the original benchmark) only, to keep the whole run near a minute.
 */
const TVM_HILL_CLIMB_SETS = new Set(['random_2000x800_s1', 'random_2000x800_s2', 'random_2000x800_s3', 'random_2000x800_s4', 'random_2000x800_s5']);
/**
 * Mean overhead targets per irregular family. The uniform family's is the planner's design
 * target; the heavy-tailed family is measured and reported without one (its bound is reachable,
 * but on some seeds only with a few seconds of search).
 */
const MEAN_OVERHEAD_TARGETS: Record<string, number | undefined> = { uniform: 0.1 };
/** Greedy-phase timings take the fastest of this many runs (the phase is deterministic). */
const GREEDY_TIMING_RUNS = 3;

function runSet(set: BenchSet): { rows: Row[]; bound: number; stats: AutoStats } {
  const buffers = intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: ALIGNMENT })),
    [ARENA],
  );
  const bound = memoryPressureOfIntervals(buffers.map((b) => ({ sizeBytes: b.sizeBytes, firstUse: b.liveRange![0], lastUse: b.liveRange![1] })));
  const rows: Row[] = [];
  const record = (planner: string, plan: BufferPlan, ms: number) => {
    verifyPlan(buffers, plan);
    rows.push({ planner, arena: poolSizesOfPlan(buffers, plan).get(ARENA.name) ?? 0, ms });
  };
  let stats: AutoStats | undefined;
  for (const name of listPlanningAlgorithms()) {
    if (name === 'hill_climb' && set.kind === 'irregular' && !TVM_HILL_CLIMB_SETS.has(set.name)) continue;
    if (name === 'auto') {
      // planAuto is what the registered `auto` runs; called directly for its statistics.
      const { value, ms } = timed(() => planAuto(buffers, bound));
      stats = value.stats;
      record(name, value.plan, ms);
      continue;
    }
    const { value, ms } = timed(() => getPlanningAlgorithm(name)(buffers, bound));
    record(name, value, ms);
  }
  const greedyRuns = Array.from({ length: GREEDY_TIMING_RUNS }, () => timed(() => planAuto(buffers, bound, { timeBudgetMs: 0 }).plan));
  record('auto (greedy phase only)', greedyRuns[0].value, Math.min(...greedyRuns.map((r) => r.ms)));
  const refIntervals: RefInterval[] = set.intervals.map((iv) => ({ ...iv, alignment: ALIGNMENT }));
  const tflm = timed(() => tflmGreedyPlan(refIntervals));
  record('ref: TFLM GreedyMemoryPlanner', refToPlan(tflm.value, buffers), tflm.ms);
  const vela = timed(() => velaPlan(refIntervals));
  record('ref: Vela 3.10 HillClimb', refToPlan(vela.value, buffers), vela.ms);
  return { rows, bound, stats: stats! };
}

const overhead = (arena: number, bound: number): number => (bound === 0 ? 0 : ((arena - bound) / bound) * 100);

function printTable(set: BenchSet, bound: number, rows: Row[], stats: AutoStats): void {
  console.log(
    `\n${set.name} (${set.family ?? set.kind}, ${set.intervals.length} buffers), lower bound ${bound} B; ` +
      `auto: start ${stats.initialOrder}, plan from ${stats.strategy}`,
  );
  console.log(`  ${'planner'.padEnd(32)} ${'arena B'.padStart(12)} ${'overhead %'.padStart(11)} ${'ms'.padStart(9)}`);
  for (const r of rows) {
    console.log(
      `  ${r.planner.padEnd(32)} ${String(r.arena).padStart(12)} ${overhead(r.arena, bound).toFixed(3).padStart(11)} ${r.ms.toFixed(1).padStart(9)}`,
    );
  }
}

interface FamilyResult {
  readonly overheads: number[];
  autoMaxMs: number;
  greedyMaxMs: number;
  notAboveTflm: number;
  notAboveVela: number;
  sets: number;
}

function main(): void {
  const t0 = performance.now();
  const checks: string[] = [];
  const fail = (message: string) => checks.push(`FAIL ${message}`);
  let cnnMisses = 0;
  const families = new Map<string, FamilyResult>();
  const sets = benchSets();
  // One small run first, so the timings below do not include compiling the planner.
  const warmUp = sets.find((s) => s.kind === 'irregular');
  if (warmUp) runSet({ ...warmUp, intervals: warmUp.intervals.slice(0, 300) });
  for (const set of sets) {
    const { rows, bound, stats } = runSet(set);
    printTable(set, bound, rows, stats);
    const get = (p: string) => rows.find((r) => r.planner === p)!;
    const auto = get('auto');
    const greedy = get('auto (greedy phase only)');
    if (set.kind === 'cnn') {
      if (auto.arena !== bound) {
        cnnMisses++;
        fail(`${set.name}: auto ${auto.arena} B misses the bound ${bound} B`);
      }
      continue;
    }
    const name = set.family ?? 'irregular';
    if (!families.has(name)) families.set(name, { overheads: [], autoMaxMs: 0, greedyMaxMs: 0, notAboveTflm: 0, notAboveVela: 0, sets: 0 });
    const f = families.get(name)!;
    f.sets++;
    f.overheads.push(overhead(auto.arena, bound));
    f.autoMaxMs = Math.max(f.autoMaxMs, auto.ms);
    f.greedyMaxMs = Math.max(f.greedyMaxMs, greedy.ms);
    const tflm = get('ref: TFLM GreedyMemoryPlanner').arena;
    const vela = get('ref: Vela 3.10 HillClimb').arena;
    if (auto.arena <= tflm) f.notAboveTflm++;
    else fail(`${set.name}: auto ${auto.arena} B > TFLM greedy ${tflm} B`);
    if (auto.arena <= vela) f.notAboveVela++;
    else fail(`${set.name}: auto ${auto.arena} B > Vela 3.10 HillClimb ${vela} B`);
    // Past 1 s the wall-clock cap has cut in, and the plan then depends on the machine's speed.
    if (auto.ms > 1000) fail(`${set.name}: auto took ${auto.ms.toFixed(0)} ms (> 1 s)`);
    if (greedy.ms > 50) fail(`${set.name}: auto's greedy phase took ${greedy.ms.toFixed(1)} ms (> 50 ms)`);
  }
  console.log('');
  const compileFailure = compileTimeBench();
  if (compileFailure) fail(compileFailure);
  for (const f of wideCompileBench()) fail(f);
  const familyLines: string[] = [];
  for (const [name, f] of families) {
    const mean = f.overheads.reduce((a, b) => a + b, 0) / f.overheads.length;
    const max = Math.max(...f.overheads);
    const target = MEAN_OVERHEAD_TARGETS[name];
    if (target !== undefined && mean > target) fail(`${name}: mean overhead of auto ${mean.toFixed(3)}% > ${target.toFixed(2)}%`);
    familyLines.push(
      `  ${name}: ${f.sets} sets, auto mean overhead ${mean.toFixed(3)}% (max ${max.toFixed(3)}%; ` +
        `${target === undefined ? 'no target' : `target <= ${target.toFixed(2)}%`}), ` +
        `<= TFLM on ${f.notAboveTflm}/${f.sets}, <= Vela on ${f.notAboveVela}/${f.sets}, ` +
        `max time ${f.autoMaxMs.toFixed(0)} ms, greedy phase max ${f.greedyMaxMs.toFixed(1)} ms`,
    );
  }
  for (const f of runModelTable(path.resolve(__dirname, '..', '..', 'models'))) fail(f);
  console.log('');
  for (const c of checks) console.log(c);
  const cnnSets = sets.filter((s) => s.kind === 'cnn').length;
  console.log(
    `summary: ${checks.length === 0 ? 'PASS' : 'FAIL'} — auto hits the bound on ${cnnSets - cnnMisses}/${cnnSets} CNN-like sets; ` +
      `total ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  for (const line of familyLines) console.log(line);
  const portfolio = portfolioSection(portfolioSets());
  const scale = scaleSection();
  const cold = coldRunSection();
  const extra = [...portfolio, ...scale, ...cold];
  for (const c of extra) console.log(c);
  console.log(`portfolio, scale and cold runs: ${extra.length === 0 ? 'PASS' : 'FAIL'}; total ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main();
