/**
 * The C helper uma_q_multiply_shift must agree bit for bit with the TS reference
 * (TFLite Micro MultiplyByQuantizedMultiplier) that the interpreter and lowering use.
 */
import * as fs from 'fs';
import * as path from 'path';
import { INT32_MAX, INT32_MIN, multiplyByQuantizedMultiplier, quantizeMultiplier } from '../../src/arith/fixedpoint';
import { readRuntimeHeader } from '../../src/codegen/c/runtimeFiles';
import { buildAndRun, makeTempDir, parseInts, randInt, removeDir, rng } from './cc';

function cases(): [number, number, number][] {
  const out: [number, number, number][] = [];
  const xs = [0, 1, -1, 2, -2, 127, -128, 255, 32767, -32768, 1 << 20, -(1 << 20), INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1];
  const ms = [0, 1, 1 << 30, (1 << 30) + 1, INT32_MAX, 1518500250, 1073741823, INT32_MIN, -1, -(1 << 30)];
  const shifts = [-31, -30, -17, -8, -1, 0, 1, 2, 7, 30, 31];
  for (const x of xs) for (const m of ms) for (const s of shifts) out.push([x, m, s]);
  const r = rng(20240607);
  for (let i = 0; i < 4000; i++) {
    const x = randInt(r, INT32_MIN, INT32_MAX);
    const real = Math.exp((r() - 0.5) * 30);
    const q = quantizeMultiplier(real);
    out.push([x, q.multiplier, Math.max(-31, Math.min(31, q.shift))]);
    out.push([randInt(r, -70000, 70000), randInt(r, 0, INT32_MAX), randInt(r, -31, 31)]);
  }
  return out;
}

describe('uma_q_multiply_shift', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('qmul');
  });
  afterAll(() => removeDir(dir));

  it('matches multiplyByQuantizedMultiplier on edge and random inputs, without UB', () => {
    const all = cases();
    fs.mkdirSync(path.join(dir, 'include'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'include', 'uma_runtime.h'), readRuntimeHeader());
    const rows = all.map(([x, m, s]) => `  {${x === INT32_MIN ? 'INT32_MIN' : x}, ${m === INT32_MIN ? 'INT32_MIN' : m}, ${s}}`);
    const main = `#include <stdio.h>
#include "uma_runtime.h"
static const int32_t cases[][3] = {
${rows.join(',\n')}
};
int main(void) {
  size_t i;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    printf("%ld\\n", (long)uma_q_multiply_shift(cases[i][0], cases[i][1], cases[i][2]));
  }
  return 0;
}
`;
    const got = parseInts(buildAndRun(dir, { 'main.c': main }));
    const want = all.map(([x, m, s]) => multiplyByQuantizedMultiplier(x, m, s));
    expect(got.length).toBe(all.length);
    const mismatches = all.filter((_, i) => got[i] !== want[i]).slice(0, 5);
    expect(mismatches).toEqual([]);
    expect(got).toEqual(want);
  });
});
