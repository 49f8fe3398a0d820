/**
 * Float32 exp, log, tanh, sin and cos as the generated C computes them (`uma_exp_f32`,
 * `uma_log_f32`, `uma_tanh_f32`, `uma_sin_f32` and `uma_cos_f32` in
 * src/codegen/c/runtime/uma_runtime.h). The C once called libm's double exp/log and rounded to
 * float, to agree with `Math.exp` rounded here; that made EXP and LOG 1.7-1.9x slower than
 * TFLite Micro's expf/logf on the host (and on a Cortex-M without a double FPU far slower).
 * Now both sides run the same short sequence of double operations, the shape of glibc's
 * expf/logf: a 64-entry table of 2^(j/64) and a cubic for exp (tanh from it); a 32-entry table
 * of 1/c and log(c) and a quintic of log1p for log; a reduction by pi/2 and Taylor polynomials
 * for sin and cos. The interpreter and the C agree bit for bit by construction, and a result
 * is within half an ulp plus 1e-9 of the exact value (1 ulp at most from `Math.exp`,
 * `Math.log`... rounded, as TFLite's own expf/logf). Every double operation
 * is IEEE-exact in JavaScript and in C compiled without FP contraction (the default of
 * -std=c99); test/codegen/floatMath.test.ts compiles the C and compares.
 *
 * The constants are written out (shortest round-trip decimals, the same text in the C header)
 * rather than computed, so that no libm or Math.pow difference can make the two tables differ.
 */

/** 2^(j/64), j = 0..63. */
const EXP2_TABLE: readonly number[] = [
  1, 1.0108892860517005, 1.0218971486541166, 1.0330248790212284, 1.0442737824274138, 1.0556451783605572,
  1.0671404006768237, 1.0787607977571199, 1.0905077326652577, 1.102382583307841, 1.1143867425958924,
  1.1265216186082418, 1.1387886347566916, 1.1511892299529827, 1.1637248587775775, 1.1763969916502812,
  1.189207115002721, 1.202156731452703, 1.215247359980469, 1.22848053610687, 1.241857812073484, 1.255380757024691,
  1.2690509571917332, 1.2828700160787783, 1.2968395546510096, 1.3109612115247644, 1.3252366431597413,
  1.339667524053303, 1.3542555469368927, 1.3690024229745905, 1.3839098819638318, 1.398979672538311,
  1.4142135623730951, 1.42961333839197, 1.4451808069770467, 1.4609177941806468, 1.4768261459394993,
  1.4929077282912648, 1.5091644275934228, 1.5255981507445382, 1.542210825407941, 1.559004400237837,
  1.5759808451078865, 1.593142151342267, 1.6104903319492543, 1.6280274218573478, 1.6457554781539647,
  1.6636765803267364, 1.6817928305074292, 1.7001063537185235, 1.718619298122478, 1.7373338352737062,
  1.7562521603732995, 1.7753764925265212, 1.7947090750031072, 1.8142521755003989, 1.8340080864093424,
  1.8539791250833857, 1.8741676341103, 1.8945759815869656, 1.9152065613971474, 1.9360617934922946,
  1.9571441241754002, 1.978456026387951,
];
/** 64 / ln 2: x in units of ln2/64. */
const INV_LN2_64 = 92.33248261689366;
/** 1.5 * 2^52: adding and subtracting it rounds a double of magnitude below 2^51 to an integer. */
const ROUND_SHIFT = 6755399441055744;
/** Taylor coefficients of 2^(r/64) = e^(r ln2/64), |r| <= 1/2: error below 4e-11 relative. */
const EXP_C1 = 0.010830424696249145;
const EXP_C2 = 0.00005864904955056169;
const EXP_C3 = 2.1173137155464774e-7;
/** Below this exp rounds to 0 in float32, at 89 (above 88.73) to infinity. */
const EXP_LOW = -110;
const EXP_HIGH = 89;
/** 2^k for the k the table's index leaves (exact: built by doubling and halving). */
const POW2_MIN = -160;
const POW2: Float64Array = (() => {
  const p = new Float64Array(300);
  let v = 1;
  for (let k = 0; k > POW2_MIN; k--) v /= 2;
  for (let i = 0; i < p.length; i++, v *= 2) p[i] = v;
  return p;
})();

/** e^x rounded to float32, for a float32 `x` (any value: NaN, infinities, subnormals). */
export function expF32(x: number): number {
  if (!(x > EXP_LOW && x < EXP_HIGH)) return x !== x ? NaN : x > 0 ? Infinity : 0;
  return Math.fround(expInRange(x));
}

/** e^x in double, within 4e-11 relative, for x in (EXP_LOW, EXP_HIGH) (C `uma_exp_f64_of_f32`). */
function expInRange(x: number): number {
  const z = x * INV_LN2_64;
  const kd = z + ROUND_SHIFT - ROUND_SHIFT;
  const j = kd & 63;
  const scale = EXP2_TABLE[j] * POW2[(kd - j) / 64 - POW2_MIN];
  const r = z - kd;
  // In the C's grouping: two halves that run in parallel (a Horner chain was latency-bound).
  return scale * (1 + r * EXP_C1 + r * r * (EXP_C2 + r * EXP_C3));
}

/** 2^-13: below it tanh(x) rounds to x. */
const TANH_IDENTITY_BELOW = 0.0001220703125;
/** Below this |x| tanh is its Taylor polynomial (x - x^3/3 + 2x^5/15: error below 1e-10 relative). */
const TANH_SERIES_BELOW = 0.03125;
/** From here tanh(x) rounds to +-1 in float32 (1 - tanh(9.1) is below half an ulp of 1). */
const TANH_ONE_FROM = 9.1;

/**
 * tanh(x) rounded to float32 (C `uma_tanh_f32`): 1 - 2/(e^(2|x|) + 1) from expInRange, whose
 * absolute error there stays below 2e-11, and the series where that is not small relative to
 * tanh. libm's tanhf took 9 ns an element on the host, this under 3.
 */
export function tanhF32(x: number): number {
  const a = Math.abs(x);
  // Below 2^-13 tanh(x) rounds to x itself (x^3/3 is under half an ulp), and the series would
  // turn -0 into +0.
  if (a < TANH_IDENTITY_BELOW) return x;
  if (a < TANH_SERIES_BELOW) {
    const x2 = x * x;
    return Math.fround(x + x * x2 * (-0.3333333333333333 + x2 * 0.13333333333333333));
  }
  if (!(a < TANH_ONE_FROM)) return x !== x ? NaN : x > 0 ? 1 : -1;
  const t = 1 - 2 / (expInRange(a + a) + 1);
  return Math.fround(x < 0 ? -t : t);
}

/**
 * 1/c and log(c) for the 32 subintervals of [0.69921875, 1.3984375) a float's top mantissa
 * bits pick (c at each one's middle), except the one holding 1, where c = 1 keeps log(x) near
 * x = 1 relatively exact (r = x - 1 exactly).
 */
const LOG_INV_C: readonly number[] = [
  1.4143646408839778, 1.3837837837837839, 1.3544973544973544, 1.3264248704663213, 1.299492385786802,
  1.2736318407960199, 1.248780487804878, 1.2248803827751196, 1.2018779342723005, 1.1797235023041475,
  1.158371040723982, 1.1377777777777778, 1.1179039301310043, 1.0987124463519313, 1.080168776371308,
  1.062240663900415, 1.0448979591836736, 1.0281124497991967, 1.0118577075098814, 1, 0.9624060150375939,
  0.9343065693430657, 0.9078014184397163, 0.8827586206896552, 0.8590604026845637, 0.8366013071895425,
  0.8152866242038217, 0.7950310559006211, 0.7757575757575758, 0.757396449704142, 0.7398843930635838,
  0.7231638418079096,
];
const LOG_C: readonly number[] = [
  -0.34668041321373666, -0.3248216194012377, -0.30343042941992004, -0.28248725557467697, -0.2619737157415739,
  -0.2418725364204867, -0.2221674653411543, -0.20284319251475144, -0.18388527877013738, -0.16528009093910292,
  -0.14701474296180975, -0.12907704227514236, -0.11145544092532278, -0.09413899091386191, -0.0771173033444312,
  -0.06038051098890748, -0.04391923393483558, -0.02772454801485477, -0.011787955752042173, 0, 0.03831886430213666,
  0.06795066190850778, 0.09672962645855114, 0.12470347850095725, 0.151916042025842, 0.17840765747281825,
  0.20421554142869083, 0.2293741010648459, 0.25391520998096345, 0.2778684510034563, 0.30126133057816185,
  0.324119468654212,
];
const LN2 = 0.6931471805599453;
/** The float bits of 0.69921875: the subintervals start there. */
const LOG_OFFSET = 0x3f330000;
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

/** log(x) rounded to float32, for a float32 `x` (any value: NaN, negatives, zeros, subnormals). */
export function logF32(x: number): number {
  F32[0] = x;
  let ix = U32[0];
  if ((ix - 0x00800000) >>> 0 >= 0x7f800000 - 0x00800000) {
    // Not a positive normal number.
    if ((ix & 0x7fffffff) === 0) return -Infinity;
    if (ix === 0x7f800000) return Infinity;
    if (ix >= 0x80000000 || ix > 0x7f800000) return NaN;
    // Subnormal: scale by 2^23 into the normal range, and take 23 off the exponent.
    F32[0] = x * 8388608;
    ix = U32[0] - (23 << 23);
  }
  const tmp = (ix - LOG_OFFSET) >>> 0;
  const i = (tmp >>> 18) & 31;
  const k = (tmp >>> 23) - (tmp >= 0x80000000 ? 512 : 0);
  U32[0] = ix - (tmp & 0xff800000);
  const r = F32[0] * LOG_INV_C[i] - 1;
  const y0 = LOG_C[i] + k * LN2;
  const r2 = r * r;
  // log1p(r) = r - r^2/2 + r^3/3 - r^4/4 + r^5/5, in the C's grouping.
  return Math.fround(y0 + (r + r2 * (-0.5 + r * 0.3333333333333333 + r2 * (-0.25 + r * 0.2))));
}

/** Up to this |x| sin and cos reduce by pi/2 in two parts (an exact first product for k below 2^20). */
const SIN_COS_REDUCED_UP_TO = 1048576;
/** 2^-12: below it sin(x) rounds to x and cos(x) to 1. */
const SIN_COS_IDENTITY_BELOW = 0.000244140625;
const TWO_OVER_PI = 0.6366197723675814;
/** pi/2 as 33 bits (k * PIO2_1 exact for k below 2^20) and the rest: r within k 1e-26 of exact. */
const PIO2_1 = 1.5707963267341256;
const PIO2_2 = 6.077100506506192e-11;

/**
 * sin(x) (quarter turn 0) or cos(x) (quarter turn 1) in double, for a float32 `x`: x = k pi/2 + r,
 * |r| <= pi/4, and Taylor polynomials in r^2 (SIN_COS_COEFFICIENTS), chosen and signed by the
 * quadrant. Beyond 2^20 (no model computes a sine there) the libm double function, as before,
 * rounded by the caller.
 */
function sinCos(x: number, quarterTurn: number): number {
  if (!(Math.abs(x) <= SIN_COS_REDUCED_UP_TO)) return quarterTurn === 0 ? Math.sin(x) : Math.cos(x);
  // The polynomial would also turn -0 into +0 there.
  if (Math.abs(x) < SIN_COS_IDENTITY_BELOW) return quarterTurn === 0 ? x : 1;
  const kd = x * TWO_OVER_PI + ROUND_SHIFT - ROUND_SHIFT;
  const r = x - kd * PIO2_1 - kd * PIO2_2;
  const quadrant = (kd + quarterTurn) & 3;
  const r2 = r * r;
  // One polynomial shape for both (the C picks its coefficients by loads, not a branch the
  // quadrant of random inputs would mispredict): sin r = r + r r^2 S(r^2), cos r = 1 + r^2
  // C(r^2), s = r or 1.
  const c = SIN_COS_COEFFICIENTS[quadrant & 1];
  const s = quadrant & 1 ? 1 : r;
  const r4 = r2 * r2;
  const v = s + s * r2 * (c[0] + r2 * c[1] + r4 * (c[2] + r2 * c[3] + r4 * c[4]));
  return v * QUADRANT_SIGN[quadrant >> 1];
}

/**
 * Taylor coefficients after the first term, in r^2: sin's (to r^11: error below 1e-11
 * relative), cos's (to r^10: below 2e-10, where cos is at least 0.7).
 */
const SIN_COS_COEFFICIENTS: readonly (readonly number[])[] = [
  [-0.16666666666666666, 0.008333333333333333, -0.0001984126984126984, 0.0000027557319223985893, -2.505210838544172e-8],
  [-0.5, 0.041666666666666664, -0.001388888888888889, 0.0000248015873015873, -2.755731922398589e-7],
];
const QUADRANT_SIGN: readonly number[] = [1, -1];

/** sin(x) rounded to float32 (C `uma_sin_f32`): 3.9 ns an element on the host, libm's double sin 5.9 (sinf 2.4). */
export function sinF32(x: number): number {
  return Math.fround(sinCos(x, 0));
}

/** cos(x) rounded to float32 (C `uma_cos_f32`). */
export function cosF32(x: number): number {
  return Math.fround(sinCos(x, 1));
}
