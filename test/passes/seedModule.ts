/**
 * The forum question's network, hand-lowered: CPU layout transform → accel function
 * (input fetcher → conv) → CPU strided slice, with the fetcher's output between two accel
 * kernels inside the offloaded function and the accel output in main.
 */
import {
  allocate,
  allocateConst,
  bufferLoad,
  bufferStore,
  callExtern,
  evaluate,
  forLoop,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { MAIN_PRIM_FUNC, PrimFunc, TirModule } from '../../src/ir/tir/nodes';
import { withOperatorRecords } from '../../src/ir/tir/operators';
import { PoolInfo } from '../../src/usmp/types';

function copyFunc(name: string, op: string, n: number): PrimFunc {
  const a = makeBuffer('a', 'int8', [n]);
  const b = makeBuffer('b', 'int8', [n]);
  const i = makeVar('i');
  const f = primFunc({
    params: [a.data, b.data],
    bufferMap: [
      [a.data, a],
      [b.data, b],
    ],
    body: forLoop(i, 0, n, bufferStore(b, bufferLoad(a, [i]), [i])),
    attrs: { global_symbol: name, target: 'c' },
  });
  return withOperatorRecords(f, [{ name: op, op, target: 'c', inputs: ['a'], outputs: ['b'], scratch: [] }]);
}

export function seedModule(n = 256): TirModule {
  const p0 = makeVar('p0', 'handle', 'int8');
  const w = makeVar('w', 'handle', 'int8');
  const out = makeVar('out', 'handle', 'int8');
  const fetched = makeVar('input_fetcher', 'handle', 'int8');
  const accel = withOperatorRecords(
    primFunc({
      params: [p0, w, out],
      body: allocate({
        bufferVar: fetched,
        dtype: 'int8',
        extents: [n],
        body: seq([
          evaluate(callExtern('accel_input_fetcher', [p0, fetched])),
          evaluate(callExtern('accel_conv2d', [fetched, w, out])),
        ]),
      }),
      attrs: { global_symbol: 'tvmgen_default_accel_main_0', target: 'accel' },
    }),
    [
      {
        name: 'fetch',
        op: 'copy',
        composite: 'accel.accel_input_fetcher',
        target: 'accel',
        inputs: ['p0'],
        outputs: ['input_fetcher'],
        scratch: [],
      },
      {
        name: 'conv',
        op: 'conv2d',
        composite: 'accel.accel_conv2d',
        target: 'accel',
        inputs: ['input_fetcher', 'w'],
        outputs: ['out'],
        scratch: [],
      },
    ],
  );
  const data = makeVar('data', 'handle', 'int8');
  const output = makeVar('output', 'handle', 'int8');
  const constant0 = makeVar('constant_0', 'handle', 'int8');
  const sid1 = makeVar('sid_1', 'handle', 'int8');
  const sid3 = makeVar('sid_3', 'handle', 'int8');
  const main = primFunc({
    params: [data, output],
    body: allocateConst({
      bufferVar: constant0,
      dtype: 'int8',
      extents: [16],
      data: new Uint8Array(16),
      body: allocate({
        bufferVar: sid1,
        dtype: 'int8',
        extents: [n],
        annotations: { 'uma.tensor': 'transposed' },
        body: allocate({
          bufferVar: sid3,
          dtype: 'int8',
          extents: [n],
          annotations: { 'uma.tensor': 'conv_out' },
          body: seq([
            evaluate(callExtern('tvmgen_default_fused_layout_transform', [data, sid1])),
            evaluate(callExtern('tvmgen_default_accel_main_0', [sid1, constant0, sid3])),
            evaluate(callExtern('tvmgen_default_fused_strided_slice', [sid3, output])),
          ]),
        }),
      }),
    }),
    attrs: { global_symbol: MAIN_PRIM_FUNC, runner_function: true },
  });
  return tirModule([
    [MAIN_PRIM_FUNC, main],
    ['tvmgen_default_fused_layout_transform', copyFunc('tvmgen_default_fused_layout_transform', 'layout_transform', n)],
    ['tvmgen_default_accel_main_0', accel],
    ['tvmgen_default_fused_strided_slice', copyFunc('tvmgen_default_fused_strided_slice', 'strided_slice', n)],
  ]);
}

export function pool(name: string, targets: Record<string, 'rw' | 'ro'>, kind: 'workspace' | 'constant' = 'workspace', sizeHintBytes?: number): PoolInfo {
  return {
    name,
    kind,
    targetAccess: targets,
    alignment: 16,
    internal: true,
    ...(sizeHintBytes !== undefined ? { sizeHintBytes } : {}),
  };
}

/** The seed's pools: l2_mem for the CPU (the accel's fetcher may read it), act_mem shared. */
export const SEED_POOLS: PoolInfo[] = [
  pool('l2_mem', { c: 'rw', accel: 'ro' }),
  pool('act_mem', { c: 'rw', accel: 'rw' }),
  pool('wei_mem', { c: 'ro', accel: 'ro' }, 'constant'),
];
