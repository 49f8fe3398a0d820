/**
 * The lower bound of a buffer set given by conflict lists alone (no live ranges): the heaviest
 * clique grown greedily from the 64 heaviest buffers, over pairs listed both ways. Checked
 * against a plain restatement with sets of names (the implementation uses index rows), on random
 * graphs with one-way listings, repeated and unknown names, a buffer listing itself, and many
 * equal sizes (whose order among a seed's candidates decides which clique grows).
 */
import fc from 'fast-check';
import { lowerBoundOfBuffers } from '../../src/usmp/conflicts';
import { alignmentInAnyPool, stackHeightBound } from '../../src/usmp/stackBound';
import { BufferInfo, PoolInfo } from '../../src/usmp/types';
import { FUZZ_SEED } from '../fuzz/harness';

/** The greedy clique bound as first written: sets of names, neighbours in discovery order. */
function referenceCliqueBound(buffers: readonly BufferInfo[], stacks: number): number {
  const index = new Map(buffers.map((b, i) => [b.name, i] as const));
  const listed = buffers.map((b) => new Set(b.conflicts));
  const neighbours = buffers.map(() => new Set<number>());
  buffers.forEach((b, i) => {
    for (const c of b.conflicts) {
      const j = index.get(c);
      if (j === undefined || j === i || !listed[j].has(b.name)) continue;
      neighbours[i].add(j);
      neighbours[j].add(i);
    }
  });
  const weight = buffers.map((b, i) => b.sizeBytes + [...neighbours[i]].reduce((w, j) => w + buffers[j].sizeBytes, 0));
  const seeds = buffers.map((_, i) => i).sort((a, b) => weight[b] - weight[a]).slice(0, 64);
  let best = Math.max(...buffers.map((b) => b.sizeBytes));
  for (const s of seeds) {
    const clique = [s];
    const cands = [...neighbours[s]].sort((a, b) => buffers[b].sizeBytes - buffers[a].sizeBytes);
    for (const c of cands) if (clique.every((m) => neighbours[c].has(m))) clique.push(c);
    const members = clique.map((m) => buffers[m]);
    best = Math.max(best, stackHeightBound(members.map((b) => b.sizeBytes), members.map(alignmentInAnyPool), stacks));
  }
  return best;
}

const ONE_POOL: PoolInfo[] = [{ name: 'sram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 16, internal: true }];
const TWO_POOLS: PoolInfo[] = [...ONE_POOL, { name: 'dram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 64, internal: true }];

const graph = fc.record({
  n: fc.integer({ min: 1, max: 90 }),
  density: fc.double({ min: 0, max: 1, noNaN: true }),
  oneWay: fc.double({ min: 0, max: 0.4, noNaN: true }),
  twoPools: fc.boolean(),
  seed: fc.integer({ min: 0, max: 2 ** 30 }),
});

interface Graph {
  readonly n: number;
  readonly density: number;
  readonly oneWay: number;
  readonly twoPools: boolean;
  readonly seed: number;
}

function buffersOf(g: Graph): BufferInfo[] {
  let x = g.seed;
  const random = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const lists: string[][] = Array.from({ length: g.n }, () => []);
  for (let i = 0; i < g.n; i++) {
    for (let j = i + 1; j < g.n; j++) {
      if (random() >= g.density) continue;
      const way = random();
      if (way >= g.oneWay) lists[i].push(`b${j}`), lists[j].push(`b${i}`);
      else (way < g.oneWay / 2 ? lists[i] : lists[j]).push(`b${way < g.oneWay / 2 ? j : i}`);
    }
  }
  for (const list of lists) {
    if (random() < 0.1 && list.length > 0) list.push(list[0]);
    if (random() < 0.05) list.push('unknown');
    list.sort(() => random() - 0.5);
  }
  lists.forEach((list, i) => random() < 0.05 && list.push(`b${i}`));
  return lists.map((conflicts, i) => ({
    name: `b${i}`,
    sizeBytes: random() < 0.6 ? [16, 32, 48, 7][Math.floor(random() * 4)] : Math.floor(random() * 100_000),
    alignment: 1,
    poolCandidates: g.twoPools ? TWO_POOLS : ONE_POOL,
    conflicts,
    kind: 'workspace' as const,
  }));
}

describe('lower bound from conflict lists (greedy clique)', () => {
  it('equals the plain restatement on random graphs', () => {
    fc.assert(
      fc.property(graph, (g) => {
        const buffers = buffersOf(g);
        expect(lowerBoundOfBuffers(buffers)).toBe(referenceCliqueBound(buffers, g.twoPools ? 2 : 1));
      }),
      { seed: FUZZ_SEED, numRuns: 300 },
    );
  });
});
