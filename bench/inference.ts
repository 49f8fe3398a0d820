/**
 * Inference time of a compiled model's generated C: the MLF sources plus a timing `main.c`
 * built with `gcc -O2`, run once on seeded random inputs; the program calls `tvmgen_<mod>_run` repeatedly and prints
 * the median CPU time of one call in microseconds (process CPU time, so other load on
 * the machine inflates it less than wall time would).
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildLayout } from '../src/codegen/layout';
import { writeModelLibraryFormat } from '../src/codegen/mlf';
import { CompileResult } from '../src/driver/compile';
import { DTYPE_BYTES } from '../src/ir/graph/types';
import { randomInvocations } from '../src/verify/inputs';

/** The inputs' seed (as `uma-ts run`'s default). */
const INPUT_SEED = 1;

export interface InferenceTiming {
  /** Median microseconds of one `tvmgen_<mod>_run`. */
  readonly medianUs: number;
  readonly runs: number;
}

/** Field names of `struct <name>` in a generated header. */
function structFields(header: string, name: string): string[] {
  const m = new RegExp(`struct ${name} \\{([^}]*)\\}`).exec(header);
  return m ? [...m[1].matchAll(/\*\s*([A-Za-z_][A-Za-z0-9_]*);/g)].map((x) => x[1]) : [];
}

function timingMain(result: CompileResult, header: string, runs: number): string {
  const prefix = `tvmgen_${result.artifacts.moduleName}`;
  const external = result.usmp.pools.filter((p) => !p.pool.internal);
  const lines = ['#include <stdint.h>', '#include <stdio.h>', '#include <stdlib.h>', '#include <string.h>', '#include <time.h>', `#include "${prefix}.h"`];
  const bytes = (t: { shape: readonly number[]; dtype: string }) => t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype as keyof typeof DTYPE_BYTES];
  result.inputs.forEach((t, i) => lines.push(`static uint8_t in_${i}[${Math.max(1, bytes(t))}] __attribute__((aligned(16)));`));
  result.outputs.forEach((t, i) => lines.push(`static uint8_t out_${i}[${Math.max(1, bytes(t))}] __attribute__((aligned(16)));`));
  for (const p of external) lines.push(`static uint8_t pool_${p.pool.name}[${Math.max(1, p.sizeBytes)}] __attribute__((aligned(64)));`);
  lines.push(
    'static int cmp(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }',
    'static double now_us(void) { struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }',
    'int main(void) {',
    `  static double times[${runs}];`,
    `  struct ${prefix}_inputs in; struct ${prefix}_outputs out;`,
    '  memset(&in, 0, sizeof in); memset(&out, 0, sizeof out);',
  );
  // Inputs: the seeded random tensors `uma-ts run` uses, read from in_<i>.bin. Zero inputs
  // flattered branchy code (every sign test predicted, fixed-point early outs taken).
  structFields(header, `${prefix}_inputs`).forEach((f, i) => {
    lines.push(`  { FILE *fp = fopen("in_${i}.bin", "rb"); if (!fp || fread(in_${i}, 1, sizeof in_${i}, fp) != sizeof in_${i}) return 3; fclose(fp); }`);
    lines.push(`  in.${f} = (void *)in_${i};`);
  });
  structFields(header, `${prefix}_outputs`).forEach((f, i) => lines.push(`  out.${f} = (void *)out_${i};`));
  const args = ['&in', '&out'];
  const ws = structFields(header, `${prefix}_workspace_pools`);
  if (ws.length > 0) {
    lines.push(`  struct ${prefix}_workspace_pools ws;`, ...ws.map((f) => `  ws.${f} = pool_${f};`));
    args.push('&ws');
  }
  const cp = structFields(header, `${prefix}_constant_pools`);
  if (cp.length > 0) {
    lines.push(`  struct ${prefix}_constant_pools cp;`);
    for (const f of cp) {
      lines.push(`  { static const uint8_t init[] = ${prefix.toUpperCase()}_${f.toUpperCase()}_CONSTANT_POOL_DATA; memcpy(pool_${f}, init, sizeof init); }`);
      lines.push(`  cp.${f} = pool_${f};`);
    }
    args.push('&cp');
  }
  lines.push(
    `  if (${prefix}_run(${args.join(', ')}) != 0) return 2;`,
    `  for (int r = 0; r < ${runs}; r++) { double t0 = now_us(); if (${prefix}_run(${args.join(', ')}) != 0) return 2; times[r] = now_us() - t0; }`,
    `  qsort(times, ${runs}, sizeof(double), cmp);`,
    `  printf("%.3f\\n", times[${runs} / 2]);`,
    '  return 0;',
    '}',
  );
  return lines.join('\n') + '\n';
}

/** Builds the compiled model with gcc -O2 and times `runs` inferences (after one warm-up). */
export function measureInference(result: CompileResult, runs: number): InferenceTiming {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-bench-'));
  try {
    const mlf = path.join(dir, 'mlf');
    writeModelLibraryFormat(mlf, result.artifacts);
    const host = path.join(mlf, 'codegen', 'host');
    const header = fs.readFileSync(path.join(host, 'include', `tvmgen_${result.artifacts.moduleName}.h`), 'utf8');
    fs.writeFileSync(path.join(dir, 'main.c'), timingMain(result, header, runs));
    randomInvocations(result.inputs, INPUT_SEED, 1)[0].forEach((bytes, i) => fs.writeFileSync(path.join(dir, `in_${i}.bin`), bytes));
    const layout = buildLayout(mlf);
    const sources = [...layout.modelSources, ...layout.runtimeSources];
    execFileSync('gcc', ['-std=gnu99', '-O2', ...layout.includeDirs.map((d) => `-I${d}`), 'main.c', ...sources, '-o', 'prog', '-lm'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = execFileSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8' });
    return { medianUs: Number(out.trim()), runs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
