/**
 * A hand-built AoT module as lowering produces it: main with one weight constant and two
 * intermediates, two host operator functions and one offloaded `accel` function with its
 * own scratch buffer.
 *
 *   sid_1 = x + w          (tvmgen_default_fused_add,   c)
 *   sid_2 = sid_1 * 2 + 1  (tvmgen_default_accel_main_0, accel, via scratch)
 *   y     = sid_2 + 3      (tvmgen_default_fused_add_1, c)
 */
import {
  add,
  allocate,
  allocateConst,
  bufferLoad,
  bufferStore,
  forLoop,
  makeBuffer,
  makeVar,
  mul,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { ANN_CANDIDATE_POOLS, Annotations, MAIN_PRIM_FUNC, TirModule } from '../../src/ir/tir/nodes';
import { addConstFunc, callStmt, funcWithBuffers } from './helpers';

export const N = 8;
export const WEIGHTS = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);

function addFunc() {
  return funcWithBuffers(
    [
      ['a', 'int8', N],
      ['b', 'int8', N],
      ['out', 'int8', N],
    ],
    ([a, b, out]) => {
      const i = makeVar('i');
      return forLoop(i, 0, N, bufferStore(out, add(bufferLoad(a, [i]), bufferLoad(b, [i])), [i]));
    },
  );
}

function accelFunc() {
  return funcWithBuffers(
    [
      ['in', 'int8', N],
      ['out', 'int8', N],
    ],
    ([a, out]) => {
      const sv = makeVar('scratch', 'handle', 'int8');
      const scratch = makeBuffer('scratch', 'int8', [N], sv);
      const i = makeVar('i');
      const j = makeVar('j');
      return allocate({
        bufferVar: sv,
        dtype: 'int8',
        extents: [N],
        body: seq([
          forLoop(i, 0, N, bufferStore(scratch, mul(bufferLoad(a, [i]), 2), [i])),
          forLoop(j, 0, N, bufferStore(out, add(bufferLoad(scratch, [j]), 1), [j])),
        ]),
      });
    },
    { target: 'accel', global_symbol: 'accel_main_0' },
  );
}

/** `pinActivations`: what pool pinning writes for sid_1/sid_2, which the accelerator touches. */
export function aotModule(pinActivations: boolean): TirModule {
  const x = makeVar('x', 'handle', 'int8');
  const y = makeVar('y', 'handle', 'int8');
  const w = makeVar('w', 'handle', 'int8');
  const sid1 = makeVar('sid_1', 'handle', 'int8');
  const sid2 = makeVar('sid_2', 'handle', 'int8');
  const pin: Annotations = pinActivations ? { [ANN_CANDIDATE_POOLS]: ['act_mem'] } : {};
  const body = allocateConst({
    bufferVar: w,
    dtype: 'int8',
    extents: [N],
    data: WEIGHTS,
    body: allocate({
      bufferVar: sid1,
      dtype: 'int8',
      extents: [N],
      annotations: pin,
      body: allocate({
        bufferVar: sid2,
        dtype: 'int8',
        extents: [N],
        annotations: pin,
        body: seq([
          callStmt('tvmgen_default_fused_add', [x, w, sid1]),
          callStmt('tvmgen_default_accel_main_0', [sid1, sid2]),
          callStmt('tvmgen_default_fused_add_1', [sid2, y]),
        ]),
      }),
    }),
  });
  const main = primFunc({
    params: [x, y],
    bufferMap: [
      [x, makeBuffer('x', 'int8', [N], x)],
      [y, makeBuffer('y', 'int8', [N], y)],
    ],
    body,
    attrs: { runner_function: true, global_symbol: MAIN_PRIM_FUNC },
  });
  return tirModule([
    [MAIN_PRIM_FUNC, main],
    ['tvmgen_default_fused_add', addFunc()],
    ['tvmgen_default_accel_main_0', accelFunc()],
    ['tvmgen_default_fused_add_1', addConstFunc(N, 3)],
  ]);
}
