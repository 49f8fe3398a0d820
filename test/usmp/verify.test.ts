import { MemoryPlanningError, PlanVerificationError } from '../../src/errors';
import { oneWayConflicts, verifyPlan } from '../../src/usmp/verify';
import { BufferPlan } from '../../src/usmp/types';
import { buffers, pool } from './algo/helpers';

const fast = pool('fast', 100);
const slow = pool('slow');
const bufs = buffers(
  {
    A: { size: 40, alignment: 8, conflicts: ['B'] },
    B: { size: 40, alignment: 8, conflicts: ['A'] },
    C: { size: 30, alignment: 8, conflicts: [], pools: [slow] },
  },
  [fast, slow],
);
const plan = (entries: Record<string, [string, number]>): BufferPlan =>
  new Map(Object.entries(entries).map(([k, [p, o]]) => [k, { pool: p, offset: o }]));

function failure(p: BufferPlan, pools?: Parameters<typeof verifyPlan>[2]): PlanVerificationError {
  try {
    verifyPlan(bufs, p, pools);
  } catch (e) {
    if (e instanceof PlanVerificationError) return e;
    throw e;
  }
  throw new Error('plan unexpectedly verified');
}

describe('verifyPlan', () => {
  test('accepts a valid plan', () => {
    expect(() => verifyPlan(bufs, plan({ A: ['fast', 0], B: ['fast', 40], C: ['slow', 0] }))).not.toThrow();
  });

  test('unplaced buffer', () => {
    expect(failure(plan({ A: ['fast', 0], B: ['fast', 40] })).message).toMatch(/'C' was not placed/);
  });

  test('pool that is not a candidate', () => {
    const e = failure(plan({ A: ['fast', 0], B: ['fast', 40], C: ['fast', 80] }));
    expect(e.message).toMatch(/'C' placed in pool 'fast', which is not one of its candidates \(slow\)/);
    expect(e.context.buffer).toBe('C');
  });

  test('misaligned offset', () => {
    expect(failure(plan({ A: ['fast', 0], B: ['fast', 44], C: ['slow', 0] })).message).toMatch(/'B' at offset 44 .* not aligned to 8/);
  });

  test("offset not a multiple of the pool's alignment, though aligned for the buffer", () => {
    const wide = pool('wide', undefined, 64);
    const inWide = buffers({ X: { size: 8, alignment: 8, pools: [fast, wide] } }, [fast, wide]);
    expect(() => verifyPlan(inWide, plan({ X: ['wide', 128] }))).not.toThrow();
    expect(() => verifyPlan(inWide, plan({ X: ['wide', 72] }))).toThrow(/'X' at offset 72 in pool 'wide' is not aligned to the pool's alignment of 64 bytes/);
    // Overriding pools carry the alignment as well.
    expect(() => verifyPlan(inWide, plan({ X: ['fast', 8] }), [pool('fast', 100, 16)])).toThrow(/alignment of 16 bytes/);
  });

  test('a buffer ending past 2^53-1 is a planning error (too large to represent), not a verification failure', () => {
    const huge = buffers({ H: { size: 2 ** 52 + 1, pools: [slow] } }, [slow]);
    expect(() => verifyPlan(huge, plan({ H: ['slow', 2 ** 52 - 2] }))).not.toThrow();
    expect(() => verifyPlan(huge, plan({ H: ['slow', 2 ** 52 + 16] }))).toThrow(MemoryPlanningError);
    expect(() => verifyPlan(huge, plan({ H: ['slow', 2 ** 52 + 16] }))).toThrow(/pool 'slow' would need more than 2\^53-1 = 9007199254740991 bytes: buffer 'H'/);
  });

  test('beyond the size hint (also with overriding pools)', () => {
    expect(failure(plan({ A: ['fast', 0], B: ['fast', 64], C: ['slow', 0] })).message).toMatch(
      /'B' at offset 64 \(40 bytes\) ends at 104, beyond the 100-byte size hint of pool 'fast'/,
    );
    const ok = plan({ A: ['fast', 0], B: ['fast', 40], C: ['slow', 0] });
    expect(failure(ok, [pool('fast', 60)]).message).toMatch(/beyond the 60-byte size hint/);
  });

  test('overlapping conflicting buffers, names and ranges reported', () => {
    const e = failure(plan({ A: ['fast', 0], B: ['fast', 32], C: ['slow', 0] }));
    expect(e.message).toBe("conflicting buffers overlap in pool 'fast': 'A' [0, 40) and 'B' [32, 72)");
  });

  test('non-conflicting buffers may overlap; conflicting ones in different pools may too', () => {
    const noConflict = buffers({ A: { size: 40, conflicts: [] }, B: { size: 40, conflicts: [] } });
    expect(() => verifyPlan(noConflict, plan({ A: ['global_workspace', 0], B: ['global_workspace', 0] }))).not.toThrow();
    expect(() => verifyPlan(bufs, plan({ A: ['fast', 0], B: ['slow', 0], C: ['slow', 40] }))).not.toThrow();
  });

  test('plan entries for unknown buffers', () => {
    expect(failure(plan({ A: ['fast', 0], B: ['fast', 40], C: ['slow', 0], Z: ['slow', 0] })).message).toMatch(/'Z'/);
  });
});

describe('directional conflict lists (TVM semantics)', () => {
  test('a pair listed one way only binds in placement order, which a plan does not record: not checked', () => {
    const oneWay = buffers({ A: { size: 100, conflicts: ['B'] }, B: { size: 50, conflicts: [] } }, [fast]);
    expect(() => verifyPlan(oneWay, plan({ A: ['fast', 0], B: ['fast', 0] }))).not.toThrow();
    expect(oneWayConflicts(oneWay)).toEqual(['A -> B']);
  });

  test('a buffer listing itself is not a conflict; mutual pairs still are', () => {
    const selfish = buffers({ A: { size: 40, conflicts: ['A', 'B'] }, B: { size: 40, conflicts: ['A'] } }, [fast]);
    expect(() => verifyPlan(selfish, plan({ A: ['fast', 0], B: ['fast', 40] }))).not.toThrow();
    expect(() => verifyPlan(selfish, plan({ A: ['fast', 0], B: ['fast', 20] }))).toThrow(
      "conflicting buffers overlap in pool 'fast': 'A' [0, 40) and 'B' [20, 60)",
    );
    expect(oneWayConflicts(selfish)).toEqual([]);
  });

  test('one-way pairs of a large random set: each reported once, in listed order, as a name-set reading finds them', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const names = Array.from({ length: 300 }, (_, i) => `b${i}`);
    const spec: Record<string, { size: number; conflicts: string[] }> = {};
    for (const name of names) spec[name] = { size: 16, conflicts: [] };
    for (let k = 0; k < 6000; k++) {
      const a = names[Math.floor(random() * names.length)];
      const b = random() < 0.02 ? 'unknown' : names[Math.floor(random() * names.length)];
      spec[a].conflicts.push(b);
      // Most pairs both ways (rows then out of order), some repeated, some one way only.
      if (random() < 0.9 && b !== 'unknown') spec[b].conflicts.push(a);
    }
    const set = buffers(spec, [fast]);
    const listed = new Set(set.flatMap((b) => b.conflicts.map((c) => `${b.name} ${c}`)));
    const expected: string[] = [];
    for (const b of set) {
      for (const c of b.conflicts) {
        const line = `${b.name} -> ${c}`;
        if (c !== b.name && spec[c] !== undefined && !listed.has(`${c} ${b.name}`) && !expected.includes(line)) expected.push(line);
      }
    }
    expect(expected.length).toBeGreaterThan(50);
    expect(oneWayConflicts(set)).toEqual(expected);
  });
});
