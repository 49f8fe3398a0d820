/**
 * Fuzzing `uma-ts plan` with buffer sets, text and JSON, sane and broken: every algorithm
 * either gives a plan the verifier accepts (planBufferSet verifies before printing) or one
 * `error:` line.
 */
import fc from 'fast-check';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { listPlanningAlgorithms } from '../../src/usmp/algo/registry';
import { assertCleanOutcome, FUZZ_SEED, runCli } from './harness';

let dir: string;
let counter = 0;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-fuzz-sets-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(text: string): string {
  counter += 1;
  const p = path.join(dir, `set${counter}`);
  fs.writeFileSync(p, text);
  return p;
}

const ALGORITHMS = listPlanningAlgorithms();
const size = fc.oneof({ weight: 8, arbitrary: fc.nat(4096) }, { weight: 1, arbitrary: fc.constantFrom(2 ** 31, 2 ** 32, 2 ** 53 - 1, 2 ** 53, -1, 0.5) });
const align = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(1, 2, 4, 8, 16, 64) }, { weight: 1, arbitrary: fc.constantFrom(0, 3, 2 ** 31, 2 ** 32, 3 * 2 ** 32, 2 ** 40) });

/** A JSON buffer set: buffers over a few pools, conflicts among the buffers (some unknown). */
const jsonSet = fc
  .record({
    pools: fc.array(
      fc.record({ name: fc.constantFrom('p0', 'p1', 'p2'), sizeHintBytes: size, alignment: align }, { requiredKeys: ['name'] }),
      { minLength: 1, maxLength: 3 },
    ),
    count: fc.integer({ min: 0, max: 12 }),
    seedEdges: fc.array(fc.tuple(fc.nat(15), fc.nat(15)), { maxLength: 30 }),
    sizes: fc.array(size, { minLength: 12, maxLength: 12 }),
    candidates: fc.array(fc.subarray(['p0', 'p1', 'p2', 'px'], { minLength: 1 }), { minLength: 12, maxLength: 12 }),
    alignment: fc.option(align, { nil: undefined }),
    memoryPressure: fc.option(fc.nat(10000), { nil: undefined }),
  })
  .map((r) => ({
    pools: r.pools,
    buffers: Array.from({ length: r.count }, (_, i) => ({
      name: `b${i}`,
      size: r.sizes[i],
      candidatePools: r.candidates[i],
      conflicts: r.seedEdges.filter(([a]) => a === i).map(([, b]) => `b${b}`),
      ...(r.alignment !== undefined && i % 3 === 0 ? { alignment: r.alignment } : {}),
    })),
    ...(r.memoryPressure !== undefined ? { memoryPressure: r.memoryPressure } : {}),
  }));

/** Interval text: `size first last` lines, with some broken ones. */
const intervalLine = fc.oneof(
  { weight: 10, arbitrary: fc.tuple(fc.nat(4096), fc.nat(20), fc.nat(20)).map(([s, a, b]) => `${s} ${Math.min(a, b)} ${Math.max(a, b)}`) },
  { weight: 1, arbitrary: fc.constantFrom('1 5 2', '99999999999999999999 0 1', '2147483648 0 2147483648', 'x y z', '1 2', '# c', '') },
);
const intervalText = fc.array(intervalLine, { maxLength: 25 }).map((lines) => lines.join('\n'));

describe('fuzz: buffer sets through uma-ts plan', () => {
  it('JSON buffer sets, every algorithm', async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(jsonSet, fc.constantFrom(...ALGORITHMS), async (set, algorithm) => {
        const r = await runCli(['plan', file(JSON.stringify(set)), '--algorithm', algorithm, '--time-budget', '20', '--seed', '1']);
        assertCleanOutcome(r);
        seen.add(r.code);
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
    expect([...seen].sort()).toEqual([0, 1]);
  });

  it('interval text, every algorithm, plans verified and printed as JSON', async () => {
    await fc.assert(
      fc.asyncProperty(intervalText, fc.constantFrom(...ALGORITHMS), async (text, algorithm) => {
        const r = await runCli(['plan', file(text), '--algorithm', algorithm, '--json', '--time-budget', '20']);
        assertCleanOutcome(r);
        if (r.code === 0) expect(JSON.parse(r.stdout).algorithm).toBe(algorithm);
      }),
      { seed: FUZZ_SEED, numRuns: 100 },
    );
  });

  it('damaged text and flags', async () => {
    const junk = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('{', '{"pools": []}', '{"pools": [{"name": "p"}], "buffers": [{}]}', 'null', '[]'));
    const flags = fc.subarray(['--algorithm', 'nosuch', '--time-budget', '-5', '--seed', '1e99', '--json']);
    await fc.assert(
      fc.asyncProperty(junk, flags, async (text, extra) => {
        assertCleanOutcome(await runCli(['plan', file(text), ...extra]));
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
  });
});
