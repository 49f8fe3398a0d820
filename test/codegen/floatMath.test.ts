/**
 * uma_exp_f32, uma_log_f32, uma_tanh_f32, uma_sin_f32 and uma_cos_f32 (uma_runtime.h) against
 * the interpreter's expF32, logF32, tanhF32, sinF32 and cosF32 (src/arith/floatMath.ts): the
 * same bits on every input, so the generated C stays bit for bit the interpreter's on EXP, LOG,
 * TANH, SIN, COS, LOGISTIC, SOFTMAX, LOG_SOFTMAX and LSTM gates; and each within an ulp of the
 * exact value, the accuracy of TFLite's own expf/logf/tanhf/sinf/cosf. Built strict under UBSan (the bit
 * manipulation must not rely on undefined shifts or conversions).
 */
import * as fs from 'fs';
import * as path from 'path';
import { cosF32, expF32, logF32, sinF32, tanhF32 } from '../../src/arith/floatMath';
import { buildAndRun, makeTempDir, removeDir } from './cc';

const HEADER = path.join(__dirname, '../../src/codegen/c/runtime/uma_runtime.h');

const PROGRAM = `
#include <stdio.h>
#include <stdlib.h>
#include "uma_runtime.h"
#define OUTPUTS 5

int main(void) {
  FILE *in = fopen("in.bin", "rb"), *out;
  long n, i;
  uint32_t *x, *y;
  if (!in) return 1;
  fseek(in, 0, SEEK_END);
  n = ftell(in) / 4;
  fseek(in, 0, SEEK_SET);
  x = malloc((size_t)n * 4);
  y = malloc((size_t)n * 4 * OUTPUTS);
  if (!x || !y || fread(x, 4, (size_t)n, in) != (size_t)n) return 1;
  fclose(in);
  for (i = 0; i < n; ++i) {
    float v, r[OUTPUTS];
    int k;
    memcpy(&v, &x[i], 4);
    r[0] = uma_exp_f32(v);
    r[1] = uma_log_f32(v);
    r[2] = uma_tanh_f32(v);
    r[3] = uma_sin_f32(v);
    r[4] = uma_cos_f32(v);
    for (k = 0; k < OUTPUTS; ++k) memcpy(&y[OUTPUTS * i + k], &r[k], 4);
  }
  out = fopen("out.bin", "wb");
  if (!out || fwrite(y, 4 * OUTPUTS, (size_t)n, out) != (size_t)n) return 1;
  fclose(out);
  printf("%ld\\n", n);
  return 0;
}
`;

/** Output slot, name, the interpreter's function, the exact function it rounds. */
const FUNCTIONS: ReadonlyArray<readonly [number, string, (x: number) => number, (x: number) => number]> = [
  [0, 'exp', expF32, Math.exp],
  [1, 'log', logF32, Math.log],
  [2, 'tanh', tanhF32, Math.tanh],
  [3, 'sin', sinF32, Math.sin],
  [4, 'cos', cosF32, Math.cos],
];

const SPECIALS = [
  0, -0, 1, -1, Infinity, -Infinity, NaN, 88.72283172607422, 88.72283935546875, 89, -89, -103.97207641601562, -103.97208404541016,
  -110, -109.99999237060547, 1.401298464324817e-45, 1.1754942106924411e-38, 1.1754943508222875e-38, 3.4028234663852886e38,
  0.9999999403953552, 1.0000001192092896, 0.6992187500, 1.3984375, 0.99609375, 1.0234375, Math.fround(Math.E), 2, 0.5,
  0.03125, -0.03125, 0.031249998137354851, 9.1, -9.1, 9.099999427795410, 9.01, 1e-30, -1e-30,
  Math.fround(Math.PI), Math.fround(Math.PI / 2), Math.fround(Math.PI / 4), 1048576, 1048576.125, -1048576, 3e5, 1e10, 710.5,
];

/** Float bit patterns: every special above, random bits, the exp and tanh domains, and a band around 1. */
function inputs(): Uint32Array {
  const n = 400_000;
  const bits = new Uint32Array(n);
  const f = new Float32Array(bits.buffer);
  let s = 0x1234567;
  const next = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < n; i++) {
    if (i < SPECIALS.length) f[i] = SPECIALS[i];
    else if (i < 150_000) bits[i] = (next() ^ (next() << 16)) >>> 0;
    else if (i < 250_000) f[i] = (next() / 2 ** 32) * 210 - 115;
    else if (i < 300_000) f[i] = (next() / 2 ** 32) * 20 - 10;
    else if (i < 350_000) bits[i] = 0x3f800000 - 25_000 + (i - 300_000);
    else f[i] = ((next() / 2 ** 32) * 2 - 1) * 2 ** ((next() % 1000) / 40 - 5);
  }
  return bits;
}

describe('float exp and log: runtime C against the interpreter', () => {
  const bits = inputs();
  const x = new Float32Array(bits.buffer);
  let c: Float32Array;
  let cBits: Uint32Array;

  beforeAll(() => {
    const dir = makeTempDir('floatmath');
    try {
      fs.mkdirSync(path.join(dir, 'include'));
      fs.copyFileSync(HEADER, path.join(dir, 'include', 'uma_runtime.h'));
      fs.writeFileSync(path.join(dir, 'in.bin'), Buffer.from(bits.buffer));
      expect(buildAndRun(dir, { 'main.c': PROGRAM }).trim()).toBe(String(bits.length));
      const raw = fs.readFileSync(path.join(dir, 'out.bin'));
      c = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
      cBits = new Uint32Array(c.buffer);
    } finally {
      removeDir(dir);
    }
  });

  const word = new Float32Array(1);
  const wordBits = new Uint32Array(word.buffer);
  const bitsOf = (v: number): number => ((word[0] = v), wordBits[0]);
  const sameValue = (js: number, cValue: number, cWord: number): boolean => (js !== js ? cValue !== cValue : bitsOf(js) === cWord);
  /** Distance in ulps between two finite floats of one sign (0 and -0 are one value). */
  const ulps = (a: number, b: number): number => Math.abs((bitsOf(a) | 0) - (bitsOf(b) | 0));

  it('gives the interpreter’s bits on every input', () => {
    const mismatches: string[] = [];
    for (let i = 0; i < x.length && mismatches.length < 5; i++) {
      for (const [k, name, fn] of FUNCTIONS) {
        const j = FUNCTIONS.length * i + k;
        if (!sameValue(fn(x[i]), c[j], cBits[j])) mismatches.push(`${name}(${x[i]}): C ${c[j]}, interpreter ${fn(x[i])}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('is within one ulp of the exact value, and exact on the special values', () => {
    const worst = FUNCTIONS.map(() => 0);
    const wrongSpecials: string[] = [];
    for (let i = 0; i < x.length; i++) {
      for (const [k, name, fn, exact] of FUNCTIONS) {
        const want = Math.fround(exact(x[i]));
        const got = fn(x[i]);
        if (Number.isFinite(want) && want !== 0) worst[k] = Math.max(worst[k], ulps(got, want));
        else if (!Object.is(got, want)) wrongSpecials.push(`${name}(${x[i]}) = ${got}`);
      }
    }
    expect(Math.max(...worst)).toBeLessThanOrEqual(1);
    expect(wrongSpecials.slice(0, 5)).toEqual([]);
    expect([expF32(0), expF32(-Infinity), expF32(Infinity), expF32(89), expF32(-110)]).toEqual([1, 0, Infinity, Infinity, 0]);
    expect([logF32(1), logF32(0), logF32(-0), logF32(Infinity)]).toEqual([0, -Infinity, -Infinity, Infinity]);
    expect([tanhF32(Infinity), tanhF32(-Infinity), tanhF32(9.1), tanhF32(-20)]).toEqual([1, -1, 1, -1]);
    expect(Object.is(tanhF32(-0), -0)).toBe(true);
    expect(tanhF32(NaN)).toBeNaN();
    expect([expF32(NaN), logF32(NaN), logF32(-1), logF32(-Infinity)].every((v) => v !== v)).toBe(true);
    // The smallest subnormal: log(2^-149) is -103.28, computed through the rescaled path.
    expect(logF32(1.401298464324817e-45)).toBe(Math.fround(-149 * Math.LN2));
  });
});
