/**
 * A module after a hand-made USMP offset rewrite: pool params `<pool>_var` on every
 * function, `LetStmt(buf, tir.pool_ptr(pool, offset))` for planned buffers, an internal
 * workspace pool, an application-supplied (external) pool, an internal constant pool, and
 * the model input planned into the workspace (map_inputs).
 */
import { generateC } from '../../src/codegen/c/generate';
import {
  add,
  bufferLoad,
  bufferStore,
  call,
  callExtern,
  cast,
  evaluate,
  forLoop,
  intImm,
  letStmt,
  makeBuffer,
  makeVar,
  max,
  min,
  mul,
  primFunc,
  seq,
  sub,
  tirModule,
} from '../../src/ir/tir/builder';
import { Stmt, Var } from '../../src/ir/tir/nodes';
import { PlannedPool, PoolInfo } from '../../src/usmp/types';
import { MemoryLayout } from '../../src/codegen/types';
import { buildAndRun, compileHeaderAsCxx, makeTempDir, parseInts, removeDir, writeArtifacts } from './cc';
import { int8Bytes, N, WEIGHTS } from './modules';

function pool(name: string, kind: 'workspace' | 'constant', internal: boolean): PoolInfo {
  return { name, kind, internal, alignment: 16, targetAccess: { c: kind === 'constant' ? 'ro' : 'rw' } };
}

const WS = pool('sram', 'workspace', true);
const EXT = pool('ext_dram', 'workspace', false);
const CONST = pool('flash', 'constant', true);
const WS_SIZE = 96;
const EXT_SIZE = 48;
const CONST_DATA = new Uint8Array(32);
CONST_DATA.set(int8Bytes(WEIGHTS), 16);
const INPUT_OFFSET = 64;

const poolPtr = (v: Var, off: number) => call('tir.pool_ptr', 'handle', [v, intImm(off)]);

/** Operator PrimFuncs take the three pool params after their tensors. */
function poolParams(): [Var, Var, Var] {
  return [makeVar('sram_var', 'handle', 'uint8'), makeVar('ext_dram_var', 'handle', 'uint8'), makeVar('flash_var', 'handle', 'uint8')];
}

function module(inputInWorkspace: boolean) {
  // add: out(int32) = a + w, all tensors params.
  const a = makeBuffer('a', 'int8', [N]);
  const w = makeBuffer('w', 'int8', [N]);
  const o = makeBuffer('out', 'int32', [N]);
  const addPools = poolParams();
  const i = makeVar('i');
  const addFn = primFunc({
    params: [a.data, w.data, o.data, ...addPools],
    bufferMap: [
      [a.data, a],
      [w.data, w],
      [o.data, o],
    ],
    body: forLoop(i, 0, N, bufferStore(o, add(cast('int32', bufferLoad(a, [i])), cast('int32', bufferLoad(w, [i]))), [i])),
  });

  // scale: an operator-internal scratch planned into the external pool.
  const sin = makeBuffer('in', 'int32', [N]);
  const sout = makeBuffer('out', 'int8', [N]);
  const tmp = makeBuffer('scratch', 'int32', [N]);
  const scPools = poolParams();
  const k = makeVar('i');
  const k2 = makeVar('i');
  const scaleBody: Stmt = letStmt(
    tmp.data,
    poolPtr(scPools[1], 16),
    seq([
      forLoop(k, 0, N, bufferStore(tmp, sub(mul(bufferLoad(sin, [k]), 2), 5), [k])),
      forLoop(k2, 0, N, bufferStore(sout, cast('int8', min(max(bufferLoad(tmp, [k2]), -128), 127)), [k2])),
    ]),
  );
  const scaleFn = primFunc({
    params: [sin.data, sout.data, ...scPools],
    bufferMap: [
      [sin.data, sin],
      [sout.data, sout],
    ],
    body: scaleBody,
  });

  const mainPools = poolParams();
  const x = makeVar('x', 'handle', 'int8');
  const y = makeVar('y', 'handle', 'int8');
  const wv = makeVar('w', 'handle', 'int8');
  const sid = makeVar('sid_1', 'handle', 'int32');
  const calls = seq([
    evaluate(callExtern('tvmgen_default_fused_add', [x, wv, sid, ...mainPools])),
    evaluate(callExtern('tvmgen_default_fused_scale', [sid, y, ...mainPools])),
  ]);
  let body: Stmt = letStmt(wv, poolPtr(mainPools[2], 16), letStmt(sid, poolPtr(mainPools[0], 0), calls));
  if (inputInWorkspace) body = letStmt(x, poolPtr(mainPools[0], INPUT_OFFSET), body);
  const main = primFunc({ params: [...(inputInWorkspace ? [] : [x]), y, ...mainPools], body });
  return tirModule([
    ['__tvm_main__', main],
    ['tvmgen_default_fused_add', addFn],
    ['tvmgen_default_fused_scale', scaleFn],
  ]);
}

function memory(inputInWorkspace: boolean): MemoryLayout {
  const pools: PlannedPool[] = [
    { pool: WS, sizeBytes: WS_SIZE },
    { pool: EXT, sizeBytes: EXT_SIZE },
    { pool: CONST, sizeBytes: CONST_DATA.length, data: CONST_DATA },
  ];
  return {
    pools,
    inputs: inputInWorkspace ? [{ name: 'x', pool: 'sram', offset: INPUT_OFFSET, sizeBytes: N }] : [],
    outputs: [],
    algorithm: 'greedy_by_size',
  };
}

const IN = [1, -2, 30, 100, 127, -128, 0, 64];
const EXPECTED = IN.map((v, i) => Math.max(-128, Math.min(127, (v + WEIGHTS[i]) * 2 - 5)));

function generate(inputInWorkspace: boolean) {
  return generateC({
    module: module(inputInWorkspace),
    inputs: [{ name: 'x', dtype: 'int8', shape: [N] }],
    outputs: [{ name: 'y', dtype: 'int8', shape: [N] }],
    memory: memory(inputInWorkspace),
  });
}

describe('pool-rewritten module to C', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('pools');
  });
  afterEach(() => removeDir(dir));

  it('passes internal, external and constant pools to every function', () => {
    const artifacts = generate(false);
    writeArtifacts(dir, artifacts);
    const main = `#include <stdio.h>
#include "tvmgen_default.h"
static uint8_t ext[TVMGEN_DEFAULT_EXT_DRAM_WORKSPACE_POOL_SIZE] __attribute__((aligned(16)));
int main(void) {
  int8_t in[${N}] = {${IN.join(', ')}};
  int8_t out[${N}];
  struct tvmgen_default_inputs inputs = { in };
  struct tvmgen_default_outputs outputs = { out };
  struct tvmgen_default_workspace_pools pools = { ext };
  int i;
  if (tvmgen_default_run(&inputs, &outputs, &pools) != 0) return 3;
  for (i = 0; i < ${N}; ++i) printf("%d\\n", out[i]);
  return 0;
}
`;
    expect(parseInts(buildAndRun(dir, { 'main.c': main }))).toEqual(EXPECTED);
    compileHeaderAsCxx(dir, 'tvmgen_default.h');
    const header = artifacts.files.find((f) => f.path === 'include/tvmgen_default.h')?.content ?? '';
    expect(header).toContain(`#define TVMGEN_DEFAULT_SRAM_WORKSPACE_POOL_SIZE ${WS_SIZE}`);
    expect(header).toContain(`#define TVMGEN_DEFAULT_EXT_DRAM_WORKSPACE_POOL_SIZE ${EXT_SIZE}`);
    expect(header).toContain(`#define TVMGEN_DEFAULT_FLASH_CONSTANT_POOL_SIZE 32`);
    expect(header).toContain('struct tvmgen_default_workspace_pools {\n  uint8_t* ext_dram;\n};');
    const lib0 = artifacts.files.find((f) => f.path === 'src/default_lib0.c')?.content ?? '';
    expect(lib0).toContain(`static uint8_t sram[${WS_SIZE}] __attribute__((aligned(16)));`);
    expect(lib0).toMatch(/static const uint8_t flash\[32\]/);
    const lib1 = artifacts.files.find((f) => f.path === 'src/default_lib1.c')?.content ?? '';
    expect(lib1).toContain('int32_t* sid_1 = (int32_t*)(&sram_var[0]);');
    expect(artifacts.metadata.pools.map((p) => [p.name, p.sizeBytes, p.internal])).toEqual([
      ['sram', WS_SIZE, true],
      ['ext_dram', EXT_SIZE, false],
      ['flash', 32, true],
    ]);
    expect(artifacts.metadata.memoryPlanningAlgorithm).toBe('greedy_by_size');
  });

  it('maps an input planned into the workspace, zero-copy or copied in', () => {
    const artifacts = generate(true);
    writeArtifacts(dir, artifacts);
    const main = `#include <stdio.h>
#include <string.h>
#include "tvmgen_default.h"
static uint8_t ext[TVMGEN_DEFAULT_EXT_DRAM_WORKSPACE_POOL_SIZE] __attribute__((aligned(16)));
int main(void) {
  const int8_t data[${N}] = {${IN.join(', ')}};
  int8_t own[${N}];
  int8_t out[${N}];
  struct tvmgen_default_workspace_pools pools = { ext };
  struct tvmgen_default_inputs inputs = tvmgen_default_map_inputs(&pools);
  struct tvmgen_default_outputs outputs = { out };
  int i;
  memcpy(inputs.x, data, sizeof(data));
  if (tvmgen_default_run(&inputs, &outputs, &pools) != 0) return 3;
  for (i = 0; i < ${N}; ++i) printf("%d\\n", out[i]);
  /* Second run from the application's own buffer: run copies it into the pool. */
  memset(tvmgen_default_map_inputs(&pools).x, 0, ${N});
  memcpy(own, data, sizeof(data));
  inputs.x = own;
  if (tvmgen_default_run(&inputs, &outputs, &pools) != 0) return 4;
  for (i = 0; i < ${N}; ++i) printf("%d\\n", out[i]);
  return 0;
}
`;
    expect(parseInts(buildAndRun(dir, { 'main.c': main }))).toEqual([...EXPECTED, ...EXPECTED]);
    compileHeaderAsCxx(dir, 'tvmgen_default.h');
    expect(artifacts.metadata.inputs[0]).toMatchObject({ name: 'x', pool: 'sram', offset: INPUT_OFFSET });
  });
});
