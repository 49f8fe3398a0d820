/**
 * A compiled model's conflicts kept as ranges and one clique (compactConflicts.ts) against the
 * lists extractBufferInfo used to write out: TVM's sweep over the workspace ranges (a started
 * buffer records every open one and each open one records it; starts before ends at one tick)
 * and every constant listing every other in buffer order. On random live ranges and classes:
 * the same lists in the same order, the same index rows, and the same answers from everything
 * that reads compact sets its own way (bounds, verifier, pool-group split, every planner).
 */
import fc from 'fast-check';
import { CompactConflicts, compactBufferInfos, compactPartOf, restrictCompact, symmetricRows } from '../../src/usmp/compactConflicts';
import { lowerBoundOfBuffers, pinnedPoolsBound } from '../../src/usmp/conflicts';
import { getPlanningAlgorithm } from '../../src/usmp/algo/registry';
import { indexProblem } from '../../src/usmp/algo/indexed';
import { independentPoolGroups } from '../../src/usmp/algo/poolGroups';
import { BufferInfo, BufferPlan, PoolAllocation, PoolInfo } from '../../src/usmp/types';
import { oneWayConflicts, verifyPlan } from '../../src/usmp/verify';
import { FUZZ_SEED } from '../fuzz/harness';

/** The lists as extractBufferInfo wrote them before: TVM's sweep, then the constants' clique. */
function referenceLists(first: readonly number[], last: readonly number[], clique: readonly boolean[], names: readonly string[]): string[][] {
  const lists: string[][] = names.map(() => []);
  const workspace = names.map((_, i) => i).filter((i) => !clique[i]);
  const events = workspace.flatMap((i, order) => [
    { tick: first[i], start: true, order, i },
    { tick: last[i], start: false, order, i },
  ]);
  events.sort((a, b) => a.tick - b.tick || (a.start === b.start ? a.order - b.order : a.start ? -1 : 1));
  const open = new Set<number>();
  for (const ev of events) {
    if (!ev.start) {
      open.delete(ev.i);
      continue;
    }
    for (const o of open) {
      lists[o].push(names[ev.i]);
      lists[ev.i].push(names[o]);
    }
    open.add(ev.i);
  }
  const constants = names.map((_, i) => i).filter((i) => clique[i]);
  for (const c of constants) lists[c] = constants.filter((o) => o !== c).map((o) => names[o]);
  return lists;
}

const WORKSPACE: PoolInfo = { name: 'sram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 16, internal: true };
const SLOW: PoolInfo = { name: 'dram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 4, internal: true };
/** A size-limited first choice: plans that spill to SLOW, or pools exhausted (the same error either way). */
const LIMITED: PoolInfo = { ...WORKSPACE, name: 'tcm', sizeHintBytes: 480 };
const CONSTANTS: PoolInfo = { name: 'flash', kind: 'constant', targetAccess: { c: 'ro' }, alignment: 8, internal: true };

const bufferSet = fc
  .tuple(
    fc.array(
    fc.record({
      first: fc.integer({ min: 0, max: 30 }),
      span: fc.integer({ min: 0, max: 12 }),
      constant: fc.boolean(),
      size: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200 })),
      align: fc.constantFrom(1, 2, 4, 16),
      twoPools: fc.boolean(),
    }),
      { minLength: 1, maxLength: 28 },
    ),
    fc.boolean(),
  )
  .map(([specs, limited]) => {
    const fast = limited ? LIMITED : WORKSPACE;
    const first = specs.map((s) => s.first);
    const last = specs.map((s) => s.first + s.span);
    const clique = specs.map((s) => s.constant);
    const names = specs.map((_, i) => `b${i}`);
    const set = new CompactConflicts(Float64Array.from(first), Float64Array.from(last), Uint8Array.from(clique, (c) => (c ? 1 : 0)));
    const fields = specs.map((s, i) => ({
      name: names[i],
      sizeBytes: s.size,
      alignment: s.align,
      poolCandidates: s.constant ? [CONSTANTS] : s.twoPools ? [fast, SLOW] : [fast],
      kind: s.constant ? ('constant' as const) : ('workspace' as const),
      liveRange: [first[i], last[i]] as const,
    }));
    const compact = compactBufferInfos(set, fields);
    const lists = referenceLists(first, last, clique, names);
    // The same buffers with their lists written out: what every consumer read before.
    const listed: BufferInfo[] = fields.map((f, i) => ({ ...f, conflicts: lists[i] }));
    return { set, compact, listed, lists, names, limited };
  });

const RUNS = { seed: FUZZ_SEED, numRuns: 200 };

describe('compact conflicts of a compiled model', () => {
  it('list the same names in the same order as the sweep and the clique did', () => {
    fc.assert(
      fc.property(bufferSet, ({ set, compact, lists }) => {
        compact.forEach((b, i) => expect(b.conflicts).toEqual(lists[i]));
        const { start, adj } = set.csr();
        lists.forEach((list, i) => expect(Array.from(adj.subarray(start[i], start[i + 1]), (j) => `b${j}`)).toEqual(list));
        expect(set.entryCount()).toBe(lists.reduce((n, l) => n + l.length, 0));
      }),
      RUNS,
    );
  });

  it('give the engine the symmetric rows it would build from the lists', () => {
    fc.assert(
      fc.property(bufferSet, ({ set, lists, names }) => {
        const index = new Map(names.map((n, i) => [n, i] as const));
        const { start, adj } = symmetricRows(set);
        lists.forEach((list, i) => {
          const expected = [...new Set(list.map((n) => index.get(n)!))].sort((a, b) => a - b);
          expect(Array.from(adj.subarray(start[i], start[i + 1]))).toEqual(expected);
        });
      }),
      RUNS,
    );
  });

  it('index rows and parts as the lists do', () => {
    fc.assert(
      fc.property(bufferSet, fc.func(fc.boolean()), ({ compact, listed }, keep) => {
        expect(indexProblem(compact).conflicts.map((r) => Array.from(r))).toEqual(indexProblem(listed).conflicts.map((r) => Array.from(r)));
        const picked = compact.filter((_, i) => keep(i));
        if (picked.length === 0) return;
        const names = new Set(picked.map((b) => b.name));
        const part = restrictCompact(picked, compactPartOf(picked)!);
        part.forEach((b, k) => expect(b.conflicts).toEqual(picked[k].conflicts.filter((c) => names.has(c))));
        const groups = independentPoolGroups(compact);
        const listedGroups = independentPoolGroups(listed);
        expect(groups?.map((g) => g.map((b) => [b.name, [...b.conflicts]]))).toEqual(listedGroups?.map((g) => g.map((b) => [b.name, b.conflicts])));
      }),
      RUNS,
    );
  });

  it('bound and verify as the lists do', () => {
    fc.assert(
      fc.property(bufferSet, fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 28, maxLength: 28 }), ({ compact, listed, limited }, slots) => {
        expect(lowerBoundOfBuffers(compact)).toBe(lowerBoundOfBuffers(listed));
        expect(pinnedPoolsBound(compact, true)).toBe(pinnedPoolsBound(listed, true));
        expect(oneWayConflicts(compact)).toEqual(oneWayConflicts(listed));
        // Plans with overlaps or not: the same verdict and message either way.
        const plan: BufferPlan = new Map<string, PoolAllocation>(
          listed.map((b, i) => [b.name, { pool: b.poolCandidates[0].name, offset: slots[i] * 16 }] as const),
        );
        const verdict = (buffers: BufferInfo[], placed: BufferPlan) => {
          try {
            verifyPlan(buffers, placed);
            return 'valid';
          } catch (e) {
            return (e as Error).message;
          }
        };
        expect(verdict(compact, plan)).toBe(verdict(listed, plan));
        if (!limited) expect(verdict(compact, getPlanningAlgorithm('greedy_by_size')(listed, 0))).toBe('valid');
      }),
      RUNS,
    );
  });

  it.each(['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'])('leave the plans of %s as they were', (algorithm) => {
    const planner = getPlanningAlgorithm(algorithm);
    fc.assert(
      fc.property(bufferSet, ({ compact, listed }) => {
        const outcome = (buffers: BufferInfo[]) => {
          try {
            return [...planner(buffers, 0)];
          } catch (e) {
            return (e as Error).message;
          }
        };
        expect(outcome(compact)).toEqual(outcome(listed));
      }),
      { ...RUNS, numRuns: 60 },
    );
  });
});

describe('a compiled model part past 25M conflict entries', () => {
  // 5,001 buffers of one class are 25,005,000 directed entries: stacked on skylines, with no
  // list read (the getters would build 25M names).
  const n = 5001;
  function part(constant: boolean) {
    const set = new CompactConflicts(new Float64Array(n).fill(constant ? 7 : 0), new Float64Array(n).fill(constant ? 7 : 3), new Uint8Array(n).fill(constant ? 1 : 0));
    const fields = Array.from({ length: n }, (_, i) => ({
      name: `b${i}`,
      sizeBytes: 4 + (i % 3) * 4,
      alignment: 4,
      poolCandidates: [constant ? CONSTANTS : WORKSPACE],
      kind: constant ? ('constant' as const) : ('workspace' as const),
      liveRange: [constant ? i : 0, constant ? i : 3] as const,
    }));
    const buffers = compactBufferInfos(set, fields);
    // Counts the reads of any list (the registered objects' own getters, wrapped in place).
    const reads = { count: 0 };
    for (const b of buffers) {
      const own = Object.getOwnPropertyDescriptor(b, 'conflicts')!.get!;
      Object.defineProperty(b, 'conflicts', {
        enumerable: true,
        get() {
          reads.count++;
          return own.call(b);
        },
      });
    }
    return { buffers, reads };
  }

  it.each([true, false])('is stacked without its lists (constants: %s)', (constant) => {
    const { buffers, reads } = part(constant);
    expect(compactPartOf(buffers)!.set.entryCount()).toBe(n * (n - 1));
    const plan = getPlanningAlgorithm('auto')(buffers, 0);
    verifyPlan(buffers, plan);
    // All live at once: every buffer on top of the others, each at a multiple of the pool's alignment.
    const alignment = constant ? CONSTANTS.alignment : WORKSPACE.alignment;
    const stacked = buffers.reduce((sum, b) => sum + Math.ceil(b.sizeBytes / alignment) * alignment, 0);
    expect(Math.max(...buffers.map((b) => plan.get(b.name)!.offset + b.sizeBytes))).toBeLessThanOrEqual(stacked);
    expect(reads.count).toBe(0);
  });
});
