/**
 * Streaming end-to-end runs: an application that calls `tvmgen_<mod>_run` once per given
 * input set, in order, on one loaded program (so persistent state carries over), and prints
 * every output of every invocation. Host-only programs (internal pools) only.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeModelLibraryFormat } from '../../src/codegen/mlf';
import { CompileResult } from '../../src/driver/compile';
import { DTYPE_BYTES } from '../../src/ir/graph/types';
import { cIdent, STRICT_C } from './harness';

function cBytes(name: string, bytes: Uint8Array): string {
  return `static const uint8_t ${name}[${Math.max(1, bytes.length)}] = {${Array.from(bytes).join(',') || '0'}};`;
}

/** Builds and runs the program on `invocations` (one input list each); outputs per invocation. */
export function runStreaming(result: CompileResult, invocations: readonly (readonly Uint8Array[])[]): Uint8Array[][] {
  if (result.usmp.pools.some((p) => !p.pool.internal)) throw new Error('runStreaming supports internal pools only');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-stream-'));
  try {
    const mlf = path.join(dir, 'mlf');
    writeModelLibraryFormat(mlf, result.artifacts);
    const prefix = `tvmgen_${result.artifacts.moduleName}`;
    const host = path.join(mlf, 'codegen', 'host');
    const header = fs.readFileSync(path.join(host, 'include', `${prefix}.h`), 'utf8');
    const inFields = cIdent(header, `${prefix}_inputs`);
    const outFields = cIdent(header, `${prefix}_outputs`);
    const outSizes = result.outputs.map((o) => o.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[o.dtype]);
    const lines = ['#include <stdint.h>', '#include <stdio.h>', '#include <string.h>', `#include "${prefix}.h"`];
    invocations.forEach((inputs, k) => inputs.forEach((bytes, i) => lines.push(cBytes(`input_${k}_${i}`, bytes))));
    outSizes.forEach((n, i) => lines.push(`static uint8_t output_${i}[${n}] __attribute__((aligned(16)));`));
    lines.push('int main(void) {', `  struct ${prefix}_inputs in;`, `  struct ${prefix}_outputs out;`);
    outFields.forEach((f, i) => lines.push(`  out.${f} = (void*)output_${i};`));
    invocations.forEach((_, k) => {
      inFields.forEach((f, i) => lines.push(`  in.${f} = (void*)input_${k}_${i};`));
      lines.push(`  if (${prefix}_run(&in, &out) != 0) { fprintf(stderr, "run ${k} failed\\n"); return 2; }`);
      outSizes.forEach((_, i) => {
        lines.push(`  for (size_t b = 0; b < sizeof(output_${i}); b++) printf("%u ", (unsigned)output_${i}[b]);`, '  printf("\\n");');
      });
    });
    lines.push('  return 0;', '}');
    fs.writeFileSync(path.join(dir, 'main.c'), lines.join('\n') + '\n');
    const sources = fs.readdirSync(path.join(host, 'src')).filter((f) => f.endsWith('.c')).map((f) => path.join(host, 'src', f));
    execFileSync('gcc', [...STRICT_C, '-O2', `-I${path.join(host, 'include')}`, 'main.c', ...sources, '-o', 'prog', '-lm'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout = execFileSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8' });
    const rows = stdout.trim().split('\n').map((line) => Uint8Array.from(line.trim().split(/\s+/).filter(Boolean).map(Number)));
    if (rows.length !== invocations.length * outSizes.length) throw new Error(`expected ${invocations.length * outSizes.length} output rows, got ${rows.length}`);
    return invocations.map((_, k) => rows.slice(k * outSizes.length, (k + 1) * outSizes.length));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
