/**
 * Held-out families of the twenty-sixth session's campaign (docs/memory-planner.md): buffer-set
 * shapes that `generators.ts` does not draw, to check `auto` against TFLite Micro's and Vela
 * 3.10's plans on sets it was never tuned on. The issue's own shape (2,000 buffers over 800
 * operators, lifetimes uniform in 1..L for L of 40, 120, 250 and 400, with sizes uniform in bytes,
 * log-uniform, powers of two, multiples of 4, 16 or 64, or odd, and alignment 1, 16 or 64 drawn
 * per seed), the same at 500 and 5,000 buffers, network-like schedules (each operator writes a
 * buffer read by 1-3 later ones), bursty starts, nested lifetimes, a few large long-lived buffers
 * among many small ones, lifetimes growing along the schedule, two phases, and lifetimes in
 * blocks of 8 operators. Each set's random stream is its own (heldoutSet), never one of
 * generators.ts's.
 */
import { randomInt as int, seededRandom } from '../src/util/random';
import { BenchInterval } from './generators';

export interface HeldoutSet {
  readonly intervals: BenchInterval[];
  readonly alignment: number;
  readonly description: string;
}

type Random = () => number;
type Family = (random: Random) => HeldoutSet;

const logUniform = (r: Random, lo: number, hi: number) => Math.round(lo * (hi / lo) ** r());

const SIZE_KINDS: Record<string, (r: Random) => number> = {
  bytes: (r) => int(r, 1, 65536),
  log: (r) => logUniform(r, 16, 65536),
  pow2: (r) => 2 ** int(r, 4, 16),
  m4: (r) => 4 * int(r, 1, 16384),
  m16: (r) => 16 * int(r, 1, 4096),
  m64: (r) => 64 * int(r, 1, 1024),
  odd: (r) => 2 * int(r, 0, 32767) + 1,
};
const KIND_NAMES = Object.keys(SIZE_KINDS);
const ALIGNMENTS = [1, 16, 64];

function drawKind(r: Random) {
  const kind = KIND_NAMES[Math.floor(r() * KIND_NAMES.length)];
  const alignment = ALIGNMENTS[Math.floor(r() * ALIGNMENTS.length)];
  return { kind, alignment, size: SIZE_KINDS[kind] };
}

/** The issue's shape: `count` buffers over `ops` operators, lifetimes uniform in 1..L. */
function issueShape(L: number, count = 2000, ops = 800): Family {
  return (r) => {
    const { kind, alignment, size } = drawKind(r);
    const intervals: BenchInterval[] = [];
    for (let i = 0; i < count; i++) {
      const first = Math.floor(r() * ops);
      const s = size(r);
      const life = int(r, 1, L);
      intervals.push({ size: s, first, last: Math.min(ops - 1, first + life - 1) });
    }
    return { intervals, alignment, description: `${kind} a${alignment} L${L} ${count}x${ops}` };
  };
}

/**
 * Network-like: operator i writes buffer i (or, `multi`, 2,000 buffers over 800 operators, 2-3
 * per operator), read by 1-3 later operators: mostly the next three, some within 40, a few up to
 * 400 later (skip connections). Sizes follow stages (spatial size halving) with noise; half of
 * them rounded to the alignment.
 */
function network(multi: boolean): Family {
  return (r) => {
    const count = 2000;
    const ops = multi ? 800 : 2000;
    const alignment = ALIGNMENTS[Math.floor(r() * ALIGNMENTS.length)];
    const stages = int(r, 4, 8);
    const base = logUniform(r, 4096, 1 << 20);
    const intervals: BenchInterval[] = [];
    for (let i = 0; i < count; i++) {
      const op = multi ? Math.floor((i * ops) / count) : i;
      const stage = Math.floor((op * stages) / ops);
      let size = Math.max(1, Math.round((base / 2 ** stage) * (0.25 + r() * 1.5)));
      if (alignment > 1 && r() < 0.5) size = Math.ceil(size / alignment) * alignment;
      const readers = int(r, 1, 3);
      let last = op;
      for (let j = 0; j < readers; j++) {
        const u = r();
        const distance = u < 0.7 ? int(r, 1, 3) : u < 0.95 ? int(r, 4, 40) : int(r, 41, 400);
        last = Math.max(last, Math.min(ops - 1, op + distance));
      }
      intervals.push({ size, first: op, last });
    }
    return { intervals, alignment, description: `${multi ? 'dagm' : 'dag'} a${alignment} stages${stages} base${base}` };
  };
}

/** Starts near 8-40 burst operators (geometric offsets, mean 3), lifetimes uniform in 1..L. */
const burst: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const { kind, alignment, size } = drawKind(r);
  const bursts = int(r, 8, 40);
  const centers = Array.from({ length: bursts }, () => Math.floor(r() * ops));
  const L = [30, 100, 300][Math.floor(r() * 3)];
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const center = centers[Math.floor(r() * bursts)];
    const first = Math.min(ops - 1, center + Math.floor(-Math.log(1 - r()) * 3));
    intervals.push({ size: size(r), first, last: Math.min(ops - 1, first + int(r, 1, L) - 1) });
  }
  return { intervals, alignment, description: `burst ${kind} a${alignment} bursts${bursts} L${L}` };
};

/** Nested lifetimes: a few long roots, then each buffer inside a random earlier one. */
const nested: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const { kind, alignment, size } = drawKind(r);
  const roots = int(r, 3, 20);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    if (i < roots) {
      const first = Math.floor((r() * ops) / 2);
      intervals.push({ size: size(r), first, last: Math.min(ops - 1, first + int(r, ops / 4, ops / 2)) });
      continue;
    }
    const parent = intervals[Math.floor(r() * intervals.length)];
    const length = parent.last - parent.first + 1;
    const life = Math.max(1, Math.floor(length * r() * 0.8));
    const first = parent.first + Math.floor(r() * (length - life + 1));
    intervals.push({ size: size(r), first, last: first + life - 1 });
  }
  return { intervals, alignment, description: `nested ${kind} a${alignment} roots${roots}` };
};

/** 5-40 large buffers (64 KiB-2 MiB) living 20-90% of the schedule among small short ones. */
const fewLarge: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const alignment = ALIGNMENTS[Math.floor(r() * ALIGNMENTS.length)];
  const large = int(r, 5, 40);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    if (i < large) {
      const life = int(r, ops * 0.2, ops * 0.9);
      const first = Math.floor(r() * (ops - life));
      intervals.push({ size: logUniform(r, 65536, 1 << 21), first, last: first + life - 1 });
    } else {
      const first = Math.floor(r() * ops);
      intervals.push({ size: logUniform(r, 8, 8192), first, last: Math.min(ops - 1, first + int(r, 1, 40) - 1) });
    }
  }
  // Shuffled, so that the large buffers are not first in input order.
  for (let i = intervals.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [intervals[i], intervals[j]] = [intervals[j], intervals[i]];
  }
  return { intervals, alignment, description: `fewlarge a${alignment} large${large}` };
};

/** Lifetimes growing along the schedule: uniform in 1..1+first/3. */
const ramp: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const { kind, alignment, size } = drawKind(r);
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const first = Math.floor(r() * ops);
    intervals.push({ size: size(r), first, last: Math.min(ops - 1, first + int(r, 1, 1 + Math.floor(first / 3)) - 1) });
  }
  return { intervals, alignment, description: `ramp ${kind} a${alignment}` };
};

/** First half: large buffers living 1-12 operators; second half: small ones living 20-200. */
const twoPhase: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const alignment = ALIGNMENTS[Math.floor(r() * ALIGNMENTS.length)];
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    if (r() < 0.5) {
      const first = Math.floor((r() * ops) / 2);
      intervals.push({ size: logUniform(r, 4096, 262144), first, last: Math.min(ops - 1, first + int(r, 1, 12) - 1) });
    } else {
      const first = ops / 2 + Math.floor((r() * ops) / 2);
      intervals.push({ size: logUniform(r, 16, 16384), first, last: Math.min(ops - 1, first + int(r, 20, 200) - 1) });
    }
  }
  return { intervals, alignment, description: `twophase a${alignment}` };
};

/** Starts and lifetimes in blocks of 8 operators: many equal live ranges. */
const blocky: Family = (r) => {
  const count = 2000;
  const ops = 800;
  const { kind, alignment, size } = drawKind(r);
  const L = [40, 120, 250][Math.floor(r() * 3)];
  const intervals: BenchInterval[] = [];
  for (let i = 0; i < count; i++) {
    const first = 8 * Math.floor(r() * (ops / 8));
    const life = 8 * int(r, 1, Math.ceil(L / 8));
    intervals.push({ size: size(r), first, last: Math.min(ops - 1, first + life - 1) });
  }
  return { intervals, alignment, description: `blocky ${kind} a${alignment} L${L}` };
};

export const HELDOUT_FAMILIES: Record<string, Family> = {
  iss40: issueShape(40),
  iss120: issueShape(120),
  iss250: issueShape(250),
  iss400: issueShape(400),
  dag: network(false),
  dagm: network(true),
  burst,
  nested,
  fewlarge: fewLarge,
  ramp,
  twophase: twoPhase,
  blocky,
  n500: (r) => issueShape([10, 30, 60, 100][Math.floor(r() * 4)], 500, 200)(r),
  n5000: (r) => issueShape([40, 120, 250][Math.floor(r() * 3)], 5000, 2000)(r),
};

/** A family's set of one seed; the stream is 7919 * seed plus a salt of the family's name. */
export function heldoutSet(family: string, seed: number): HeldoutSet {
  const salt = [...family].reduce((s, c) => s * 31 + c.charCodeAt(0), 7) % 7919;
  return HELDOUT_FAMILIES[family](seededRandom(7919 * seed + salt));
}
