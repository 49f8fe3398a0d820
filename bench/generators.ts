/**
 * Benchmark buffer sets, all as liveness intervals over operator indices (inclusive).
 *  - CNN-like: the activation lists of MobileNet v1/v2- and ResNet-like networks: a chain of
 *    operators whose outputs die at their consumer, residual/skip tensors that stay alive across
 *    a block, one-op scratch buffers (padded inputs, im2col), spatial size halving as channels
 *    grow.
 *  - Irregular, uniform: 2000 random intervals over 800 operators, sizes log-uniform 16 B .. 64 KiB.
 *  - Irregular, heavy-tailed: 2000 buffers over 800 operators, mostly small and short-lived
 *    (many equal sizes, so tie rules matter), a few very large and long-lived ones, and one-op
 *    spikes of medium size.
 * Sizes are multiples of 16 and alignment is 16, as TFLite Micro lays out its arena.
 */
import { seededRandom } from '../src/usmp/algo/seededRandom';

export interface BenchInterval {
  readonly size: number;
  readonly first: number;
  readonly last: number;
}

export interface BenchSet {
  readonly name: string;
  readonly kind: 'cnn' | 'irregular';
  /** Generator family of an irregular set, for per-family summaries. */
  readonly family?: string;
  readonly intervals: readonly BenchInterval[];
  /** The arena's alignment: 16 unless given (the mixed family draws 1, 16 or 64). */
  readonly alignment?: number;
  /** What a mixed set drew (its sizes, lifetimes, alignment). */
  readonly description?: string;
}

const ALIGN = 16;
const align = (bytes: number): number => Math.ceil(bytes / ALIGN) * ALIGN;

/** Builds op-by-op: each op consumes named tensors and produces one; tensors die at last use. */
class ActivationTrace {
  private readonly born = new Map<number, { size: number; first: number; last: number }>();
  private nextId = 0;
  op = 0;

  tensor(size: number): number {
    const id = this.nextId++;
    this.born.set(id, { size: align(size), first: this.op, last: this.op });
    return id;
  }

  /** One operator: reads `inputs`, writes a new tensor of `outSize`, optional scratch. */
  step(inputs: number[], outSize: number, scratch = 0): number {
    this.op++;
    for (const i of inputs) this.born.get(i)!.last = this.op;
    if (scratch > 0) this.born.set(this.nextId++, { size: align(scratch), first: this.op, last: this.op });
    return this.tensor(outSize);
  }

  intervals(): BenchInterval[] {
    return [...this.born.values()].map((t) => ({ size: t.size, first: t.first, last: Math.max(t.last, t.first) }));
  }
}

/** MobileNet v1: conv + (depthwise, pointwise) pairs, stride 2 every few blocks. */
export function mobilenetV1(res: number, widthMult: number): BenchSet {
  const t = new ActivationTrace();
  let hw = res;
  let c = 3;
  let x = t.tensor(hw * hw * c);
  const ch = (n: number) => Math.max(8, Math.round(n * widthMult));
  hw /= 2;
  c = ch(32);
  x = t.step([x], hw * hw * c, (hw * 2 + 2) ** 2 * 3);
  const plan: [number, number][] = [[64, 1], [128, 2], [128, 1], [256, 2], [256, 1], [512, 2], [512, 1], [512, 1], [512, 1], [512, 1], [512, 1], [1024, 2], [1024, 1]];
  for (const [out, stride] of plan) {
    const inHw = hw;
    hw = Math.ceil(hw / stride);
    x = t.step([x], hw * hw * c, (inHw + 2) ** 2 * c);
    c = ch(out);
    x = t.step([x], hw * hw * c);
  }
  x = t.step([x], c);
  t.step([x], 1000);
  return { name: `mobilenet_v1_${res}_${widthMult}`, kind: 'cnn', intervals: t.intervals() };
}

/** MobileNet v2: inverted residual blocks (expand, depthwise, project, add on repeats). */
export function mobilenetV2(res: number): BenchSet {
  const t = new ActivationTrace();
  let hw = res / 2;
  let c = 32;
  let x = t.step([t.tensor(res * res * 3)], hw * hw * c);
  const blocks: [number, number, number, number][] = [
    [1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 3, 2], [6, 64, 4, 2], [6, 96, 3, 1], [6, 160, 3, 2], [6, 320, 1, 1],
  ];
  for (const [expand, out, repeats, stride] of blocks) {
    for (let r = 0; r < repeats; r++) {
      const s = r === 0 ? stride : 1;
      const input = x;
      const e = c * expand;
      let y = expand > 1 ? t.step([input], hw * hw * e) : input;
      const inHw = hw;
      hw = Math.ceil(hw / s);
      y = t.step([y], hw * hw * e, (inHw + 2) ** 2 * e);
      y = t.step([y], hw * hw * out);
      x = s === 1 && c === out ? t.step([y, input], hw * hw * out) : y;
      c = out;
    }
  }
  x = t.step([x], hw * hw * 1280);
  x = t.step([x], 1280);
  t.step([x], 1000);
  return { name: `mobilenet_v2_${res}`, kind: 'cnn', intervals: t.intervals() };
}

/** ResNet with basic blocks: two convs (with padded scratch) and a skip add; 1x1 downsampling. */
export function resnet(res: number, blocksPerStage: number[], int16: boolean): BenchSet {
  const t = new ActivationTrace();
  const bytes = int16 ? 2 : 1;
  let hw = res / 2;
  let c = 64;
  let x = t.step([t.tensor(res * res * 3 * bytes)], hw * hw * c * bytes, (res + 6) ** 2 * 3 * bytes);
  hw /= 2;
  x = t.step([x], hw * hw * c * bytes);
  blocksPerStage.forEach((blocks, stage) => {
    for (let b = 0; b < blocks; b++) {
      const down = stage > 0 && b === 0;
      const out = 64 << stage;
      const inHw = hw;
      const outHw = down ? hw / 2 : hw;
      const skip = down ? t.step([x], outHw * outHw * out * bytes) : x;
      let y = t.step([x], outHw * outHw * out * bytes, (inHw + 2) ** 2 * c * bytes);
      y = t.step([y], outHw * outHw * out * bytes, (outHw + 2) ** 2 * out * bytes);
      x = t.step([y, skip], outHw * outHw * out * bytes);
      hw = outHw;
      c = out;
    }
  });
  x = t.step([x], c * bytes);
  t.step([x], 1000 * bytes);
  return { name: `resnet_${blocksPerStage.join('')}_${res}${int16 ? '_i16' : ''}`, kind: 'cnn', intervals: t.intervals() };
}

/** Tiny-ML sized chain with uneven skip lengths (DS-CNN / autoencoder-like). */
export function skipChain(seed: number, ops: number): BenchSet {
  const random = seededRandom(seed);
  const t = new ActivationTrace();
  const live: number[] = [t.tensor(align(1 + random() * 20000))];
  for (let i = 0; i < ops; i++) {
    const inputs = [live[live.length - 1]];
    if (live.length > 2 && random() < 0.25) inputs.push(live[Math.floor(random() * (live.length - 1))]);
    const scratch = random() < 0.3 ? random() * 8000 : 0;
    live.push(t.step(inputs, 16 + random() * 24000, scratch));
  }
  return { name: `skip_chain_${seed}`, kind: 'cnn', intervals: t.intervals() };
}

export function randomIntervals(seed: number, count = 2000, ops = 800): BenchSet {
  const random = seededRandom(seed);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const first = Math.floor(random() * ops);
    const length = 1 + Math.floor(random() * random() * 80);
    const size = align(2 ** (4 + random() * 12));
    intervals.push({ size, first, last: Math.min(ops - 1, first + length - 1) });
  }
  return { name: `random_${count}x${ops}_s${seed}`, kind: 'irregular', family: 'uniform', intervals };
}

/**
 * Heavy-tailed sizes and lifetimes: 90% small (16 B .. 1 KiB, 1-8 ops), 8% one-op spikes
 * (4 .. 32 KiB), 2% large (64 KiB .. 512 KiB) alive for 100-500 ops. The large buffers fix the
 * arena's shape and the small ones must fill the holes around them.
 */
export function heavyTailed(seed: number, count = 2000, ops = 800): BenchSet {
  const random = seededRandom(seed);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const kind = random();
    const first = Math.floor(random() * ops);
    let size: number;
    let length: number;
    if (kind < 0.9) {
      size = align(2 ** (4 + random() * 6));
      length = 1 + Math.floor(random() * 8);
    } else if (kind < 0.98) {
      size = align(2 ** (12 + random() * 3));
      length = 1;
    } else {
      size = align(2 ** (16 + random() * 3));
      length = 100 + Math.floor(random() * 400);
    }
    intervals.push({ size, first, last: Math.min(ops - 1, first + length - 1) });
  }
  return { name: `heavy_${count}x${ops}_s${seed}`, kind: 'irregular', family: 'heavy-tailed', intervals };
}

/**
 * Long lifetimes: sizes log-uniform 16 B .. 64 KiB as in the uniform family, but buffers live up
 * to 400 ops (skewed short), so each one overlaps several hundred others.
 */
export function longLifetimes(seed: number, count = 2000, ops = 800): BenchSet {
  return skewedLifetimes(seed, 400, 'long', 'long lifetimes', count, ops);
}

/**
 * Medium lifetimes: as the long family, but up to 160 ops: each buffer overlaps 150-200 others,
 * between the uniform and the long family. The lower bound is reachable on some of these sets
 * and not on others, and Vela's climb is strong on them.
 */
export function mediumLifetimes(seed: number, count = 2000, ops = 800): BenchSet {
  return skewedLifetimes(seed, 160, 'medium', 'medium lifetimes', count, ops);
}

function skewedLifetimes(seed: number, maxLength: number, prefix: string, family: string, count: number, ops: number): BenchSet {
  const random = seededRandom(seed);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const first = Math.floor(random() * ops);
    const length = 1 + Math.floor(random() * random() * maxLength);
    const size = align(2 ** (4 + random() * 12));
    intervals.push({ size, first, last: Math.min(ops - 1, first + length - 1) });
  }
  return { name: `${prefix}_${count}x${ops}_s${seed}`, kind: 'irregular', family, intervals };
}

/**
 * Packed sets, like MiniMalloc's public benchmark sets (real accelerator workloads packed
 * exactly at their peak): a capacity x time rectangle (1 MiB x `ops` operators) cut at random
 * into `count` buffers, each cut across time or across the address range (in 16-byte steps)
 * of a piece chosen by its area. Every operator is covered to the top, so the peak of live
 * bytes is the capacity and the cutting itself is a packing: the optimum is the lower bound,
 * which a planner either finds or misses. TFLite Micro's greedy and Vela's climb end 28-47% above it.
 */
export function packedRectangles(seed: number, count = 300, ops = 400): BenchSet {
  const random = seededRandom(seed);
  const capacity = 1 << 20;
  // Pieces as [first op, end op (exclusive), low byte, high byte (exclusive)].
  const pieces: [number, number, number, number][] = [[0, ops, 0, capacity]];
  while (pieces.length < count) {
    // A piece at random, weighted by its area, so the cuts spread over the rectangle.
    const areas = pieces.map(([t0, t1, o0, o1]) => (t1 - t0) * (o1 - o0));
    let pick = random() * areas.reduce((a, x) => a + x, 0);
    let k = 0;
    while (k < pieces.length - 1 && pick >= areas[k]) pick -= areas[k++];
    const [t0, t1, o0, o1] = pieces[k];
    const acrossTime = t1 - t0 > 1 && (o1 - o0 <= ALIGN || random() < 0.5);
    if (acrossTime) {
      const t = t0 + 1 + Math.floor(random() * (t1 - t0 - 1));
      pieces.splice(k, 1, [t0, t, o0, o1], [t, t1, o0, o1]);
    } else if (o1 - o0 > ALIGN) {
      const o = o0 + ALIGN * (1 + Math.floor(random() * ((o1 - o0) / ALIGN - 1)));
      pieces.splice(k, 1, [t0, t1, o0, o], [t0, t1, o, o1]);
    }
  }
  const intervals = pieces.map(([t0, t1, o0, o1]) => ({ size: o1 - o0, first: t0, last: t1 - 1 }));
  return { name: `packed_${count}x${ops}_s${seed}`, kind: 'irregular', family: 'packed', intervals };
}

/** How the mixed family draws a buffer's size in bytes. */
const MIXED_SIZES: Record<string, (random: () => number) => number> = {
  'log-uniform': (random) => Math.round(16 * 4096 ** random()),
  linear: (random) => 16 + Math.floor(random() * 65521),
  'powers of two': (random) => 2 ** (4 + Math.floor(random() * 13)),
  'five sizes': (random) => [1024, 4096, 12288, 65536, 196608][Math.floor(random() * 5)],
  'heavy-tailed': (random) =>
    random() < 0.9 ? 16 + Math.floor(random() * 1009) : random() < 0.8 ? 4096 + Math.floor(random() * 28673) : 65536 + Math.floor(random() * 458753),
  'cnn-like': (random) => [1, 2, 4, 8][Math.floor(random() * 4)] * [8, 16, 32, 64, 96, 128, 256][Math.floor(random() * 7)] * [1, 4, 16, 49, 196, 784][Math.floor(random() * 6)],
};

/** How the mixed family draws a lifetime (operators after the first use), given the longest `L`. */
const MIXED_LIFETIMES: Record<string, (random: () => number, L: number) => number> = {
  uniform: (random, L) => Math.floor(random() * (L + 1)),
  exponential: (random, L) => Math.floor((-Math.log(1 - random()) * L) / 3),
  // Most tensors die within a few operators, a fifth live on (skip connections, a DAG's branches).
  'DAG-like': (random, L) => (random() < 0.8 ? 1 + Math.floor(random() * 4) : 5 + Math.floor(random() * Math.max(1, L - 4))),
  bimodal: (random, L) => (random() < 0.7 ? Math.floor(random() * 4) : Math.floor(L / 2) + Math.floor(random() * (L - Math.floor(L / 2) + 1))),
};

/**
 * Mixed families, for sets unlike the bench's own: per seed a size distribution (log-uniform,
 * linear, powers of two, five sizes, heavy-tailed, CNN-like products of batch, channels and
 * spatial size), a lifetime distribution (uniform, exponential, DAG-like, bimodal), an operator
 * count of 0.1-2 per buffer, a longest lifetime of 2-20% of them, an alignment of 1, 16 or 64
 * with sizes that need not be multiples of it, and in three of ten sets one buffer starting per
 * operator, as in a schedule. docs/memory-planner.md ("Mixed families") reports seeds 1-100
 * (`node dist/bench/mixedSweep.js 1 100`), and 400 earlier draws of the same families.
 */
export function mixedFamily(seed: number, count = 2000): BenchSet {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const ops = Math.max(50, Math.round(count * pick([0.1, 0.4, 1, 1, 2])));
  const sizeKind = pick(Object.keys(MIXED_SIZES));
  const lifeKind = pick(Object.keys(MIXED_LIFETIMES));
  const L = Math.max(4, Math.round(ops * pick([0.02, 0.05, 0.1, 0.2])));
  const alignment = pick([1, 16, 16, 64]);
  const scheduled = random() < 0.3;
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const first = scheduled ? Math.floor((i * ops) / count) : Math.floor(random() * ops);
    const size = Math.max(1, MIXED_SIZES[sizeKind](random));
    const last = Math.min(ops - 1, first + MIXED_LIFETIMES[lifeKind](random, L));
    intervals.push({ size, first, last });
  }
  return {
    name: `mixed_${count}x${ops}_s${seed}`,
    kind: 'irregular',
    family: 'mixed',
    intervals,
    alignment,
    description: `${sizeKind} sizes, ${lifeKind} lifetimes, alignment ${alignment}${scheduled ? ', one start per operator' : ''}`,
  };
}

/**
 * The portfolio families (issue 15): uniform (10 seeds), heavy-tailed, long and medium
 * lifetimes (5 each) at 2,000 buffers (seeds held out from BENCH_SEEDS), uniform and medium
 * lifetimes (5 each) at 500, packed at 300 (5) and 800 (3), mixed at 2,000 (8), and one each of
 * the first three at 10,000 (ops scaled with the count); the multi-pool family with pins is
 * derived from the uniform sets by the runner.
 */
export function portfolioSets(): BenchSet[] {
  const seeds = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
  return [
    ...seeds(11, 10).map((s) => randomIntervals(s)),
    ...seeds(11, 5).map((s) => heavyTailed(s)),
    ...seeds(11, 5).map((s) => longLifetimes(s)),
    ...seeds(11, 5).map((s) => mediumLifetimes(s)),
    // Smaller problems (ops scaled with the count): a budget sized for 2,000 buffers must not
    // leave them a few dives.
    ...seeds(11, 5).map((s) => randomIntervals(s, 500, 200)),
    ...seeds(11, 5).map((s) => mediumLifetimes(s, 500, 200)),
    // Packed exactly at their peak, as MiniMalloc's benchmark sets (a few hundred buffers), and
    // larger ones (over 130 conflicts per buffer on most: flat, not dense, see callBudget.ts).
    ...seeds(11, 5).map((s) => packedRectangles(s, 300, 400)),
    ...seeds(11, 3).map((s) => packedRectangles(s, 800, 600)),
    // Families the others do not cover (sizes, lifetimes, alignments drawn per seed).
    ...seeds(11, 8).map((s) => mixedFamily(s)),
    randomIntervals(21, 10_000, 4000),
    heavyTailed(21, 10_000, 4000),
    longLifetimes(21, 10_000, 4000),
  ];
}

/** Seeds of each irregular family in the benchmark. */
export const BENCH_SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

export function benchSets(): BenchSet[] {
  return [
    mobilenetV1(224, 1),
    mobilenetV1(96, 0.25),
    mobilenetV2(224),
    resnet(224, [2, 2, 2, 2], false),
    resnet(32, [3, 3, 3], true),
    skipChain(1, 60),
    skipChain(2, 120),
    ...BENCH_SEEDS.map((s) => randomIntervals(s)),
    ...BENCH_SEEDS.map((s) => heavyTailed(s)),
  ];
}
