/**
 * Offloaded function calling backend kernels through `tir.call_extern`: the backend hook's
 * includes and kernel sources are shipped, the host-side extern gets an inferred prototype,
 * and a failing kernel makes `tvmgen_default_run` return non-zero.
 */
import { generateC } from '../../src/codegen/c/generate';
import { BackendCodegenHook } from '../../src/codegen/types';
import {
  allocate,
  callExtern,
  evaluate,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
  tirModule,
} from '../../src/ir/tir/builder';
import { buildAndRun, makeTempDir, parseInts, removeDir, writeArtifacts } from './cc';
import { N } from './modules';

const KERNEL_H = `#ifndef ACCEL_KERNELS_H_
#define ACCEL_KERNELS_H_
#include <stdint.h>
int32_t accel_add_const(const int8_t* in, int8_t* out, int32_t n, int32_t c);
int32_t accel_relu(const int8_t* in, int8_t* out, int32_t n);
#endif
`;
const KERNEL_C = `#include "accel_kernels.h"
int32_t accel_add_const(const int8_t* in, int8_t* out, int32_t n, int32_t c) {
  int32_t i;
  if (c > 100) return 7; /* the accelerator refuses large constants */
  for (i = 0; i < n; ++i) { int32_t v = in[i] + c; out[i] = (int8_t)(v > 127 ? 127 : v); }
  return 0;
}
int32_t accel_relu(const int8_t* in, int8_t* out, int32_t n) {
  int32_t i;
  for (i = 0; i < n; ++i) out[i] = in[i] < 0 ? 0 : in[i];
  return 0;
}
`;

const HOOK: BackendCodegenHook = {
  target: 'accel',
  includes: '#include "accel_kernels.h"',
  runtimeSources: [
    { name: 'accel_kernels.h', content: KERNEL_H },
    { name: 'accel_kernels.c', content: KERNEL_C },
  ],
};

function module(constant: number) {
  const ain = makeVar('in', 'handle', 'int8');
  const aout = makeVar('out', 'handle', 'int8');
  const tmp = makeVar('tmp', 'handle', 'int8');
  const accel = primFunc({
    params: [ain, aout],
    bufferMap: [
      [ain, makeBuffer('in', 'int8', [N], ain)],
      [aout, makeBuffer('out', 'int8', [N], aout)],
    ],
    body: allocate({
      bufferVar: tmp,
      dtype: 'int8',
      extents: [N],
      body: seq([
        evaluate(callExtern('accel_add_const', [ain, tmp, N, constant])),
        evaluate(callExtern('accel_relu', [tmp, aout, N])),
      ]),
    }),
    attrs: { target: 'accel', global_symbol: 'tvmgen_default_accel_main_0' },
  });
  const hin = makeVar('in', 'handle', 'int8');
  const hout = makeVar('out', 'handle', 'int8');
  const host = primFunc({
    params: [hin, hout],
    body: evaluate(callExtern('app_double', [hin, hout, N])),
  });
  const x = makeVar('x', 'handle', 'int8');
  const y = makeVar('y', 'handle', 'int8');
  const sid = makeVar('sid_1', 'handle', 'int8');
  const main = primFunc({
    params: [x, y],
    body: allocate({
      bufferVar: sid,
      dtype: 'int8',
      extents: [N],
      body: seq([
        evaluate(callExtern('accel_main_0', [x, sid])),
        evaluate(callExtern('tvmgen_default_fused_double', [sid, y])),
      ]),
    }),
  });
  return tirModule([
    ['__tvm_main__', main],
    ['accel_main_0', accel],
    ['tvmgen_default_fused_double', host],
  ]);
}

const IN = [1, -2, 30, 100, 127, -128, 0, -4];

const TEST_MAIN = `#include <stdio.h>
#include "tvmgen_default.h"
int32_t app_double(int8_t* in, int8_t* out, int32_t n);
int32_t app_double(int8_t* in, int8_t* out, int32_t n) {
  int32_t i;
  for (i = 0; i < n; ++i) { int32_t v = 2 * in[i]; out[i] = (int8_t)(v > 127 ? 127 : v); }
  return 0;
}
int main(void) {
  int8_t in[${N}] = {${IN.join(', ')}};
  int8_t out[${N}] = {0};
  struct tvmgen_default_inputs inputs = { in };
  struct tvmgen_default_outputs outputs = { out };
  int i;
  int32_t status = tvmgen_default_run(&inputs, &outputs);
  printf("%d\\n", (int)status);
  for (i = 0; i < ${N}; ++i) printf("%d\\n", out[i]);
  return 0;
}
`;

function generate(constant: number) {
  return generateC({
    module: module(constant),
    inputs: [{ name: 'x', dtype: 'int8', shape: [N] }],
    outputs: [{ name: 'y', dtype: 'int8', shape: [N] }],
    backends: [HOOK],
  });
}

describe('extern kernels and backend hooks', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('extern');
  });
  afterEach(() => removeDir(dir));

  it('runs offloaded kernels and a host extern', () => {
    const artifacts = generate(3);
    expect(artifacts.files.map((f) => f.path)).toContain('src/default_lib2.c');
    expect(artifacts.runtimeFiles.map((f) => f.path)).toEqual(expect.arrayContaining(['src/accel_kernels.c', 'include/accel_kernels.h']));
    const lib2 = artifacts.files.find((f) => f.path === 'src/default_lib2.c')?.content ?? '';
    expect(lib2).toContain('#include "accel_kernels.h"');
    expect(lib2).toContain('TVM_DLL int32_t tvmgen_default_accel_main_0(int8_t* in, int8_t* out)');
    // The backend declares its kernels; the host file infers the app's extern.
    expect(lib2).not.toMatch(/^int32_t accel_relu\(/m);
    const lib1 = artifacts.files.find((f) => f.path === 'src/default_lib1.c')?.content ?? '';
    expect(lib1).toContain('int32_t app_double(int8_t*, int8_t*, int32_t);');
    expect(artifacts.metadata.targets).toEqual(['c', 'accel']);
    expect(artifacts.metadata.functions.find((f) => f.name === 'accel_main_0')).toMatchObject({
      target: 'accel',
      file: 'src/default_lib2.c',
      symbol: 'tvmgen_default_accel_main_0',
    });

    writeArtifacts(dir, artifacts);
    const got = parseInts(buildAndRun(dir, { 'main.c': TEST_MAIN }));
    const want = IN.map((v) => Math.min(127, 2 * Math.max(0, Math.min(127, v + 3))));
    expect(got).toEqual([0, ...want]);
  });

  it('propagates a failing kernel as a non-zero status and skips the rest', () => {
    writeArtifacts(dir, generate(101));
    const got = parseInts(buildAndRun(dir, { 'main.c': TEST_MAIN }));
    expect(got[0]).toBe(-1);
    expect(got.slice(1)).toEqual(IN.map(() => 0));
  });

  it('lets a backend replace the text of an extern call', () => {
    const artifacts = generateC({
      module: module(3),
      inputs: [{ name: 'x', dtype: 'int8', shape: [N] }],
      outputs: [{ name: 'y', dtype: 'int8', shape: [N] }],
      backends: [{ ...HOOK, replaceCallExtern: (name, args) => (name === 'accel_relu' ? `accel_relu(${args.join(', ')}) * 0` : undefined) }],
    });
    const lib2 = artifacts.files.find((f) => f.path === 'src/default_lib2.c')?.content ?? '';
    expect(lib2).toContain('if (accel_relu(tmp, out, 8) * 0 != 0) {');
  });

  it('rejects runtime sources that would overwrite generated files', () => {
    expect(() =>
      generateC({
        module: module(3),
        inputs: [{ name: 'x', dtype: 'int8', shape: [N] }],
        outputs: [{ name: 'y', dtype: 'int8', shape: [N] }],
        backends: [{ target: 'accel', includes: '', runtimeSources: [{ name: 'default_lib1.c', content: '' }] }],
      }),
    ).toThrow(/clashes with a generated file/);
  });
});
