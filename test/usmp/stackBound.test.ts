import fc from 'fast-check';
import { intervalsToBufferInfos } from '../../src/usmp/conflicts';
import { planAuto } from '../../src/usmp/algo/auto';
import { alignedLivePeak, stackHeightBound } from '../../src/usmp/stackBound';
import { PoolInfo } from '../../src/usmp/types';

const roundUp = (v: number, a: number): number => Math.ceil(v / a) * a;

/** Height of the items stacked in this order, each at the lowest offset its alignment allows. */
function stackInOrder(sizes: readonly number[], alignments: readonly number[], order: readonly number[]): number {
  let top = 0;
  for (const k of order) top = roundUp(top, alignments[k]) + sizes[k];
  return top;
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]));
}

const ALIGNS = [1, 2, 3, 4, 6, 8, 12, 16, 64];
const items = (maxLength: number) =>
  fc.array(fc.record({ size: fc.integer({ min: 1, max: 300 }), alignment: fc.constantFrom(...ALIGNS) }), { minLength: 1, maxLength });

describe('stackHeightBound', () => {
  it('is the least height over every order for small stacks (alignments that do not divide one another included)', () => {
    fc.assert(
      fc.property(items(6), (xs) => {
        const sizes = xs.map((x) => x.size);
        const alignments = xs.map((x) => x.alignment);
        const least = Math.min(...permutations(xs.length).map((p) => stackInOrder(sizes, alignments, p)));
        expect(stackHeightBound(sizes, alignments)).toBe(least);
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('on large stacks never exceeds any order, and is exact when every alignment is the same', () => {
    fc.assert(
      fc.property(items(30), fc.array(fc.nat(), { minLength: 30, maxLength: 30 }), fc.constantFrom(1, 4, 16), (xs, keys, uniform) => {
        const sizes = xs.map((x) => x.size);
        const mixed = xs.map((x) => x.alignment);
        const order = sizes.map((_, k) => k).sort((a, b) => keys[a] - keys[b] || a - b);
        expect(stackHeightBound(sizes, mixed)).toBeLessThanOrEqual(stackInOrder(sizes, mixed, order));
        expect(stackHeightBound(sizes, mixed)).toBeGreaterThanOrEqual(sizes.reduce((a, s) => a + s, 0));
        // One alignment: the best order puts the buffer with the most rounding on top.
        const same = sizes.map(() => uniform);
        const waste = (k: number) => roundUp(sizes[k], uniform) - sizes[k];
        const best = sizes.map((_, k) => k).sort((a, b) => waste(a) - waste(b) || a - b);
        expect(stackHeightBound(sizes, same)).toBe(stackInOrder(sizes, same, best));
      }),
      { seed: 8, numRuns: 200 },
    );
  });

  it('over several pools, never exceeds a split of the stack into them', () => {
    fc.assert(
      fc.property(items(14), fc.array(fc.nat(2), { minLength: 14, maxLength: 14 }), (xs, poolOf) => {
        const sizes = xs.map((x) => x.size);
        const alignments = xs.map((x) => x.alignment);
        let total = 0;
        for (let p = 0; p < 3; p++) {
          const members = sizes.map((_, k) => k).filter((k) => poolOf[k] === p);
          total += stackInOrder(sizes, alignments, members);
        }
        expect(stackHeightBound(sizes, alignments, 3)).toBeLessThanOrEqual(total);
      }),
      { seed: 9, numRuns: 200 },
    );
  });

  it('on large stacks is the sizes rounded up to the gcd less the `stacks` largest roundings', () => {
    fc.assert(
      fc.property(items(40), fc.integer({ min: 1, max: 50 }), (xs, stacks) => {
        // (Up to ten buffers in one pool get their exact height instead.)
        fc.pre(xs.length > 10 || stacks > 1);
        const sizes = xs.map((x) => x.size);
        const alignments = xs.map((x) => x.alignment);
        const g = alignments.reduce((a, b) => {
          while (b) [a, b] = [b, a % b];
          return a;
        });
        const roundings = sizes.map((v) => Math.ceil(v / g) * g - v).sort((x, y) => y - x);
        const expected = sizes.reduce((a, v) => a + Math.ceil(v / g) * g, 0) - roundings.slice(0, stacks).reduce((a, r) => a + r, 0);
        expect(stackHeightBound(sizes, alignments, stacks)).toBe(expected);
      }),
      { seed: 10, numRuns: 200 },
    );
  });

  it('counts the padding a 16-byte pool forces: 100 and 200 bytes end at 308 at best, not 300', () => {
    expect(stackHeightBound([100, 200], [16, 16])).toBe(308);
    expect(stackHeightBound([100, 200], [1, 1])).toBe(300);
  });
});

describe('alignedLivePeak', () => {
  /** First-fit of the intervals in `order`, each at its lowest aligned offset clear of its placed overlaps. */
  function firstFit(first: number[], last: number[], sizes: number[], alignments: number[], order: number[]): number {
    const placed: number[] = [];
    const offset: number[] = [];
    let top = 0;
    for (const b of order) {
      const taken = placed.filter((c) => first[c] <= last[b] && first[b] <= last[c]).map((c) => [offset[c], offset[c] + sizes[c]]);
      let o = 0;
      for (;;) {
        const hit = taken.filter(([lo, hi]) => o < hi && lo < o + sizes[b]);
        if (hit.length === 0) break;
        o = roundUp(Math.max(...hit.map(([, hi]) => hi)), alignments[b]);
      }
      placed.push(b);
      offset[b] = o;
      top = Math.max(top, o + sizes[b]);
    }
    return top;
  }

  const sets = fc.array(
    fc.record({ size: fc.integer({ min: 1, max: 500 }), alignment: fc.constantFrom(...ALIGNS), from: fc.nat(12), length: fc.nat(6) }),
    { minLength: 1, maxLength: 24 },
  );

  it('lies between the peak of live bytes and every plan', () => {
    fc.assert(
      fc.property(sets, fc.array(fc.nat(), { minLength: 24, maxLength: 24 }), (xs, keys) => {
        const first = xs.map((x) => x.from);
        const last = xs.map((x) => x.from + x.length);
        const sizes = xs.map((x) => x.size);
        const alignments = xs.map((x) => x.alignment);
        const bound = alignedLivePeak(first, last, sizes, alignments);
        const rawPeak = alignedLivePeak(first, last, sizes, sizes.map(() => 1));
        expect(bound).toBeGreaterThanOrEqual(rawPeak);
        for (const order of [sizes.map((_, k) => k), sizes.map((_, k) => k).sort((a, b) => keys[a] - keys[b] || a - b)]) {
          expect(bound).toBeLessThanOrEqual(firstFit(first, last, sizes, alignments, order));
        }
      }),
      { seed: 10, numRuns: 300 },
    );
  });

  it('is the peak of live bytes when alignment costs nothing, and ignores zero-size buffers', () => {
    expect(alignedLivePeak([0, 1, 2], [1, 2, 3], [100, 200, 100], [1, 1, 1])).toBe(300);
    expect(alignedLivePeak([0, 1], [1, 2], [96, 32], [16, 16])).toBe(128);
    expect(alignedLivePeak([0, 0], [1, 1], [100, 0], [16, 4096])).toBe(100);
    expect(alignedLivePeak([0, 5], [1, 6], [100, 200], [16, 16])).toBe(200);
  });
});

describe('auto with the padded bound', () => {
  it('proves a plan of odd-sized buffers in a 16-byte pool optimal (the plain peak is out of reach)', () => {
    const pool: PoolInfo = { name: 'sram', kind: 'workspace', targetAccess: { c: 'rw' }, alignment: 16, internal: true };
    const sizes = [490, 1000, 250, 4000, 33, 777, 1500, 96, 2048, 15, 640, 301];
    const buffers = intervalsToBufferInfos(
      sizes.map((sizeBytes, i) => ({ sizeBytes, firstUse: i % 5, lastUse: (i % 5) + (i % 3) })),
      [pool],
    );
    const { stats } = planAuto(buffers, 0);
    const rawPeak = alignedLivePeak(
      buffers.map((b) => b.liveRange![0]),
      buffers.map((b) => b.liveRange![1]),
      sizes,
      sizes.map(() => 1),
    );
    expect(stats.lowerBound).toBeGreaterThan(rawPeak);
    expect(stats.provenOptimal).toBe(true);
    expect(stats.finalTotal).toBe(stats.lowerBound);
  });
});
