/**
 * The branch-free helpers of uma_runtime.h against their plain definitions (the sign-testing
 * forms they replaced), on edge values and a sweep, under UBSan: both the GCC/Clang paths
 * and the portable ones other compilers take (built with __GNUC__ undefined for the header).
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildAndRun, makeTempDir, removeDir } from './cc';

const HEADER = path.join(__dirname, '../../src/codegen/c/runtime/uma_runtime.h');

const PROGRAM = `
#include <stdio.h>
#include <math.h>
#include "uma_runtime.h"

static int32_t ref_asr32(int32_t x, int s) { return x < 0 ? ~(int32_t)(~(uint32_t)x >> s) : (int32_t)((uint32_t)x >> s); }
static int64_t ref_asr64(int64_t x, int s) { return x < 0 ? ~(int64_t)(~(uint64_t)x >> s) : (int64_t)((uint64_t)x >> s); }
static int8_t ref_wrap8(int64_t v) { uint8_t u = (uint8_t)(uint64_t)v; return u < 128u ? (int8_t)u : (int8_t)((int)u - 256); }
static int16_t ref_wrap16(int64_t v) { uint16_t u = (uint16_t)(uint64_t)v; return u < 32768u ? (int16_t)u : (int16_t)((int32_t)u - 65536); }
static int32_t ref_wrap32(int64_t v) { uint32_t u = (uint32_t)(uint64_t)v; return u <= 0x7FFFFFFFu ? (int32_t)u : -(int32_t)(~u) - 1; }
static int32_t ref_abs32(int32_t x) { return x < 0 ? ref_wrap32(-(int64_t)x) : x; }
static int32_t ref_srdhm(int32_t a, int32_t b) {
  int64_t ab, nudge;
  if (a == INT32_MIN && b == INT32_MIN) return INT32_MAX;
  ab = (int64_t)a * (int64_t)b;
  nudge = ab >= 0 ? ((int64_t)1 << 30) : (1 - ((int64_t)1 << 30));
  return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}
static float ref_max(float a, float b) { return (a != a || a > b) ? a : b; }
static float ref_min(float a, float b) { return (a != a || a < b) ? a : b; }
static int same_bits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

int main(void) {
  static const int64_t edges[] = {0, 1, -1, 2, -2, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
    2147483647LL, 2147483648LL, -2147483647LL - 1, -2147483649LL, 4294967295LL, 4294967296LL, 1234567890123LL, -987654321987LL,
    9223372036854775807LL, -9223372036854775807LL - 1};
  const int n = (int)(sizeof edges / sizeof edges[0]);
  long checks = 0, bad = 0;
  uint32_t state = 12345u;
  int i, j, s;
  for (i = 0; i < n + 20000; ++i) {
    int64_t v;
    int32_t x;
    if (i < n) v = edges[i];
    else { state = state * 1664525u + 1013904223u; v = (int64_t)(int32_t)state * (int64_t)((state >> 7) % 70000u) - 12345; }
    x = (int32_t)(uint32_t)(uint64_t)v;
    bad += uma_wrap_i8(v) != ref_wrap8(v);
    bad += uma_wrap_i16(v) != ref_wrap16(v);
    bad += uma_wrap_i32(v) != ref_wrap32(v);
    bad += uma_abs_i32(x) != ref_abs32(x);
    for (s = 0; s < 32; ++s) bad += uma_asr_i32(x, s) != ref_asr32(x, s);
    for (s = 0; s < 64; s += 7) bad += uma_asr_i64(v, s) != ref_asr64(v, s);
    for (j = 0; j < n; ++j) {
      int32_t y = (int32_t)(uint32_t)(uint64_t)edges[j];
      bad += uma_srdhm(x, y) != ref_srdhm(x, y);
    }
    checks += 4 + 32 + 10 + n;
  }
  {
    const float f[] = {0.0f, -0.0f, 1.0f, -1.0f, 6.0f, 1e-45f, -3.4028235e38f, 3.4028235e38f, INFINITY, -INFINITY, NAN, -NAN};
    const int m = (int)(sizeof f / sizeof f[0]);
    for (i = 0; i < m; ++i)
      for (j = 0; j < m; ++j) {
        bad += !same_bits(uma_max_f32(f[i], f[j]), ref_max(f[i], f[j])) + !same_bits(uma_max_f32_sel(f[i], f[j]), ref_max(f[i], f[j]));
        bad += !same_bits(uma_min_f32(f[i], f[j]), ref_min(f[i], f[j])) + !same_bits(uma_min_f32_sel(f[i], f[j]), ref_min(f[i], f[j]));
        checks += 4;
      }
  }
  printf("%ld %ld\\n", checks, bad);
  return 0;
}
`;

describe('uma_runtime.h helpers', () => {
  it.each([
    ['GCC/Clang paths', ''],
    ['portable paths', '#undef __GNUC__\n'],
  ])('%s: the same values as their plain definitions, without undefined behaviour', (_name, prelude) => {
    const dir = makeTempDir('helpers');
    try {
      fs.mkdirSync(path.join(dir, 'include'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'include', 'uma_runtime.h'), prelude + fs.readFileSync(HEADER, 'utf8'));
      const [checks, bad] = buildAndRun(dir, { 'helpers.c': PROGRAM }).trim().split(/\s+/).map(Number);
      expect(checks).toBeGreaterThan(1_000_000);
      expect(bad).toBe(0);
    } finally {
      removeDir(dir);
    }
  });
});
