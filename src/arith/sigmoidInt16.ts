/**
 * TFLite's int16 LOGISTIC and TANH (reference_integer_ops logistic.h / tanh.h, TFLM
 * logistic_common.cc / tanh_common.cc Prepare): the input rescaled to a 1/(3*4096) grid,
 * a 256-entry sigmoid table sampled at i/24 interpolated linearly, tanh(x) = 2 sigmoid(2x) - 1.
 * The table's entries are TFLite's own (hand-tuned around the exact values), kept as data
 * so results stay bit-exact.
 */
import { roundHalfAwayFromZero } from './fixedpoint';
import { int16ZeroPointsProblem } from './quant-params';

/** sigmoid(i / 24) in 0.16 fixed point, i = 0..255: TFLite's `sigmoid_table_uint16`. */
export const SIGMOID_TABLE_UINT16: readonly number[] = [
  32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149, 40794, 41432, 42064, 42688,
  43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409,
  51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
  57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370, 60565, 60753, 60935, 61110,
  61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
  63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
  64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845, 64873, 64900,
  64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079, 65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208,
  65221, 65234, 65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
  65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
  65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491,
  65493, 65495, 65497, 65498, 65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
  65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524,
  65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530,
  65530, 65530, 65531, 65531, 65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
  65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65534, 65535,
];

export interface SigmoidInt16Params {
  /** 0 selects the power-of-two form: multiplier 3 << leftShift, no shift. */
  readonly inputMultiplier: number;
  readonly inputLeftShift: number;
}

const f32 = Math.fround;

/** TFLite `CheckedLog2` (float arithmetic): the rounded log2 and whether x is a power of two within 1e-3. */
export function checkedLog2(x: number): { log2: number; exact: boolean } {
  const l = f32(f32(Math.log(f32(x))) * f32(1 / f32(Math.log(2))));
  const rounded = roundHalfAwayFromZero(l);
  return { log2: rounded, exact: Math.abs(f32(l - rounded)) < f32(1e-3) };
}

/**
 * TFLM int16 Prepare of LOGISTIC / TANH: zero points 0, output scale 2^-15; a power-of-two
 * input scale whose shift is 0 (tanh: 0 or 1) uses the table directly, any other scale a
 * multiplier doubled until above 32767/2. Returns why TFLM would reject the tensors instead.
 */
export function sigmoidInt16Params(
  op: 'logistic' | 'tanh',
  input: { scale: number; zeroPoint: number },
  output: { scale: number; zeroPoint: number },
): SigmoidInt16Params | string {
  const zeroPoints = int16ZeroPointsProblem(op, input, output);
  if (zeroPoints !== undefined) return zeroPoints;
  const out = checkedLog2(output.scale);
  if (!out.exact || out.log2 !== -15) return `int16 ${op} output scale must be 2^-15, got ${+output.scale.toPrecision(6)}`;
  const inLog = checkedLog2(input.scale);
  const potShift = 15 - 3 + inLog.log2;
  const potOk = inLog.exact && (potShift === 0 || (op === 'tanh' && potShift === 1));
  if (potOk) return { inputMultiplier: 0, inputLeftShift: potShift };
  let multiplier = f32(input.scale) * 4096 * 3;
  let shift = 0;
  while (multiplier <= 32767 / 2 && shift <= 30) {
    shift++;
    multiplier *= 2;
  }
  // Outside these the kernel's arithmetic breaks (fuzzed: the C read its table at a negative
  // index and died): a multiplier that truncates to 0 reads as the power-of-two form (3 << 31),
  // and one past 32767 overflows int32 on the first product with an int16 input.
  const inputMultiplier = Math.trunc(multiplier);
  if (inputMultiplier < 1 || inputMultiplier > 32767) {
    return `int16 ${op} input scale ${+input.scale.toPrecision(6)} gives the input multiplier ${+multiplier.toPrecision(6)} (shift ${shift}), outside the 1..32767 its fixed-point kernel takes`;
  }
  return { inputMultiplier, inputLeftShift: shift };
}

/** The effective multiplier and shift the kernels apply (the power-of-two form folded in). */
export function effectiveSigmoidScaling(p: SigmoidInt16Params): { multiplier: number; shift: number; round: number } {
  const multiplier = p.inputMultiplier === 0 ? 3 << p.inputLeftShift : p.inputMultiplier;
  const shift = p.inputMultiplier === 0 ? 0 : p.inputLeftShift;
  return { multiplier, shift, round: shift > 0 ? 1 << (shift - 1) : 0 };
}

/** TFLite `reference_integer_ops::Logistic` (int16) for one element. */
export function logisticInt16(p: SigmoidInt16Params, x: number): number {
  const s = effectiveSigmoidScaling(p);
  const input = (Math.imul(x, s.multiplier) + s.round) >> s.shift;
  const abs = Math.abs(input);
  const uh = abs >>> 9;
  let result: number;
  if (uh >= 255) result = 0x7fff << 10;
  else {
    const ua = SIGMOID_TABLE_UINT16[uh];
    const ub = SIGMOID_TABLE_UINT16[uh + 1];
    result = (ua << 9) + (abs & 0x1ff) * (ub - ua);
  }
  result = input >= 0 ? result + (1 << 9) : (1 << 25) - result + (1 << 9) - 1;
  return ((result >>> 10) << 16) >> 16;
}

/** TFLite `reference_integer_ops::Tanh` (int16) for one element. */
export function tanhInt16(p: SigmoidInt16Params, x: number): number {
  const s = effectiveSigmoidScaling(p);
  const input = (Math.imul(x, s.multiplier) + s.round) >> s.shift;
  const abs = Math.abs(input);
  const uh = abs >>> 8;
  let result: number;
  if (uh >= 255) result = 0xffff << 8;
  else {
    const ua = SIGMOID_TABLE_UINT16[uh];
    const ub = SIGMOID_TABLE_UINT16[uh + 1];
    result = (ua << 8) + (abs & 0xff) * (ub - ua);
  }
  result = input >= 0 ? result - (1 << 23) + (1 << 7) : -result + (1 << 23) + (1 << 7) - 1;
  return ((result >> 8) << 16) >> 16;
}

/**
 * The same kernels as one straight-line sequence per element, the form the generated C
 * takes (the reference functions above stay TFLite's shape and are what it is checked against):
 *
 *   c = clamp(scaled, lo, hi), e = (c >> bits) + 256, out = (base[e] + (c & (2^bits - 1)) * slope[e] + bias) >> outShift
 *
 * TFLite interpolates on |x| and folds the sign back afterwards, with a branch on saturation
 * and a choice on the sign that both go either way on real data (int16 TANH at a general
 * scale mispredicted at a third of this form's speed). Here x's own segment (floor of
 * x / 2^bits, negative below zero) indexes a table over both signs, so neither the absolute
 * value nor the fold is computed per element: they are in the tables.
 *
 * Non-negative segment k: TFLite's r = (t[k] << bits) + f * (t[k + 1] - t[k]), folded as
 * r + bias (TANH: r - 2^23 + bias). Segment 255 is the saturated value with slope 0, reached
 * only at the clamp hi = 255 << bits, where the fraction is 0.
 * Negative segment -k with fraction g (x = -k * 2^bits + g): |x| lies in TFLite's segment
 * k - 1 with fraction 2^bits - g (g > 0), whose interpolation is (t[k] << bits) - g * slope, so
 * its fold 2^25 - 1 - r + bias (TANH: 2^23 - 1 - r + bias) is (2^25 - 1 - (t[k] << bits)) +
 * g * slope + bias: base and slope are that constant and t[k] - t[k - 1]. With g = 0 (|x| a
 * multiple of 2^bits) the same base gives TFLite's r = t[k] << bits at index k, as it must.
 * The clamp lo: TANH's saturated value is t[255] << 8, so -(255 << 8) is segment -255 with
 * g = 0; LOGISTIC's (0x7fff << 10) is not t[255] << 9, but it folds for negative inputs to the
 * same output 1 as |x| = (255 << 9) - 1 does, so lo = -(255 << 9) + 1 stays inside segment
 * -255. Segment -256 is never read.
 */
export interface SigmoidInt16Segments {
  /** Fraction bits of the rescaled input below the segment: logistic 9, tanh 8. */
  readonly fractionBits: number;
  readonly lo: number;
  readonly hi: number;
  /** Indexed by segment + 256 (segments -256..255). */
  readonly base: readonly number[];
  readonly slope: readonly number[];
  readonly bias: number;
  readonly outShift: number;
}

/** Offset of segment 0 in the segment tables. */
export const SIGMOID_SEGMENT_OFFSET = 256;

const segments = new Map<'logistic' | 'tanh', SigmoidInt16Segments>();

export function sigmoidInt16Segments(op: 'logistic' | 'tanh'): SigmoidInt16Segments {
  let g = segments.get(op);
  if (!g) segments.set(op, (g = buildSegments(op)));
  return g;
}

function buildSegments(op: 'logistic' | 'tanh'): SigmoidInt16Segments {
  const t = SIGMOID_TABLE_UINT16;
  const bits = op === 'logistic' ? 9 : 8;
  const saturated = op === 'logistic' ? 0x7fff << 10 : 0xffff << 8;
  // What the non-negative fold adds besides the rounding bias, and the negative fold's constant.
  const positive = op === 'logistic' ? 0 : -(1 << 23);
  const negative = op === 'logistic' ? (1 << 25) - 1 : (1 << 23) - 1;
  const base: number[] = [];
  const slope: number[] = [];
  for (let j = -256; j < 256; j++) {
    const k = Math.abs(j);
    if (j === -256) {
      base.push(0);
      slope.push(0);
    } else if (j < 0) {
      base.push(negative - (t[k] << bits));
      slope.push(t[k] - t[k - 1]);
    } else {
      base.push((k < 255 ? t[k] << bits : saturated) + positive);
      slope.push(k < 255 ? t[k + 1] - t[k] : 0);
    }
  }
  const hi = 255 << bits;
  return op === 'logistic'
    ? { fractionBits: bits, lo: -hi + 1, hi, base, slope, bias: 1 << 9, outShift: 10 }
    : { fractionBits: bits, lo: -hi, hi, base, slope, bias: 1 << 7, outShift: 8 };
}

/** One element through the segmented form (to hold it to `logisticInt16` / `tanhInt16`). */
export function sigmoidInt16Segmented(op: 'logistic' | 'tanh', p: SigmoidInt16Params, x: number): number {
  const s = effectiveSigmoidScaling(p);
  const g = sigmoidInt16Segments(op);
  const scaled = (Math.imul(x, s.multiplier) + s.round) >> s.shift;
  const c = Math.max(Math.min(scaled, g.hi), g.lo);
  const e = (c >> g.fractionBits) + SIGMOID_SEGMENT_OFFSET;
  const r = g.base[e] + (c & ((1 << g.fractionBits) - 1)) * g.slope[e] + g.bias;
  return ((r >> g.outShift) << 16) >> 16;
}
