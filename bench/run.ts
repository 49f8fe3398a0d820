/**
 * `npm run bench`: every planner on CNN-like and irregular buffer sets, against the lower bound
 * (peak live bytes) and two reference planners (TFLite Micro greedy, Vela hill climb). Prints one
 * table per set and a summary checking the targets of `auto`.
 */
import { performance } from 'node:perf_hooks';
import { getPlanningAlgorithm, listPlanningAlgorithms } from '../src/usmp/algo/registry';
import { planAuto } from '../src/usmp/algo/auto';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../src/usmp/verify';
import { BufferInfo, BufferPlan, PoolInfo } from '../src/usmp/types';
import { BenchSet, benchSets } from './generators';
import { RefInterval, RefPlan } from './reference/interval';
import { tflmGreedyPlan } from './reference/tflmGreedy';
import { velaHillClimbPlan } from './reference/velaHillClimb';

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

function runSet(set: BenchSet): { rows: Row[]; bound: number } {
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
  for (const name of listPlanningAlgorithms()) {
    const { value, ms } = timed(() => getPlanningAlgorithm(name)(buffers, bound));
    record(name, value, ms);
  }
  const greedyOnly = timed(() => planAuto(buffers, bound, { timeBudgetMs: 0 }).plan);
  record('auto (greedy phase only)', greedyOnly.value, greedyOnly.ms);
  const refIntervals: RefInterval[] = set.intervals.map((iv) => ({ ...iv, alignment: ALIGNMENT }));
  const tflm = timed(() => tflmGreedyPlan(refIntervals));
  record('ref: TFLM GreedyMemoryPlanner', refToPlan(tflm.value, buffers), tflm.ms);
  const vela = timed(() => velaHillClimbPlan(refIntervals));
  record('ref: Vela HillClimb', refToPlan(vela.value, buffers), vela.ms);
  return { rows, bound };
}

const overhead = (arena: number, bound: number): number => (bound === 0 ? 0 : ((arena - bound) / bound) * 100);

function printTable(set: BenchSet, bound: number, rows: Row[]): void {
  console.log(`\n${set.name} (${set.kind}, ${set.intervals.length} buffers), lower bound ${bound} B`);
  console.log(`  ${'planner'.padEnd(32)} ${'arena B'.padStart(12)} ${'overhead %'.padStart(11)} ${'ms'.padStart(9)}`);
  for (const r of rows) {
    console.log(
      `  ${r.planner.padEnd(32)} ${String(r.arena).padStart(12)} ${overhead(r.arena, bound).toFixed(3).padStart(11)} ${r.ms.toFixed(1).padStart(9)}`,
    );
  }
}

function main(): void {
  const t0 = performance.now();
  const checks: string[] = [];
  let ok = true;
  const irregularOverheads: number[] = [];
  for (const set of benchSets()) {
    const { rows, bound } = runSet(set);
    printTable(set, bound, rows);
    const get = (p: string) => rows.find((r) => r.planner === p)!;
    const auto = get('auto');
    const greedy = get('auto (greedy phase only)');
    if (set.kind === 'cnn') {
      if (auto.arena !== bound) {
        ok = false;
        checks.push(`FAIL ${set.name}: auto ${auto.arena} B misses the bound ${bound} B`);
      }
    } else {
      irregularOverheads.push(overhead(auto.arena, bound));
      const refBest = Math.min(get('ref: TFLM GreedyMemoryPlanner').arena, get('ref: Vela HillClimb').arena);
      if (auto.arena > refBest) {
        ok = false;
        checks.push(`FAIL ${set.name}: auto ${auto.arena} B does not beat the references (${refBest} B)`);
      }
      if (auto.ms > 1100) {
        ok = false;
        checks.push(`FAIL ${set.name}: auto took ${auto.ms.toFixed(0)} ms (> 1 s)`);
      }
      if (greedy.ms > 50) {
        ok = false;
        checks.push(`FAIL ${set.name}: auto's greedy phase took ${greedy.ms.toFixed(1)} ms (> 50 ms)`);
      }
    }
  }
  const mean = irregularOverheads.reduce((a, b) => a + b, 0) / Math.max(1, irregularOverheads.length);
  if (mean > 0.1) {
    ok = false;
    checks.push(`FAIL mean overhead of auto on irregular sets ${mean.toFixed(3)}% > 0.10%`);
  }
  console.log('');
  for (const c of checks) console.log(c);
  console.log(
    `summary: ${ok ? 'PASS' : 'FAIL'} — auto hits the bound on every CNN-like set: ` +
      `${checks.some((c) => c.includes('misses the bound')) ? 'no' : 'yes'}; ` +
      `irregular sets: mean overhead ${mean.toFixed(3)}% (target <= 0.10%), beats both references: ` +
      `${checks.some((c) => c.includes('does not beat')) ? 'no' : 'yes'}; total ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}

main();
