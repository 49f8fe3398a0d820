import Ajv from 'ajv';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../src/cli/main';
import { memoryIO } from '../../src/cli/io';
import { randomIntervals as randomBenchSet } from '../../bench/generators';

const schema = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'schemas', 'memory-plan.schema.json'), 'utf8'));
const validatePlan = new Ajv({ strict: false }).compile(schema);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-plan-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

async function run(...args: string[]) {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', 'plan', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

// A chain 100 -> 300 -> 200 with the first tensor kept alive for a residual add.
const CHAIN = '100 0 2\n300 1 1\n200 2 3\n50 3 4\n';

describe('uma-ts plan', () => {
  test('--json output follows the schema and reaches the bound on a chain', async () => {
    const r = await run(write('chain.txt', CHAIN), '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(validatePlan(doc)).toBe(true);
    expect(doc.algorithm).toBe('auto');
    expect(doc.lowerBound).toBe(400); // op 1: 100 + 300; op 2: 100 + 200
    expect(doc.pools).toEqual([{ name: 'global_workspace', size: 400 }]);
    expect(doc.overheadPercent).toBe(0);
    expect(doc.allocations.map((a: { buffer: string }) => a.buffer)).toEqual(['buf_0', 'buf_1', 'buf_2', 'buf_3']);
  });

  test('--algorithm picks a TVM planner; overhead is reported against the bound', async () => {
    const r = await run(write('chain2.txt', CHAIN), '--algorithm', 'greedy_by_conflicts', '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(validatePlan(doc)).toBe(true);
    expect(doc.algorithm).toBe('greedy_by_conflicts');
    const total = doc.pools[0].size;
    expect(doc.overheadPercent).toBeCloseTo(((total - 400) / 400) * 100, 9);
  });

  test('readable table without --json', async () => {
    const r = await run(write('chain3.txt', CHAIN));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^algorithm: auto/);
    expect(r.out).toMatch(/total: 400 bytes, lower bound: 400 bytes, overhead: 0\.000%/);
    expect(r.out).toMatch(/buffer\s+pool\s+offset\s+size\s+end/);
    expect(r.out).toMatch(/buf_1\s+global_workspace\s+\d+\s+300/);
  });

  test('JSON buffer set with two pools', async () => {
    const doc = {
      pools: [{ name: 'sram', sizeHintBytes: 100 }, { name: 'dram' }],
      buffers: [
        { name: 'x', size: 80, candidatePools: ['sram', 'dram'], conflicts: ['y'] },
        { name: 'y', size: 60, candidatePools: ['sram', 'dram'], conflicts: ['x'] },
      ],
    };
    const r = await run(write('set.json', JSON.stringify(doc)), '--json', '--algorithm', 'greedy_by_size');
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.out);
    expect(validatePlan(plan)).toBe(true);
    expect(plan.pools).toEqual([{ name: 'sram', size: 80 }, { name: 'dram', size: 60 }]);
  });

  test('user errors exit 1 with one line on stderr', async () => {
    const unknown = await run(write('c4.txt', CHAIN), '--algorithm', 'foo');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^error: unknown memory planning algorithm 'foo'; known: auto, greedy_by_conflicts/);

    const badLine = await run(write('bad.txt', '10 0 1\noops\n'));
    expect(badLine.code).toBe(1);
    expect(badLine.err).toMatch(/^error: .*bad\.txt:2: expected/);

    const missing = await run(path.join(dir, 'nope.txt'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: cannot read buffer set/);

    const overflow = await run(
      write('small.json', JSON.stringify({ pools: [{ name: 'p', sizeHintBytes: 10 }], buffers: [{ name: 'a', size: 20, candidatePools: ['p'], conflicts: [] }] })),
    );
    expect(overflow.code).toBe(1);
    expect(overflow.err).toMatch(/^error: the space available in the provided pools exceeded when trying to allocate the buffer: a/);
  });
});

describe('uma-ts plan optimality', () => {
  test('reports a proof or the gap left, in text and JSON', async () => {
    // greedy_by_size stacks 300 on top of 100 and 200 side by side: 500 > 400, not proven.
    const greedy = await run(write('opt.txt', CHAIN), '--algorithm', 'greedy_by_size', '--json');
    const g = JSON.parse(greedy.out);
    expect(validatePlan(g)).toBe(true);
    const total = g.pools[0].size;
    expect(g.provenOptimal).toBe(total === 400);
    expect(g.provenLowerBound).toBe(total === 400 ? total : 400);
    expect(g.gapPercent).toBeCloseTo(((total - 400) / 400) * 100, 2);
    const text = await run(write('opt2.txt', '10 0 0\n10 0 0\n'), '--algorithm', 'auto');
    expect(text.out.split('\n')[2]).toBe('optimality: proven optimal');
    expect(text.out).not.toContain('time cap');
    expect(JSON.parse((await run(write('opt3.txt', CHAIN), '--json')).out)).not.toHaveProperty('timeCapReached');
  });

  test('says when the time budget ended the search: the plan then depends on machine speed', async () => {
    // 2,000 buffers of the bench's shape: planning them takes longer than 1 ms on any machine.
    const file = write('capped.txt', randomBenchSet(3).intervals.map((iv) => `${iv.size} ${iv.first} ${iv.last}`).join('\n') + '\n');
    const text = await run(file, '--time-budget', '1');
    expect(text.code).toBe(0);
    expect(text.out.split('\n')[3]).toBe('search: ended by the time cap: the plan depends on machine speed');
    const doc = JSON.parse((await run(file, '--time-budget', '1', '--json')).out);
    expect(validatePlan(doc)).toBe(true);
    expect(doc.timeCapReached).toBe(true);
  });
});

// Regressions for issue 14 item 1: silently wrong plans and a misleading bound message.
describe('uma-ts plan on 64-bit uses and inconsistent live ranges', () => {
  test.each(['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'])('%s keeps buffers live past 2^31 apart', async (algorithm) => {
    // Before the fix these uses wrapped in an Int32Array: the two lost their conflict, overlapped,
    // and the plan reported 0% overhead with exit 0.
    const r = await run(write(`wrap-${algorithm}.txt`, '64 2147483646 2147483653\n32 2147483651 2147483657\n'), '--algorithm', algorithm, '--json');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.pools).toEqual([{ name: 'global_workspace', size: 96 }]);
    expect(doc.lowerBound).toBe(96);
  });

  test('numbers past 2^53 are one-line errors naming the line', async () => {
    const r = await run(write('huge.txt', '8 0 9007199254740993\n'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: .*huge\.txt:1: number too large/);
    expect(r.err.split('\n')).toHaveLength(1);
  });

  test('live ranges that overlap without listed conflicts are no lower bound, and no error', async () => {
    const set = {
      pools: [{ name: 'p' }],
      buffers: [
        { name: 'a', size: 100, candidatePools: ['p'], conflicts: [], liveRange: [0, 1] },
        { name: 'b', size: 50, candidatePools: ['p'], conflicts: [], liveRange: [1, 2] },
      ],
    };
    const r = await run(write('ranges.json', JSON.stringify(set)), '--json');
    expect(r.err).not.toMatch(/memoryPressure/);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).lowerBound).toBe(100);
  });

  test('a memoryPressure above the plan is named with its file and JSON path', async () => {
    const set = {
      pools: [{ name: 'a' }],
      buffers: [
        { name: 'x', size: 100, candidatePools: ['a'], liveRange: [0, 1] },
        { name: 'y', size: 100, candidatePools: ['a'], liveRange: [2, 3] },
      ],
      memoryPressure: 150,
    };
    const r = await run(write('pressure.json', JSON.stringify(set)));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^error: .*pressure\.json: \/memoryPressure: memoryPressure 150 is not a lower bound: the plan uses 100 bytes in total; give at most 100/);
    expect(r.err.trim().split('\n')).toHaveLength(1);
  });
});

describe('uma-ts plan on TVM\'s fanout case (one-way and self-listed conflicts)', () => {
  const fanout = {
    pools: [{ name: 'global_workspace', alignment: 1 }],
    buffers: Object.entries({
      bi_a: [10, ['bi_b', 'bi_c']],
      bi_b: [20, ['bi_a', 'bi_c', 'bi_e']],
      bi_c: [100, ['bi_e', 'bi_a', 'bi_b', 'bi_d']],
      bi_d: [40, ['bi_b', 'bi_f', 'bi_c', 'bi_e']],
      bi_e: [50, ['bi_c', 'bi_f', 'bi_b', 'bi_d']],
      bi_f: [60, ['bi_d', 'bi_e', 'bi_f']],
      bi_g: [70, ['bi_f']],
    } as Record<string, [number, string[]]>).map(([name, [size, conflicts]]) => ({
      name,
      size,
      alignment: 1,
      candidatePools: ['global_workspace'],
      conflicts,
    })),
  };

  it.each([
    ['greedy_by_size', 190],
    ['greedy_by_conflicts', 320],
    ['hill_climb', 190],
  ])('%s gives TVM\'s pool size %d and notes the one-way conflicts', async (algorithm, size) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-plan-fanout-'));
    try {
      const file = path.join(dir, 'fanout.json');
      fs.writeFileSync(file, JSON.stringify(fanout));
      const io = memoryIO();
      const code = await main(['node', 'uma-ts', 'plan', file, '--algorithm', algorithm, '--json'], io);
      expect(code).toBe(0);
      const report = JSON.parse(io.stdout.join('\n')) as { pools: { name: string; size: number }[] };
      expect(report.pools).toEqual([{ name: 'global_workspace', size }]);
      expect(io.stderr.join('\n')).toMatch(/^note: \d+ conflict\(s\) listed in one direction only \(.*bi_d -> bi_b/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('uma-ts plan: live ranges that overlap where no list says so', () => {
  it('notes the pairs (the lists decide, so they share addresses) and stays quiet where the lists cover the overlaps', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-plan-unlisted-'));
    try {
      const buffer = (name: string, liveRange: [number, number], conflicts: string[]) => ({ name, size: 16, candidatePools: ['p'], liveRange, conflicts });
      const run = async (buffers: object[]) => {
        const file = path.join(dir, 'set.json');
        fs.writeFileSync(file, JSON.stringify({ pools: [{ name: 'p' }], buffers }));
        const io = memoryIO();
        expect(await main(['node', 'uma-ts', 'plan', file, '--json'], io)).toBe(0);
        return { stderr: io.stderr.join('\n'), size: (JSON.parse(io.stdout.join('\n')) as { pools: { size: number }[] }).pools[0].size };
      };
      const unlisted = await run([buffer('a', [0, 1], []), buffer('b', [1, 2], []), buffer('c', [3, 3], [])]);
      expect(unlisted.size).toBe(16);
      expect(unlisted.stderr).toMatch(/^note: buffers live at once that neither lists as a conflict \(a & b\): the conflict lists decide/);
      const listed = await run([buffer('a', [0, 1], ['b']), buffer('b', [1, 2], ['a']), buffer('c', [3, 3], [])]);
      expect(listed.size).toBe(32);
      expect(listed.stderr).toBe('');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('uma-ts plan: names in the plan table', () => {
  it('quotes a name with a newline, a space or an escape, so no row is forged; plain names as they are', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-plan-names-'));
    try {
      const file = path.join(dir, 'set.json');
      const names = ['a\nb 16 16 32', 'c d', 'e\u001b[31m', 'plain_1'];
      fs.writeFileSync(file, JSON.stringify({ pools: [{ name: 'p' }], buffers: names.map((name, i) => ({ name, size: 16, candidatePools: ['p'], liveRange: [i, i] })) }));
      const io = memoryIO();
      expect(await main(['node', 'uma-ts', 'plan', file], io)).toBe(0);
      const lines = io.stdout.join('\n').split('\n');
      const rows = lines.slice(lines.findIndex((l) => l.startsWith('buffer ')) + 1);
      expect(rows.map((r) => r.split(/\s{2,}/)[0])).toEqual(['"a\\nb 16 16 32"', '"c d"', '"e\\u001b[31m"', 'plain_1']);
      expect(io.stdout.join('\n')).not.toContain('\u001b');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('uma-ts plan: a pool too small', () => {
  it('names the buffer, its size and each allowed pool with its limit, on one line', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-plan-overflow-'));
    try {
      const set = path.join(dir, 'set.json');
      fs.writeFileSync(set, JSON.stringify({
        pools: [{ name: 'small', sizeHintBytes: 64 }, { name: 'tiny', sizeHintBytes: 8 }],
        buffers: [
          { name: 'a', size: 48, candidatePools: ['small', 'tiny'], conflicts: ['b'] },
          { name: 'b', size: 48, candidatePools: ['small', 'tiny'], conflicts: ['a'] },
        ],
      }));
      const io = memoryIO();
      const code = await main(['node', 'uma-ts', 'plan', set], io);
      expect(code).toBe(1);
      expect(io.stderr).toHaveLength(1);
      expect(io.stderr[0]).toMatch(
        /^error: the space available in the provided pools exceeded when trying to allocate the buffer: [ab] \(48 bytes\); allowed pools: small \(limit 64 bytes\), tiny \(limit 8 bytes\); /,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
