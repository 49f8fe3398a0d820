/**
 * A requantizing loop nest: 2-d indexing, a local accumulator, q_multiply_shift, LetStmt,
 * Select, IfThenElse, FloorDiv/FloorMod on negatives and a wrapping int8 cast. The C result
 * must equal the same arithmetic done in TS (TFLite fixed point, floor semantics, two's
 * complement), and UBSan must see no undefined behaviour.
 */
import { multiplyByQuantizedMultiplier } from '../../src/arith/fixedpoint';
import { generateC } from '../../src/codegen/c/generate';
import {
  add,
  allocate,
  allocateConst,
  binary,
  bufferLoad,
  bufferStore,
  call,
  callExtern,
  cast,
  eq,
  evaluate,
  floorDiv,
  floorMod,
  forLoop,
  ifThenElse,
  letStmt,
  lt,
  makeBuffer,
  makeVar,
  mul,
  primFunc,
  select,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { buildAndRun, makeTempDir, parseInts, removeDir, writeArtifacts } from './cc';
import { int32Bytes, opFunc } from './modules';

const H = 4;
const W = 6;
const BIAS = [-70000, 5000, 0, 123456, -1, 99999];
const M = 1518500250;
const S = -3;
const INPUT = Array.from({ length: H * W }, (_, k) => ((k * 37) % 256) - 128);

function module() {
  const op = opFunc(
    [
      makeBuffer('in', 'int8', [H, W]),
      makeBuffer('bias', 'int32', [W]),
      makeBuffer('out', 'int8', [H, W]),
      makeBuffer('aux', 'int32', [H, W]),
    ],
    ([inp, bias, out, aux]) => {
      const i = makeVar('i');
      const j = makeVar('j');
      const acc = makeBuffer('acc', 'int32', [1], undefined, 'local');
      const q = makeVar('q');
      const body = allocate({
        bufferVar: acc.data,
        dtype: 'int32',
        extents: [1],
        storageScope: 'local',
        body: seq([
          bufferStore(acc, add(mul(cast('int32', bufferLoad(inp, [i, j])), 1000), bufferLoad(bias, [j])), [0]),
          letStmt(
            q,
            call('tir.q_multiply_shift', 'int32', [bufferLoad(acc, [0]), M, S]),
            seq([
              bufferStore(out, cast('int8', select(binary('GT', q, 127), 127, select(lt(q, -128), -128, q))), [i, j]),
              bufferStore(aux, add(mul(floorDiv(q, 7), 100), floorMod(q, 7)), [i, j]),
              ifThenElse(
                eq(floorMod(add(i, j), 2), 0),
                bufferStore(aux, add(bufferLoad(aux, [i, j]), mul(cast('int32', cast('int8', q)), 1000000)), [i, j]),
              ),
            ]),
          ),
        ]),
      });
      return forLoop(i, 0, H, forLoop(j, 0, W, body, 'unrolled'), 'parallel');
    },
  );
  const x = makeVar('in', 'handle', 'int8');
  const y = makeVar('out', 'handle', 'int8');
  const z = makeVar('aux', 'handle', 'int32');
  const bias = makeVar('bias', 'handle', 'int32');
  const main = primFunc({
    params: [x, y, z],
    body: allocateConst({
      bufferVar: bias,
      dtype: 'int32',
      extents: [W],
      data: int32Bytes(BIAS),
      body: evaluate(callExtern('tvmgen_default_fused_qloop', [x, bias, y, z])),
    }),
  });
  return tirModule([
    ['__tvm_main__', main],
    ['tvmgen_default_fused_qloop', op],
  ]);
}

function expected(): { out: number[]; aux: number[] } {
  const out: number[] = [];
  const aux: number[] = [];
  for (let i = 0; i < H; i++) {
    for (let j = 0; j < W; j++) {
      const q = multiplyByQuantizedMultiplier(INPUT[i * W + j] * 1000 + BIAS[j], M, S);
      out.push(Math.max(-128, Math.min(127, q)));
      const fd = Math.floor(q / 7);
      let a = fd * 100 + (q - fd * 7);
      if ((i + j) % 2 === 0) a += ((q << 24) >> 24) * 1000000;
      aux.push(a);
    }
  }
  return { out, aux };
}

describe('loop nest with q_multiply_shift', () => {
  let dir: string;
  beforeAll(() => {
    dir = makeTempDir('loops');
  });
  afterAll(() => removeDir(dir));

  it('computes the TS reference values', () => {
    const artifacts = generateC({
      module: module(),
      inputs: [{ name: 'in', dtype: 'int8', shape: [H, W] }],
      outputs: [
        { name: 'out', dtype: 'int8', shape: [H, W] },
        { name: 'aux', dtype: 'int32', shape: [H, W] },
      ],
    });
    writeArtifacts(dir, artifacts);
    const main = `#include <stdio.h>
#include "tvmgen_default.h"
int main(void) {
  int8_t in[${H * W}] = {${INPUT.join(', ')}};
  int8_t out[${H * W}];
  int32_t aux[${H * W}];
  struct tvmgen_default_inputs inputs;
  struct tvmgen_default_outputs outputs;
  int k;
  inputs.in = in;
  outputs.out = out;
  outputs.aux = aux;
  if (tvmgen_default_run(&inputs, &outputs) != 0) return 3;
  for (k = 0; k < ${H * W}; ++k) printf("%d\\n", out[k]);
  for (k = 0; k < ${H * W}; ++k) printf("%ld\\n", (long)aux[k]);
  return 0;
}
`;
    const got = parseInts(buildAndRun(dir, { 'main.c': main }));
    const want = expected();
    expect(got.slice(0, H * W)).toEqual(want.out);
    expect(got.slice(H * W)).toEqual(want.aux);
    // Some values must actually exercise saturation, negative floor division and wrapping.
    expect(want.out).toContain(127);
    expect(want.out).toContain(-128);

    const lib1 = artifacts.files.find((f) => f.path === 'src/default_lib1.c')?.content ?? '';
    expect(lib1).toContain('/* parallel loop, emitted as a serial loop */');
    expect(lib1).toMatch(/int32_t acc\[1\];/);
    expect(lib1).toContain('uma_q_multiply_shift(');
    // Row-major flattening of a [4, 6] buffer.
    expect(lib1).toMatch(/in\[\(\(i \* 6\) \+ j\)\]/);
  });
});
