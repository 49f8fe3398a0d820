/**
 * The shipped C kernels uma_ref_quantize_rows_f32_asym (hybrid conv/dense input stage) and
 * uma_ref_quantize_rows_f32_asym_tflite (hybrid depthwise: TFLite's builtin recipe) against
 * their TypeScript twin (src/arith/hybrid.ts), on rows a float model can feed it: ordinary
 * values, ties, and non-finite ones (an infinity makes the row's multiplier 0 and its
 * descaled range NaN). Built under UBSan with float-cast-overflow, which -fsanitize=undefined
 * leaves out: a NaN zero point cast to int32 is undefined behaviour in C.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { HybridRecipe, quantizeRowsAsymmetric } from '../../src/arith/hybrid';
import { makeTempDir, parseInts, removeDir, STRICT_C } from './cc';

const RUNTIME = path.join(__dirname, '../../src/codegen/c/runtime');
const ROW = 4;
const ROWS: readonly number[][] = [
  [0, 2.55, 1, 0.5],
  [-1, 1, 0, 0.25],
  [Infinity, 1, -2, 0.5],
  [-Infinity, 1, -2, 0.5],
  [Infinity, -Infinity, 0, 1],
  [NaN, 1, -1, 0.25],
  [Infinity, NaN, 3, -3],
  // -0.0481 * (1 / scale) is -5.4999967: TFLite adds the zero point -90 in float first, -95.5,
  // and rounds it away from zero to -96; XNNPack rounds -5.4999967 to -5, then adds: -95.
  [-0.3320519030094147, -0.04809015616774559, 1.8975839614868164, 0.25],
  [1.5, 1.5, 1.5, 1.5],
];

function cFloat(v: number): string {
  if (Number.isNaN(v)) return 'NAN';
  if (v === Infinity) return 'INFINITY';
  if (v === -Infinity) return '-INFINITY';
  return `(float)${v}`;
}

describe.each([
  ['uma_ref_quantize_rows_f32_asym', 'xnnpack'],
  ['uma_ref_quantize_rows_f32_asym_tflite', 'tflite'],
] as const)('%s', (kernel: string, recipe: HybridRecipe) => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('qrows');
  });
  afterAll(() => removeDir(dir));

  it('matches the TypeScript twin on finite and non-finite rows, free of undefined behaviour', () => {
    const input = Float32Array.from(ROWS.flat());
    const js = quantizeRowsAsymmetric(input, ROWS.length, ROW, undefined, recipe);
    // The near-tie row: the two recipes part on its second value.
    expect(js.q[7 * ROW + 1]).toBe(recipe === 'tflite' ? -96 : -95);
    js.zeroPoints.forEach((z) => {
      expect(z).toBeGreaterThanOrEqual(-128);
      expect(z).toBeLessThanOrEqual(127);
    });
    const program = `#include <math.h>
#include <stdio.h>
#include "uma_ref_kernels.h"
int main(void) {
  static const float in[] = {${Array.from(ROWS.flat(), cFloat).join(', ')}};
  int8_t q[${input.length}];
  float scales[${ROWS.length}];
  int32_t zps[${ROWS.length}];
  int i;
  if (${kernel}(in, q, scales, zps, ${ROWS.length}, ${ROW}) != 0) return 1;
  for (i = 0; i < ${input.length}; i++) printf("%d ", q[i]);
  for (i = 0; i < ${ROWS.length}; i++) printf("%d ", zps[i]);
  printf("\\n");
  return 0;
}
`;
    fs.writeFileSync(path.join(dir, 'main.c'), program);
    const san = ['-fsanitize=undefined,float-cast-overflow', '-fno-sanitize-recover=all'];
    execFileSync('gcc', [...STRICT_C, ...san, '-O1', `-I${RUNTIME}`, 'main.c', path.join(RUNTIME, 'uma_ref_kernels.c'), '-o', 'prog', '-lm'], { cwd: dir, stdio: 'pipe' });
    const out = parseInts(execFileSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8' }));
    expect(out).toEqual([...js.q, ...js.zeroPoints]);
  });
});
