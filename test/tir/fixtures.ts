/** Small TIR programs shaped like what lowering produces, shared by the TIR tests. */
import {
  add,
  allocate,
  allocateConst,
  bufferLoad,
  bufferStore,
  callCpacked,
  callExtern,
  evaluate,
  forLoop,
  intImm,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { MAIN_PRIM_FUNC, PrimFunc, TirModule } from '../../src/ir/tir/nodes';

/** b[i] = a[i] + 1 over 64 int8 elements, params (a, b) viewed through bufferMap. */
export function fusedAdd(n = 64): PrimFunc {
  const a = makeVar('a', 'handle', 'int8');
  const b = makeVar('b', 'handle', 'int8');
  const aBuf = makeBuffer('a_buf', 'int8', [n]);
  const bBuf = makeBuffer('b_buf', 'int8', [n]);
  const i = makeVar('i');
  return primFunc({
    params: [a, b],
    bufferMap: [
      [a, aBuf],
      [b, bBuf],
    ],
    body: forLoop(i, 0, n, bufferStore(bBuf, add(bufferLoad(aBuf, [i]), intImm(1, 'int8')), [i])),
    attrs: { global_symbol: 'tvmgen_default_fused_add', target: 'accel' },
  });
}

/**
 * main(input, output): sid_1 = add(input); output = add(sid_1) + weights[0] via an extern.
 * Exercises Allocate with pool annotations, AllocateConst and both call kinds.
 */
export function smallModule(): TirModule {
  const input = makeVar('input', 'handle', 'int8');
  const output = makeVar('output', 'handle', 'int8');
  const sid = makeVar('sid_1', 'handle', 'int8');
  const w = makeVar('weights', 'handle', 'int8');
  const body = allocateConst({
    bufferVar: w,
    dtype: 'int8',
    extents: [4],
    data: new Uint8Array([5, 6, 7, 8]),
    body: allocate({
      bufferVar: sid,
      dtype: 'int8',
      extents: [64],
      annotations: { candidate_memory_pools: ['act_mem'] },
      body: seq([
        evaluate(callCpacked('tvmgen_default_fused_add', [input, sid])),
        evaluate(callExtern('tvmgen_default_fused_add', [sid, output])),
        evaluate(callExtern('add_first_weight', [output, w, 64])),
      ]),
    }),
  });
  const inBuf = makeBuffer('input_buf', 'int8', [64], input);
  const outBuf = makeBuffer('output_buf', 'int8', [64], output);
  const main = primFunc({
    params: [input, output],
    bufferMap: [
      [input, inBuf],
      [output, outBuf],
    ],
    body,
    attrs: { global_symbol: MAIN_PRIM_FUNC, runner_function: true },
  });
  return tirModule([
    [MAIN_PRIM_FUNC, main],
    ['tvmgen_default_fused_add', fusedAdd()],
  ]);
}
