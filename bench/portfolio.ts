/**
 * Bench sections for issue 15 (the portfolio of `auto`) and issue 14 (scale):
 *  - portfolio families at 2,000 and 10,000 buffers: uniform, heavy-tailed, long and medium
 *    lifetimes (one arena, against TFLite Micro's greedy and Vela 3.10's hill climb), and multi-pool
 *    with pins (a small SRAM with a size limit and a large DRAM; some buffers pinned to one of them;
 *    from the uniform sets, and from the long- and medium-lifetime ones up to 2,000 buffers),
 *    reporting overhead over the lower bound, how many plans are proven optimal, and time;
 *  - scale: `uma-ts plan` on 100k interval buffers and on a 20k all-live set with
 *    greedy_by_size and the default algorithm, in a child process, with its time and peak RSS.
 * Above 5,000 buffers (the 10,000-buffer sets) each plan is made again with no clock at all: the
 * counted budgets must end the call, not auto's safety cap (safetyClock.ts), so both plans are
 * the same.
 * Returns the failed checks (2,000-buffer sets: auto no worse than either reference, under 1 s;
 * above 5,000 buffers: ended by the counted work, the same plan without a clock; scale: greedy
 * under 10 s, auto under 30 s, each under 1 GB).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AutoStats, planAuto } from '../src/usmp/algo/auto';
import { UNCAPPED_UP_TO } from '../src/usmp/algo/safetyClock';
import { getPlanningAlgorithm } from '../src/usmp/algo/registry';
import { seededRandom } from '../src/usmp/algo/seededRandom';
import { intervalsToBufferInfos, lowerBoundOfBuffers } from '../src/usmp/conflicts';
import { BufferInfo, BufferPlan, PoolInfo } from '../src/usmp/types';
import { poolSizesOfPlan, verifyPlan } from '../src/usmp/verify';
import { BenchSet } from './generators';
import { RefInterval } from './reference/interval';
import { tflmGreedyPlan } from './reference/tflmGreedy';
import { velaPlan } from './velaPlan';

const ALIGNMENT = 16;
const pool = (name: string, sizeHintBytes?: number): PoolInfo => ({
  name,
  kind: 'workspace',
  targetAccess: { c: 'rw' },
  alignment: ALIGNMENT,
  sizeHintBytes,
  internal: true,
});

const total = (buffers: readonly BufferInfo[], plan: BufferPlan): number => [...poolSizesOfPlan(buffers, plan).values()].reduce((a, b) => a + b, 0);
/** x's overhead over the bound, in percent. */
export const pct = (x: number, bound: number) => (bound === 0 ? 0 : ((x - bound) / bound) * 100);

interface FamilyLine {
  sets: number;
  overheads: number[];
  proven: number;
  maxMs: number;
  /** Of the sets compared with the references (`compared`), those where auto is no larger than the best. */
  ahead: number;
  compared: number;
  /** Whether the references compared include Vela (run up to 2,000 buffers). */
  withVela: boolean;
  /** Above UNCAPPED_UP_TO buffers (checked: the sets checked), the sets whose call ended by its counted work (endedByWork). */
  byWork: number;
  checked: number;
}

/** The set's intervals as buffers of one arena (aligned as the set says, else to 16 bytes). */
export function arenaBuffers(set: BenchSet): BufferInfo[] {
  const alignment = set.alignment ?? ALIGNMENT;
  return intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment })),
    [{ ...pool('arena'), alignment }],
  );
}

/** One arena planned by `auto`, with TFLite Micro's greedy plan and (up to 2,000 buffers) Vela's beside it. */
export interface ReferenceComparison {
  readonly buffers: BufferInfo[];
  readonly plan: BufferPlan;
  readonly bound: number;
  readonly auto: number;
  readonly stats: AutoStats;
  readonly ms: number;
  readonly tflm: number;
  /** NaN above 2,000 buffers (Vela's climb there would take minutes). */
  readonly vela: number;
}

export function compareWithReferences(set: BenchSet): ReferenceComparison {
  const buffers = arenaBuffers(set);
  const bound = lowerBoundOfBuffers(buffers);
  const t0 = performance.now();
  const { plan, stats } = planAuto(buffers, bound);
  const ms = performance.now() - t0;
  verifyPlan(buffers, plan);
  const alignment = set.alignment ?? ALIGNMENT;
  const end = (offsets: readonly number[]) => Math.max(...offsets.map((o, i) => o + set.intervals[i].size));
  // TFLite Micro's arena rounds each size up to its alignment; its plan's end counts the
  // sizes as given (the last buffer's padding is not memory it uses).
  const tflm = end(tflmGreedyPlan(set.intervals.map((iv) => ({ ...iv, size: Math.ceil(iv.size / alignment) * alignment, alignment }))).offsets);
  const refs: RefInterval[] = set.intervals.map((iv) => ({ ...iv, alignment }));
  const vela = set.intervals.length <= 2000 ? end(velaPlan(refs).offsets) : NaN;
  return { buffers, bound, plan, auto: total(buffers, plan), stats, ms, tflm, vela };
}

/**
 * The families whose sets (up to 2,000 buffers) also get pins, beside the uniform ones: there
 * the pools' packings after the search make the plan, and a call took 1-2 s cold before the
 * search on such dense multi-pool sets was cut to about one placement (thirty-fourth session).
 */
const PINNED_DENSE_FAMILIES = new Set(['long lifetimes', 'medium lifetimes']);

/** A set as the multi-pool family with pins plans it (coldRuns.ts writes it out as JSON). */
export function pinnedBufferSet(set: BenchSet): BufferInfo[] {
  return withPins(set, arenaBuffers(set));
}

/** Multi-pool with pins: SRAM limited to a third of the bound; 15% pinned to SRAM (small ones), 10% to DRAM. */
function withPins(set: BenchSet, buffers: readonly BufferInfo[]): BufferInfo[] {
  const bound = lowerBoundOfBuffers(buffers);
  const sram = pool('sram', Math.floor(bound / 3));
  const dram = pool('dram');
  const random = seededRandom(set.intervals.length + set.name.length);
  return buffers.map((b) => {
    const r = random();
    const candidates = r < 0.15 && b.sizeBytes <= 4096 ? [sram] : r < 0.25 ? [dram] : [sram, dram];
    return { ...b, conflicts: [...b.conflicts], poolCandidates: candidates };
  });
}

/**
 * Above UNCAPPED_UP_TO buffers: whether the call ended by its counted work, not the safety
 * clock: the clock did not run out, and the same buffers planned with no clock at all give the
 * same plan. The line's note, and a failed check otherwise.
 */
function endedByWork(name: string, buffers: readonly BufferInfo[], bound: number, plan: BufferPlan, stats: AutoStats, fails: string[]): boolean {
  const again = planAuto(buffers, bound, { timeBudgetMs: Infinity }).plan;
  const same = buffers.every((b) => {
    const x = plan.get(b.name)!;
    const y = again.get(b.name)!;
    return x.pool === y.pool && x.offset === y.offset;
  });
  if (stats.timeCapReached) fails.push(`FAIL ${name}: auto's safety clock cut in (the plan depends on speed)`);
  if (!same) fails.push(`FAIL ${name}: auto planned otherwise without a clock`);
  return same && !stats.timeCapReached;
}
const byWorkNote = (ok: boolean) => (ok ? '  ended by work (same plan, no clock)' : '  ENDED BY THE CLOCK');

export function portfolioSection(sets: readonly BenchSet[]): string[] {
  const fails: string[] = [];
  const families = new Map<string, FamilyLine>();
  const note = (family: string, overhead: number, proven: boolean, ms: number, ahead?: boolean, withVela = false, byWork?: boolean) => {
    const f = families.get(family) ?? { sets: 0, overheads: [], proven: 0, maxMs: 0, ahead: 0, compared: 0, withVela, byWork: 0, checked: 0 };
    f.sets++;
    f.overheads.push(overhead);
    if (proven) f.proven++;
    if (byWork !== undefined) f.checked++;
    if (byWork) f.byWork++;
    f.maxMs = Math.max(f.maxMs, ms);
    if (ahead !== undefined) {
      f.compared++;
      if (ahead) f.ahead++;
    }
    families.set(family, f);
  };
  console.log('\nportfolio families (auto vs TFLite Micro greedy and Vela 3.10 HillClimb)');
  for (const set of sets) {
    const n = set.intervals.length;
    const { buffers, bound, plan, auto: autoTotal, stats, ms, tflm, vela } = compareWithReferences(set);
    const family = `${set.family} ${n}`;
    const best = Math.min(tflm, Number.isNaN(vela) ? Infinity : vela);
    const byWork = n > UNCAPPED_UP_TO ? endedByWork(set.name, buffers, bound, plan, stats, fails) : undefined;
    note(family, pct(autoTotal, bound), stats.provenOptimal, ms, autoTotal <= best, !Number.isNaN(vela), byWork);
    console.log(
      `  ${set.name.padEnd(24)} bound ${String(bound).padStart(9)}  auto ${pct(autoTotal, bound).toFixed(3).padStart(7)}% ` +
        `${stats.provenOptimal ? 'proven ' : 'gap    '} ${stats.strategy.padEnd(16)} ${ms.toFixed(0).padStart(5)} ms  ` +
        `TFLM ${pct(tflm, bound).toFixed(3).padStart(7)}%  Vela ${Number.isNaN(vela) ? '      -' : pct(vela, bound).toFixed(3).padStart(7)}%` +
        (byWork !== undefined ? byWorkNote(byWork) : ''),
    );
    if (n <= 2000) {
      if (autoTotal > tflm) fails.push(`FAIL ${set.name}: auto ${autoTotal} B > TFLM greedy ${tflm} B`);
      if (autoTotal > vela) fails.push(`FAIL ${set.name}: auto ${autoTotal} B > Vela 3.10 HillClimb ${vela} B`);
      if (ms > 1000) fails.push(`FAIL ${set.name}: auto took ${ms.toFixed(0)} ms (> 1 s)`);
    }
    if (set.family === 'uniform' || (PINNED_DENSE_FAMILIES.has(set.family ?? '') && n <= 2000)) {
      const pinned = withPins(set, buffers);
      const pinnedBound = lowerBoundOfBuffers(pinned);
      const t1 = performance.now();
      const r = planAuto(pinned, pinnedBound);
      const pinnedMs = performance.now() - t1;
      verifyPlan(pinned, r.plan);
      let greedy = NaN;
      try {
        greedy = total(pinned, getPlanningAlgorithm('greedy_by_size')(pinned, pinnedBound));
      } catch {
        // TVM's greedy fills the SRAM with free buffers before the pinned ones: no plan.
      }
      const pinnedTotal = total(pinned, r.plan);
      const pinnedByWork = n > UNCAPPED_UP_TO ? endedByWork(`${set.name} +pins`, pinned, pinnedBound, r.plan, r.stats, fails) : undefined;
      note(`multi-pool with pins${set.family === 'uniform' ? '' : ` (${set.family})`} ${n}`, pct(pinnedTotal, pinnedBound), r.stats.provenOptimal, pinnedMs, undefined, false, pinnedByWork);
      console.log(
        `  ${`${set.name} +pins`.padEnd(24)} bound ${String(pinnedBound).padStart(9)}  auto ${pct(pinnedTotal, pinnedBound).toFixed(3).padStart(7)}% ` +
          `${r.stats.provenOptimal ? 'proven ' : 'gap    '} ${r.stats.strategy.padEnd(16)} ${pinnedMs.toFixed(0).padStart(5)} ms  ` +
          `greedy_by_size ${Number.isNaN(greedy) ? 'fails' : `${pct(greedy, pinnedBound).toFixed(3)}%`}` +
          (pinnedByWork !== undefined ? byWorkNote(pinnedByWork) : ''),
      );
      if (n <= 2000 && pinnedMs > 1000) fails.push(`FAIL ${set.name} +pins: auto took ${pinnedMs.toFixed(0)} ms (> 1 s)`);
    }
  }
  for (const [name, f] of families) {
    const mean = f.overheads.reduce((a, b) => a + b, 0) / f.sets;
    console.log(
      `  ${name}: ${f.sets} sets, auto mean overhead ${mean.toFixed(3)}% (max ${Math.max(...f.overheads).toFixed(3)}%), ` +
        `proven optimal ${f.proven}/${f.sets}, ` +
        (f.compared > 0 ? `<= the best of TFLM${f.withVela ? ' and Vela' : ''} on ${f.ahead}/${f.compared}, ` : '') +
        (f.checked > 0 ? `ended by work ${f.byWork}/${f.checked}, ` : '') +
        `max time ${f.maxMs.toFixed(0)} ms`,
    );
  }
  return fails;
}

/** Writes a text buffer set: `count` random intervals, or all live at once. */
function writeIntervals(file: string, count: number, allLive: boolean): void {
  const random = seededRandom(count);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const size = 16 + Math.floor(random() * 65520);
    const first = allLive ? 0 : Math.floor(random() * count);
    const last = allLive ? 10 : first + Math.floor(random() * 200);
    lines.push(`${size} ${first} ${last}`);
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

export function scaleSection(): string[] {
  const fails: string[] = [];
  const cli = path.join(__dirname, '..', '..', 'bin', 'uma-ts.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-scale-'));
  // Reports the child's peak RSS on exit, without touching the CLI.
  const probe = path.join(dir, 'rss.js');
  fs.writeFileSync(probe, "process.on('exit', () => process.stderr.write(`\\nmaxRSS ${process.resourceUsage().maxRSS}\\n`));\n");
  console.log('\nscale: uma-ts plan in a child process');
  try {
    for (const [name, count, allLive] of [
      ['100k intervals', 100_000, false],
      ['20k all live', 20_000, true],
    ] as const) {
      const file = path.join(dir, `${count}.txt`);
      writeIntervals(file, count, allLive);
      for (const [algorithm, limitS] of [
        ['greedy_by_size', 10],
        ['auto', 30],
      ] as const) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, ['--require', probe, cli, 'plan', file, '--algorithm', algorithm], {
          encoding: 'utf8',
          maxBuffer: 1 << 30,
        });
        const s = (performance.now() - t0) / 1000;
        const rssMb = Number(/maxRSS (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
        const totalLine = r.stdout.split('\n')[1] ?? '';
        console.log(`  ${name.padEnd(16)} ${algorithm.padEnd(15)} ${s.toFixed(1).padStart(6)} s  ${rssMb.toFixed(0).padStart(5)} MB  ${totalLine}`);
        if (r.status !== 0) fails.push(`FAIL scale ${name} ${algorithm}: exit ${r.status}: ${r.stderr.split('\n')[0]}`);
        if (s > limitS) fails.push(`FAIL scale ${name} ${algorithm}: ${s.toFixed(1)} s (> ${limitS} s)`);
        if (!(rssMb < 1024)) fails.push(`FAIL scale ${name} ${algorithm}: ${rssMb.toFixed(0)} MB (>= 1 GB)`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return fails;
}
