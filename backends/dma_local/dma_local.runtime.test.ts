/** The dma_local C runtime compiled with gcc: copies in both directions and every trap. */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importTflite, verifyModel } from '../../src/index';
import { biaslessModel } from '../testData';
import { dmaRuntimeDir } from './runtimeSources';

function run(body: string): { status: number | null; stdout: string; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dma-rt-'));
  try {
    const src = `#include <stdio.h>
#include <string.h>
#include "dma_local_runtime.h"
static int8_t sram[256], local_mem[128], cpu_only[64], flash[64];
int main(void) {
  int8_t stack_buf[16];
  int i;
  (void)stack_buf;
  for (i = 0; i < 256; ++i) sram[i] = (int8_t)(i * 7);
  dma_local_register_pool("sram", sram, sizeof(sram), DMA_LOCAL_ACCESS_RW);
  dma_local_register_pool("local_mem", local_mem, sizeof(local_mem), DMA_LOCAL_ACCESS_RW);
  dma_local_register_pool("cpu_only", cpu_only, sizeof(cpu_only), DMA_LOCAL_ACCESS_NONE);
  dma_local_register_pool("flash", flash, sizeof(flash), DMA_LOCAL_ACCESS_RO);
  ${body}
  return 0;
}
`;
    fs.writeFileSync(path.join(dir, 'main.c'), src);
    const exe = path.join(dir, 'main');
    const rt = dmaRuntimeDir();
    execFileSync('gcc', ['-std=c99', '-Wall', '-Wextra', '-Werror', '-I', rt, '-o', exe, path.join(dir, 'main.c'), path.join(rt, 'dma_local_runtime.c')]);
    const r = spawnSync(exe, { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('dma_local C runtime (gcc)', () => {
  it('copies sram -> local_mem -> sram', () => {
    const r = run(`if (dma_local_copy_in(sram + 10, local_mem + 4, 100) != 0) return 1;
  if (dma_local_copy_out(local_mem + 4, sram + 150, 100) != 0) return 1;
  printf("%d", memcmp(sram + 10, sram + 150, 100) == 0 && memcmp(sram + 10, local_mem + 4, 100) == 0);`);
    expect(r).toEqual({ status: 0, stdout: '1', stderr: '' });
  });

  it.each([
    ['dma_local_copy_in(local_mem, sram, 8);', /^dma_local trap: dma_local_copy_in argument 'src' at 0x[0-9a-f]+ lies in pool 'local_mem', its operand constraint allows \{sram\}\n$/],
    ['dma_local_copy_in(sram, sram + 64, 8);', /^dma_local trap: dma_local_copy_in argument 'dst' .* lies in pool 'sram', its operand constraint allows \{local_mem\}\n$/],
    ['dma_local_copy_out(local_mem, flash, 8);', /^dma_local trap: dma_local_copy_out argument 'dst' .* lies in pool 'flash' which dma_local cannot write\n$/],
    ['dma_local_copy_in(cpu_only, local_mem, 8);', /^dma_local trap: dma_local_copy_in argument 'src' .* lies in pool 'cpu_only' which dma_local cannot read\n$/],
    ['dma_local_copy_in(stack_buf, local_mem, 8);', /^dma_local trap: dma_local_copy_in argument 'src' .* lies outside every registered pool\n$/],
    ['dma_local_copy_in(sram, local_mem + 100, 64);', /^dma_local trap: dma_local_copy_in argument 'dst' .* covers 64 bytes, past the end of pool 'local_mem'\n$/],
  ])('traps with exit 3: %s', (body, message) => {
    const r = run(body);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(message);
  });
});

describe('dma_local on operators without a bias (gcc)', () => {
  // Its operand constraint names the bias (input 2) as optional: before, a model whose
  // convolutions all lacked one was refused ("names input 2, but ... has 2 inputs").
  it.each([['CONV_2D'], ['DEPTHWISE_CONV_2D'], ['FULLY_CONNECTED']] as const)('offloads %s and computes what the interpreter does', (op) => {
    const report = verifyModel(importTflite(biaslessModel(op)), { backend: 'dma_local' }); // its bundled pools.json
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(report.compile.artifacts.metadata.targets).toContain('dma_local');
  }, 60000);
});
