/**
 * `auto` counts its work and never reads the clock to decide anything up to 5000 buffers: the
 * same buffer set gives the same plan (and the same claims) twice in one process, under a clock
 * that jumps a second at every reading, and in another process.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { performance as perfHooksPerformance } from 'node:perf_hooks';
import { MemoryPlanReport, planBufferSet } from '../../src/cli/plan';
import { parseBufferSet } from '../../src/usmp/bufferSet';
import { seededRandom } from '../../src/util/random';
import { requireFromRoot, tsChildScript } from '../helpers/tsChild';

const ROOT = path.join(__dirname, '..', '..');

/** `count` random live ranges over `ops` operators, sizes log-uniform 16 B .. 64 KiB (multiples of 16). */
function ranges(seed: number, count: number, ops: number): { size: number; first: number; last: number }[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const first = Math.floor(random() * ops);
    const length = 1 + Math.floor(random() * random() * 80);
    return { size: 16 * Math.ceil(2 ** (4 + random() * 12) / 16), first, last: Math.min(ops - 1, first + length - 1) };
  });
}

/** Interval text, one pool: the exact core's path. */
function intervalText(seed: number, count: number, ops: number): string {
  return ranges(seed, count, ops).map((r) => `${r.size} ${r.first} ${r.last}`).join('\n');
}

/** Two pools (a size-limited SRAM), some buffers pinned, conflicts listed as the overlaps: the multi-pool path. */
function pinnedJson(seed: number, count: number, ops: number): string {
  const rs = ranges(seed, count, ops);
  const random = seededRandom(seed + 1);
  const live = new Float64Array(ops);
  for (const r of rs) for (let t = r.first; t <= r.last; t++) live[t] += r.size;
  const order = rs.map((_, i) => i).sort((a, b) => rs[a].first - rs[b].first);
  const conflicts: string[][] = rs.map(() => []);
  for (let x = 0; x < order.length; x++) {
    for (let y = x + 1; y < order.length && rs[order[y]].first <= rs[order[x]].last; y++) {
      conflicts[order[x]].push(`b${order[y]}`);
      conflicts[order[y]].push(`b${order[x]}`);
    }
  }
  return JSON.stringify({
    pools: [
      { name: 'sram', sizeHintBytes: Math.floor(Math.max(...live) / 3), alignment: 16 },
      { name: 'dram', alignment: 16 },
    ],
    buffers: rs.map((r, i) => {
      const u = random();
      return {
        name: `b${i}`,
        size: r.size,
        candidatePools: u < 0.15 && r.size <= 4096 ? ['sram'] : u < 0.25 ? ['dram'] : ['sram', 'dram'],
        conflicts: conflicts[i],
        liveRange: [r.first, r.last],
      };
    }),
  });
}

/** Conflict lists without live ranges (some one-way), two pools: the climb and the local search. */
function listsJson(seed: number, count: number): string {
  const random = seededRandom(seed);
  const lists: string[][] = Array.from({ length: count }, () => []);
  for (let e = 0; e < count * 6; e++) {
    const a = Math.floor(random() * count);
    const b = Math.min(count - 1, a + 1 + Math.floor(random() * 30));
    lists[a].push(`b${b}`);
    if (random() < 0.9) lists[b].push(`b${a}`);
  }
  return JSON.stringify({
    pools: [{ name: 'sram', sizeHintBytes: 200_000, alignment: 8 }, { name: 'dram' }],
    buffers: lists.map((l, i) => ({ name: `b${i}`, size: 16 + Math.floor(random() * 4000), candidatePools: ['sram', 'dram'], conflicts: l })),
  });
}

let dir: string;
const files: string[] = [];
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-determinism-'));
  const sets: [string, string][] = [
    ['intervals-5000.txt', intervalText(21, 5000, 2000)],
    ['pinned-1500.json', pinnedJson(22, 1500, 600)],
    ['lists-400.json', listsJson(23, 400)],
  ];
  for (const [name, text] of sets) {
    files.push(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name), text);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The plan and its claims, without the time it took. */
function planOf(file: string): Omit<MemoryPlanReport, 'planMs'> {
  const { planMs: _ms, ...rest } = planBufferSet(parseBufferSet(fs.readFileSync(file, 'utf8'), file), 'auto');
  return rest;
}

/**
 * The child plans with src/ transpiled on load (the test must not depend on a dist/ build) and
 * prints the plans as one JSON array.
 */
const CHILD = tsChildScript(`
const { planBufferSet } = ${requireFromRoot('src/cli/plan.ts')};
const { parseBufferSet } = ${requireFromRoot('src/usmp/bufferSet.ts')};
const plans = process.argv.slice(1).map((file) => {
  const { planMs, ...rest } = planBufferSet(parseBufferSet(fs.readFileSync(file, 'utf8'), file), 'auto');
  return rest;
});
process.stdout.write(JSON.stringify(plans));
`);

describe('auto: the same plan every time', () => {
  const inProcess: Omit<MemoryPlanReport, 'planMs'>[] = [];

  it('twice in one process, the second time under a clock that jumps a second at every reading', () => {
    // auto reads node:perf_hooks' performance, the global one.
    expect(perfHooksPerformance).toBe(globalThis.performance);
    for (const f of files) inProcess.push(planOf(f));
    let t = 0;
    const clock = jest.spyOn(globalThis.performance, 'now').mockImplementation(() => (t += 1000));
    try {
      files.forEach((f, i) => expect([path.basename(f), planOf(f)]).toEqual([path.basename(f), inProcess[i]]));
    } finally {
      clock.mockRestore();
    }
    expect(t).toBeGreaterThan(0);
    // Not the trivial case: the sets are above their bounds, so the searches ran to their budgets.
    expect(inProcess.filter((p) => !p.provenOptimal).length).toBeGreaterThan(0);
  });

  it('in another process', () => {
    const r = spawnSync(process.execPath, ['-e', CHILD, ...files], { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const child = JSON.parse(r.stdout) as Omit<MemoryPlanReport, 'planMs'>[];
    files.forEach((f, i) => expect([path.basename(f), child[i]]).toEqual([path.basename(f), inProcess[i]]));
  });
});
