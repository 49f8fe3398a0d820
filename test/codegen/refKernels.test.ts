/**
 * The shipped C reference kernel uma_ref_softmax_int8 against the TS simulation the TIR
 * evaluator uses for the same extern (src/lower/cpu/externSim.ts): the same lowered-style
 * module runs in both and must give identical bytes.
 */
import { softmaxQuantParams } from '../../src/arith/quant-params';
import { generateC } from '../../src/codegen/c/generate';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu/externSim';
import { callExtern, evaluate, makeBuffer, makeVar, primFunc, seq, tirModule } from '../../src/ir/tir/builder';
import { runPrimFunc } from '../../src/ir/tir/eval';
import { buildAndRun, makeTempDir, parseInts, randInt, removeDir, rng } from './cc';
import { writeArtifacts } from './cc';

const ROWS = 3;
const DEPTH = 10;
const SCALES = [0.5, 0.0625, 0.00390625, 0.1171875];

function module() {
  const ops = SCALES.map((scale, k) => {
    const p = softmaxQuantParams(1, scale);
    const inp = makeBuffer('in', 'int8', [ROWS, DEPTH]);
    const out = makeBuffer('out', 'int8', [ROWS, DEPTH]);
    return [
      `tvmgen_default_fused_softmax_${k}`,
      primFunc({
        params: [inp.data, out.data],
        bufferMap: [
          [inp.data, inp],
          [out.data, out],
        ],
        body: evaluate(
          callExtern('uma_ref_softmax_int8', [inp.data, out.data, ROWS, DEPTH, p.inputMultiplier, p.inputLeftShift, p.diffMin]),
        ),
      }),
    ] as const;
  });
  const x = makeVar('x', 'handle', 'int8');
  const ys = SCALES.map((_, k) => makeVar(`y${k}`, 'handle', 'int8'));
  const main = primFunc({
    params: [x, ...ys],
    body: seq(ops.map(([name], k) => evaluate(callExtern(name, [x, ys[k]])))),
  });
  return tirModule([['__tvm_main__', main], ...ops]);
}

describe('uma_ref_softmax_int8', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('softmax');
  });
  afterAll(() => removeDir(dir));

  it('matches the TS simulation bit for bit', () => {
    const r = rng(7);
    const input = Array.from({ length: ROWS * DEPTH }, (_, i) => (i < DEPTH ? (i * 29) % 256 - 128 : randInt(r, -128, 127)));
    const mod = module();
    const artifacts = generateC({
      module: mod,
      inputs: [{ name: 'x', dtype: 'int8', shape: [ROWS, DEPTH] }],
      outputs: SCALES.map((_, k) => ({ name: `y${k}`, dtype: 'int8' as const, shape: [ROWS, DEPTH] })),
    });
    expect(artifacts.runtimeFiles.map((f) => f.path)).toEqual(expect.arrayContaining(['src/uma_ref_kernels.c', 'include/uma_ref_kernels.h']));
    writeArtifacts(dir, artifacts);
    const n = ROWS * DEPTH;
    const main = `#include <stdio.h>
#include "tvmgen_default.h"
int main(void) {
  int8_t in[${n}] = {${input.join(', ')}};
  int8_t out[${SCALES.length}][${n}];
  struct tvmgen_default_inputs inputs;
  struct tvmgen_default_outputs outputs;
  int k, i;
  inputs.x = in;
${SCALES.map((_, k) => `  outputs.y${k} = out[${k}];`).join('\n')}
  if (tvmgen_default_run(&inputs, &outputs) != 0) return 3;
  for (k = 0; k < ${SCALES.length}; ++k) for (i = 0; i < ${n}; ++i) printf("%d\\n", out[k][i]);
  return 0;
}
`;
    const got = parseInts(buildAndRun(dir, { 'main.c': main }));
    const want: number[] = [];
    SCALES.forEach((_, k) => {
      const inBytes = Int8Array.from(input);
      const outBytes = new Uint8Array(n);
      runPrimFunc(mod, `tvmgen_default_fused_softmax_${k}`, [new Uint8Array(inBytes.buffer), outBytes], {
        externs: LOWERING_EXTERN_SIMULATIONS,
      });
      want.push(...Array.from(new Int8Array(outBytes.buffer)));
    });
    expect(got).toEqual(want);
    // Probabilities: each row's dequantized outputs sum to about 1.
    const row = want.slice(0, DEPTH).reduce((a, v) => a + (v + 128) / 256, 0);
    expect(Math.abs(row - 1)).toBeLessThan(0.05);
  });
});
