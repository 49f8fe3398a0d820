/**
 * The accel C runtime compiled with gcc: the kernels compute what their TS simulations
 * compute (which the other tests tie to the interpreter), and every pointer rule traps with
 * exit status 3 and a message naming the kernel, the argument and the pool.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importTflite, quantParams, tir, verifyModel } from '../../src/index';
import { biaslessModel } from '../testData';
import { CONV_SCALAR_PARAMS, ConvScalars } from './convParams';
import { accelRuntimeDir } from './runtimeSources';
import { accelKernelSimulations } from './simulation';

const UMA_RUNTIME_DIR = path.join(__dirname, '..', '..', 'src', 'codegen', 'c', 'runtime');

const SCALARS: ConvScalars = {
  batches: 1,
  in_h: 6,
  in_w: 5,
  in_c: 3,
  out_h: 3,
  out_w: 3,
  out_c: 4,
  k_h: 3,
  k_w: 3,
  stride_h: 2,
  stride_w: 2,
  dilation_h: 1,
  dilation_w: 1,
  pad_top: 1,
  pad_left: 1,
  input_offset: 6,
  output_offset: -3,
  act_min: -3,
  act_max: 127,
};

function bytes(n: number, seed: number): Int8Array {
  let s = seed;
  return Int8Array.from({ length: n }, () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return ((s >>> 16) & 0xff) - 128;
  });
}

const input = bytes(SCALARS.in_h * SCALARS.in_w * SCALARS.in_c, 1);
const weights = bytes(SCALARS.out_c * SCALARS.k_h * SCALARS.k_w * SCALARS.in_c, 2);
const bias = Int32Array.from([1500, -700, 30, 9000]);
const { multipliers, shifts } = quantParams.perChannelMultipliers(0.05, [0.004, 0.009, 0.002, 0.0065], 0.07, 4);
const outputSize = SCALARS.out_h * SCALARS.out_w * SCALARS.out_c;

function cArray(type: string, name: string, values: ArrayLike<number>, attrs = ''): string {
  return `static ${type} ${name}[${values.length}]${attrs} = {${Array.from(values).join(', ')}};`;
}

/**
 * A program with the accelerator's pools (act_mem rw, l2_mem ro, wei_mem ro), a CPU-only
 * pool and an unregistered stack buffer; `call` is the kernel call (SCALARS = the conv's).
 */
function program(call: string): string {
  const scalars = CONV_SCALAR_PARAMS.map((k) => SCALARS[k]).join(', ');
  return `#include <stdio.h>
#include <string.h>
#include "accel_runtime.h"
static int8_t act_mem[1024] __attribute__((aligned(16)));
static int8_t l2_mem[1024] __attribute__((aligned(16)));
static int8_t cpu_mem[256] __attribute__((aligned(16)));
static int8_t wei_mem[1024] __attribute__((aligned(16)));
${cArray('const int8_t', 'input_data', input)}
${cArray('const int8_t', 'weight_data', weights)}
${cArray('const int32_t', 'bias_data', bias)}
${cArray('const int32_t', 'mult_data', multipliers)}
${cArray('const int32_t', 'shift_data', shifts)}
int main(void) {
  int8_t* in_act = act_mem;
  int8_t* out_act = act_mem + 512;
  int8_t* in_l2 = l2_mem;
  int8_t* in_cpu = cpu_mem;
  int8_t stack_buf[128];
  int8_t* w = wei_mem;
  int32_t* b = (int32_t*)(wei_mem + 512);
  int32_t* m = (int32_t*)(wei_mem + 640);
  int32_t* s = (int32_t*)(wei_mem + 768);
  int i;
  (void)in_l2; (void)in_cpu; (void)stack_buf;
  accel_register_pool("act_mem", act_mem, sizeof(act_mem), ACCEL_ACCESS_RW);
  accel_register_pool("l2_mem", l2_mem, sizeof(l2_mem), ACCEL_ACCESS_RO);
  accel_register_pool("cpu_mem", cpu_mem, sizeof(cpu_mem), ACCEL_ACCESS_NONE);
  accel_register_pool("wei_mem", wei_mem, sizeof(wei_mem), ACCEL_ACCESS_RO);
  memcpy(in_act, input_data, sizeof(input_data));
  memcpy(in_l2, input_data, sizeof(input_data));
  memcpy(in_cpu, input_data, sizeof(input_data));
  memcpy(w, weight_data, sizeof(weight_data));
  memcpy(b, bias_data, sizeof(bias_data));
  memcpy(m, mult_data, sizeof(mult_data));
  memcpy(s, shift_data, sizeof(shift_data));
  if (${call.replace(/SCALARS/g, scalars)} != 0) return 1;
  for (i = 0; i < ${outputSize}; ++i) printf("%d ", out_act[i]);
  return 0;
}
`;
}

function runProgram(call: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'accel-rt-'));
  try {
    fs.writeFileSync(path.join(dir, 'main.c'), program(call));
    const exe = path.join(dir, 'main');
    const rt = accelRuntimeDir();
    execFileSync('gcc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-I', rt, '-I', UMA_RUNTIME_DIR, '-o', exe, path.join(dir, 'main.c'), path.join(rt, 'accel_runtime.c')]);
    const r = spawnSync(exe, { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function simulatedConv(): number[] {
  const mem = (a: ArrayBufferView): tir.Pointer => tir.pointerTo(new Uint8Array(a.buffer.slice(0)));
  const out = new Uint8Array(outputSize);
  const conv = accelKernelSimulations().get('accel_conv2d')!;
  const args = [mem(input), mem(weights), mem(bias), tir.pointerTo(out), mem(multipliers), mem(shifts), ...CONV_SCALAR_PARAMS.map((k) => SCALARS[k])];
  conv(args, {} as tir.ExternContext);
  return Array.from(new Int8Array(out.buffer));
}

const CONV = 'accel_conv2d(INPUT, w, b, OUTPUT, m, s, SCALARS)';

describe('accel C runtime (gcc)', () => {
  it('accel_conv2d computes what the TS simulation computes, byte for byte', () => {
    const r = runProgram(CONV.replace('INPUT', 'in_act').replace('OUTPUT', 'out_act'));
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const expected = simulatedConv();
    expect(new Set(expected).size).toBeGreaterThan(3);
    expect(r.stdout.trim().split(' ').map(Number)).toEqual(expected);
  });

  it('accel_input_fetcher streams l2_mem into act_mem through its act_mem line buffer', () => {
    const r = runProgram('accel_input_fetcher(in_l2, out_act, act_mem + 900, 90, 16) + (memcmp(out_act, input_data, 90) != 0)');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.each([
    [CONV.replace('INPUT', 'in_l2').replace('OUTPUT', 'out_act'), /^accel trap: accel_conv2d argument 'input' at 0x[0-9a-f]+ lies in pool 'l2_mem', its operand constraint allows \{act_mem\}\n$/],
    [CONV.replace('INPUT', 'in_cpu').replace('OUTPUT', 'out_act'), /^accel trap: accel_conv2d argument 'input' at 0x[0-9a-f]+ lies in pool 'cpu_mem' which accel cannot read\n$/],
    [CONV.replace('INPUT', 'stack_buf').replace('OUTPUT', 'out_act'), /^accel trap: accel_conv2d argument 'input' at 0x[0-9a-f]+ lies outside every registered pool\n$/],
    [CONV.replace('INPUT', 'in_act').replace('OUTPUT', 'in_l2'), /^accel trap: accel_conv2d argument 'output' at 0x[0-9a-f]+ lies in pool 'l2_mem' which accel cannot write\n$/],
    [CONV.replace('INPUT', 'in_act').replace('OUTPUT', 'out_act').replace('w, b', 'w, (int32_t*)act_mem'), /^accel trap: accel_conv2d argument 'bias' .* its operand constraint allows \{wei_mem\}\n$/],
    [CONV.replace('INPUT', 'act_mem + 1000').replace('OUTPUT', 'out_act'), /^accel trap: accel_conv2d argument 'input' at 0x[0-9a-f]+ covers 90 bytes, past the end of pool 'act_mem'\n$/],
    ['accel_input_fetcher(in_act, out_act, act_mem + 900, 90, 16)', /^accel trap: accel_input_fetcher argument 'input' .* lies in pool 'act_mem', its operand constraint allows \{l2_mem\}\n$/],
  ])('traps with exit 3: %s', (call, message) => {
    const r = runProgram(call);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

describe('accel on a convolution without a bias (gcc)', () => {
  // Its conv constraint names the bias (input 2) as optional: before, a model whose
  // convolutions all lacked one was refused ("names input 2, but ... has 2 inputs").
  it('offloads it and computes what the interpreter does', () => {
    const report = verifyModel(importTflite(biaslessModel('CONV_2D')), { backend: 'accel' }); // its bundled pools.json
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(report.compile.artifacts.metadata.targets).toContain('accel');
  }, 60000);
});
