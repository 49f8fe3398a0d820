import { ConfigError } from '../../../src/errors';
import { getPlanningAlgorithm } from '../../../src/usmp/algo/registry';
import { parseBufferSet, parseJsonBufferSet } from '../../../src/usmp/bufferSet';
import { MAX_PLAN_BUFFERS } from '../../../src/usmp/bufferSetLimits';
import { intervalGroupOf } from '../../../src/usmp/intervalConflicts';
import { verifyPlan } from '../../../src/usmp/verify';

function configError(f: () => unknown): ConfigError {
  try {
    f();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('text buffer sets', () => {
  test('parses size/first/last lines with comments into one unlimited pool', () => {
    const set = parseBufferSet('# size first last\n100 0 1\n\n  200 1 2   # trailing comment\n50 3 3\n');
    expect(set.format).toBe('intervals');
    expect(set.pools).toHaveLength(1);
    expect(set.pools[0].sizeHintBytes).toBeUndefined();
    expect(set.buffers.map((b) => [b.name, b.sizeBytes, b.conflicts])).toEqual([
      ['buf_0', 100, ['buf_1']],
      ['buf_1', 200, ['buf_0']],
      ['buf_2', 50, []],
    ]);
    expect(set.memoryPressure).toBe(300);
  });

  test('a bad line is reported with its line number', () => {
    expect(configError(() => parseBufferSet('100 0 1\n# ok\n12 x 3\n', 'set.txt')).message).toMatch(/^set\.txt:3: expected/);
    expect(configError(() => parseBufferSet('100 0 1 4\n')).message).toMatch(/:1: expected/);
    expect(configError(() => parseBufferSet('100 5 1\n')).message).toMatch(/:1: last_use 1 is before first_use 5/);
  });
});

describe('JSON buffer sets', () => {
  const doc = {
    pools: [{ name: 'sram', sizeHintBytes: 1024, alignment: 16 }, { name: 'dram' }],
    buffers: [
      { name: 'a', size: 100, candidatePools: ['sram', 'dram'], conflicts: ['b'] },
      { name: 'b', size: 200, alignment: 4, candidatePools: ['dram'], conflicts: ['a', 'a'] },
    ],
  };

  test('builds pools, candidates in order, conflicts as given, default alignment from pools', () => {
    const set = parseBufferSet(JSON.stringify(doc));
    expect(set.format).toBe('json');
    expect(set.pools.map((p) => [p.name, p.sizeHintBytes, p.alignment])).toEqual([
      ['sram', 1024, 16],
      ['dram', undefined, 1],
    ]);
    expect(set.buffers[0].poolCandidates.map((p) => p.name)).toEqual(['sram', 'dram']);
    expect(set.buffers[0].alignment).toBe(16);
    expect(set.buffers[1].alignment).toBe(4);
    expect(set.buffers[1].conflicts).toEqual(['a', 'a']);
    expect(set.memoryPressure).toBe(300); // clique {a, b}
  });

  test('schema errors name the JSON path', () => {
    const bad = { ...doc, buffers: [{ ...doc.buffers[0], size: -1 }, doc.buffers[1]] };
    const e = configError(() => parseBufferSet(JSON.stringify(bad), 'b.json'));
    expect(e.message).toMatch(/^b\.json: \/buffers\/0\/size: /);
    expect(e.context.jsonPath).toBe('/buffers/0/size');
  });

  test('unknown pool and conflict names are errors with paths', () => {
    const unknownPool = { ...doc, buffers: [{ ...doc.buffers[0], candidatePools: ['sram', 'flash'] }, doc.buffers[1]] };
    expect(configError(() => parseBufferSet(JSON.stringify(unknownPool))).message).toMatch(
      /\/buffers\/0\/candidatePools\/1: unknown pool 'flash'/,
    );
    const unknownConflict = { ...doc, buffers: [doc.buffers[0], { ...doc.buffers[1], conflicts: ['a', 'zz'] }] };
    expect(configError(() => parseBufferSet(JSON.stringify(unknownConflict))).message).toMatch(
      /\/buffers\/1\/conflicts\/1: unknown buffer 'zz'/,
    );
  });

  test('invalid JSON text is a ConfigError', () => {
    expect(configError(() => parseBufferSet('{"pools": [', 'x.json')).message).toMatch(/^x\.json: not valid JSON/);
  });
});

describe('JSON buffer sets without conflict lists: conflicts from the live ranges', () => {
  const ranged = {
    pools: [{ name: 'sram', sizeHintBytes: 4096, alignment: 16 }, { name: 'dram', alignment: 64 }],
    buffers: [
      { name: 'x', size: 1024, candidatePools: ['sram'], liveRange: [0, 1] },
      { name: 'y', size: 3072, alignment: 128, candidatePools: ['sram', 'dram'], liveRange: [1, 2] },
      { name: 'z', size: 2048, candidatePools: ['dram', 'sram'], liveRange: [3, 3] },
      { name: 'w', size: 512, candidatePools: ['sram', 'dram'], liveRange: [2, 5] },
    ],
  };
  const listed = { ...ranged, buffers: [
    { ...ranged.buffers[0], conflicts: ['y'] },
    { ...ranged.buffers[1], conflicts: ['x', 'w'] },
    { ...ranged.buffers[2], conflicts: ['w'] },
    { ...ranged.buffers[3], conflicts: ['y', 'z'] },
  ] };

  test('every buffer conflicts with those whose live ranges overlap, with its own pools and alignment', () => {
    const set = parseBufferSet(JSON.stringify(ranged));
    expect(set.buffers.map((b) => [b.name, [...b.conflicts]])).toEqual([
      ['x', ['y']],
      ['y', ['x', 'w']],
      ['z', ['w']],
      ['w', ['y', 'z']],
    ]);
    expect(set.buffers.map((b) => b.poolCandidates.map((p) => p.name))).toEqual([['sram'], ['sram', 'dram'], ['dram', 'sram'], ['sram', 'dram']]);
    expect(set.buffers.map((b) => b.alignment)).toEqual([16, 128, 64, 64]);
    expect(intervalGroupOf(set.buffers)).toBeDefined();
    expect(set.memoryPressure).toBe(parseBufferSet(JSON.stringify(listed)).memoryPressure);
  });

  test.each(['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'])('%s plans them as it plans the listed conflicts', (algorithm) => {
    const fromRanges = parseBufferSet(JSON.stringify(ranged));
    const fromLists = parseBufferSet(JSON.stringify(listed));
    const plan = getPlanningAlgorithm(algorithm)(fromRanges.buffers, fromRanges.memoryPressure);
    verifyPlan(fromLists.buffers, plan, fromLists.pools);
    expect(plan).toEqual(getPlanningAlgorithm(algorithm)(fromLists.buffers, fromLists.memoryPressure));
  });

  test('conflict lists that are exactly the overlaps are read as an interval group; lists that differ keep their meaning', () => {
    expect(intervalGroupOf(parseBufferSet(JSON.stringify(listed)).buffers)).toBeDefined();
    const variants = {
      missing: listed.buffers.map((b) => (b.name === 'z' ? { ...b, conflicts: [] } : b.name === 'w' ? { ...b, conflicts: ['y'] } : b)),
      oneWay: listed.buffers.map((b) => (b.name === 'z' ? { ...b, conflicts: [] } : b)),
      repeated: listed.buffers.map((b) => (b.name === 'x' ? { ...b, conflicts: ['y', 'y'] } : b)),
      extra: listed.buffers.map((b) => (b.name === 'x' ? { ...b, conflicts: ['y', 'z'] } : b.name === 'z' ? { ...b, conflicts: ['w', 'x'] } : b)),
      self: listed.buffers.map((b) => (b.name === 'x' ? { ...b, conflicts: ['x'] } : b.name === 'y' ? { ...b, conflicts: ['w'] } : b)),
    };
    for (const [name, buffersOf] of Object.entries(variants)) {
      const set = parseBufferSet(JSON.stringify({ ...listed, buffers: buffersOf }));
      expect([name, intervalGroupOf(set.buffers)]).toEqual([name, undefined]);
      expect(set.buffers.map((b) => b.conflicts)).toEqual(buffersOf.map((b) => b.conflicts));
    }
  });

  test('a buffer without a live range, or a set that lists conflicts for some buffers only, is an error with its path', () => {
    const noRange = { ...ranged, buffers: [ranged.buffers[0], { name: 'v', size: 8, candidatePools: ['dram'] }] };
    expect(configError(() => parseBufferSet(JSON.stringify(noRange), 's.json')).message).toMatch(
      /^s\.json: \/buffers\/1: buffer 'v' has neither conflicts nor a liveRange/,
    );
    const mixed = { ...ranged, buffers: [listed.buffers[0], ...ranged.buffers.slice(1)] };
    expect(configError(() => parseBufferSet(JSON.stringify(mixed), 's.json')).message).toMatch(
      /^s\.json: \/buffers\/1: buffer 'y' has no conflicts list/,
    );
  });
});

describe('parseJsonBufferSet checks the numbers for API callers too', () => {
  // These were checked only by `uma-ts plan`: parseBufferSet gave a pool aligned to 3 to any planner.
  const set = (pool: Record<string, unknown>, buffer: Record<string, unknown> = {}) =>
    JSON.stringify({ pools: [{ name: 'p', ...pool }], buffers: [{ name: 'a', size: 4, candidatePools: ['p'], conflicts: [], ...buffer }] });
  it.each([
    [set({ alignment: 3 }), /^s\.json: \/pools\/0\/alignment: pool 'p' alignment 3 is not a power of two$/],
    [set({ alignment: 2 ** 21 }), /^s\.json: \/pools\/0\/alignment: pool 'p' alignment 2097152 is outside 1\.\.1048576/],
    [set({ sizeHintBytes: 1e300 }), /^s\.json: \/pools\/0\/sizeHintBytes: pool 'p' size hint 1e\+300 is past 2\^53-1/],
    [set({}, { alignment: 6 }), /^s\.json: \/buffers\/0\/alignment: buffer 'a' alignment 6 is not a power of two$/],
  ])('%s', (text, message) => {
    expect(() => parseBufferSet(text, 's.json')).toThrow(ConfigError);
    expect(() => parseBufferSet(text, 's.json')).toThrow(message);
  });
});

describe('the number of buffers in one set', () => {
  // One more than the limit, in each format: a clear error at the first buffer past it (so the
  // limit itself is read), not a plan that runs V8 out of memory.
  const over = MAX_PLAN_BUFFERS + 1;

  test('text: the line of the first buffer past the limit', () => {
    const e = configError(() => parseBufferSet('# header\n' + '16 0 0\n'.repeat(over), 'big.txt'));
    expect(e.message).toBe(
      `big.txt:${over + 1}: more than ${MAX_PLAN_BUFFERS} buffers; uma-ts plans at most ${MAX_PLAN_BUFFERS} in one set (a million take about 2 GB of memory): split the set`,
    );
    expect(e.context).toMatchObject({ file: 'big.txt', line: over + 1 });
  });

  test("MiniMalloc's CSV: the row past the limit", () => {
    const rows = Array.from({ length: over }, (_, i) => `b${i},0,1,16`).join('\n');
    const e = configError(() => parseBufferSet(`id,lower,upper,size\n${rows}\n`, 'big.csv'));
    expect(e.message).toMatch(new RegExp(`^big\\.csv:${over + 1}: more than ${MAX_PLAN_BUFFERS} buffers`));
  });

  test('JSON: the buffers array, before it is validated or indexed', () => {
    const e = configError(() => parseJsonBufferSet({ pools: [{ name: 'p' }], buffers: new Array(over) }, 'big.json'));
    expect(e.message).toMatch(new RegExp(`^big\\.json: /buffers: more than ${MAX_PLAN_BUFFERS} buffers`));
    expect(e.context).toMatchObject({ file: 'big.json', jsonPath: '/buffers' });
  });
});
