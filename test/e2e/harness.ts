/**
 * End-to-end harness: compile a model through the whole pipeline, write the MLF output,
 * generate an application `main.c` that registers the pools with the backends' simulators,
 * feeds fixed inputs, runs the model and prints the output bytes; build with strict gcc,
 * run, and hand back the bytes (or the trap) for comparison with the interpreter.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CompileResult } from '../../src/driver/compile';
import { buildLayout } from '../../src/codegen/layout';
import { writeModelLibraryFormat } from '../../src/codegen/mlf';
import { DTYPE_BYTES, IRModule } from '../../src/ir/graph/types';
import { PoolInfo } from '../../src/usmp/types';
import { runCompiled } from '../../src/verify';

export const STRICT_C = ['-std=c99', '-Wall', '-Wextra', '-Werror'];

export interface RunOutcome {
  readonly status: number;
  readonly outputs: Uint8Array[];
  readonly stderr: string;
  readonly dir: string;
}

/** How the application registers its pools with a backend simulator's access checker. */
export interface PoolRegistration {
  readonly includes: string;
  /** One C statement registering `pool` at C expression `base` with `size` bytes. */
  readonly statement: (pool: PoolInfo, base: string, size: number) => string;
}

/** Field names of `struct <structName>` in a generated header. */
export function cIdent(header: string, structName: string): string[] {
  const m = new RegExp(`struct ${structName} \\{([^}]*)\\}`).exec(header);
  if (!m) return [];
  return [...m[1].matchAll(/\*\s*([A-Za-z_][A-Za-z0-9_]*);/g)].map((x) => x[1]);
}

/** Writes and builds the application; returns the directory with `prog`. */
export function buildApplication(result: CompileResult, inputs: readonly Uint8Array[], registration?: PoolRegistration): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-e2e-'));
  const mlf = path.join(dir, 'mlf');
  writeModelLibraryFormat(mlf, result.artifacts);
  const mod = result.artifacts.moduleName;
  const prefix = `tvmgen_${mod}`;
  const headerPath = path.join(mlf, 'codegen', 'host', 'include', `${prefix}.h`);
  const header = fs.readFileSync(headerPath, 'utf8');
  const inFields = cIdent(header, `${prefix}_inputs`);
  const outFields = cIdent(header, `${prefix}_outputs`);
  const poolFields = cIdent(header, `${prefix}_workspace_pools`);
  const constFields = cIdent(header, `${prefix}_constant_pools`);

  const lines: string[] = [
    '#include <stdint.h>',
    '#include <stdio.h>',
    '#include <string.h>',
    `#include "${prefix}.h"`,
    registration?.includes ?? '',
  ];
  inputs.forEach((bytes, i) => {
    lines.push(`static const uint8_t input_${i}_data[${Math.max(1, bytes.length)}] = {${Array.from(bytes).join(',') || '0'}};`);
  });
  result.outputs.forEach((o, i) => {
    const n = o.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[o.dtype];
    lines.push(`static uint8_t output_${i}_data[${n}] __attribute__((aligned(16)));`);
  });
  const externalPools = result.usmp.pools.filter((p) => !p.pool.internal);
  for (const p of externalPools) {
    lines.push(`static uint8_t pool_${p.pool.name}[${Math.max(1, p.sizeBytes)}] __attribute__((aligned(64)));`);
  }
  for (const p of result.usmp.pools.filter((p) => !p.pool.internal && p.pool.kind === 'constant')) {
    const macro = `${prefix.toUpperCase()}_${p.pool.name.toUpperCase()}_CONSTANT_POOL_DATA`;
    lines.push(`static const uint8_t pool_${p.pool.name}_init[] = ${macro};`);
  }
  lines.push('int main(void) {');
  for (const p of result.usmp.pools.filter((p) => !p.pool.internal && p.pool.kind === 'constant')) {
    lines.push(`  memcpy(pool_${p.pool.name}, pool_${p.pool.name}_init, sizeof(pool_${p.pool.name}_init));`);
  }
  if (registration) {
    for (const p of externalPools) {
      lines.push('  ' + registration.statement(p.pool, `pool_${p.pool.name}`, Math.max(1, p.sizeBytes)));
    }
  }
  lines.push(`  struct ${prefix}_inputs in;`, `  struct ${prefix}_outputs out;`);
  lines.push('  memset(&in, 0, sizeof(in));', '  memset(&out, 0, sizeof(out));');
  inFields.forEach((f, i) => lines.push(`  in.${f} = (void*)input_${i}_data;`));
  outFields.forEach((f, i) => lines.push(`  out.${f} = (void*)output_${i}_data;`));
  const runArgs = ['&in', '&out'];
  if (poolFields.length > 0) {
    lines.push(`  struct ${prefix}_workspace_pools ws;`);
    for (const f of poolFields) lines.push(`  ws.${f} = pool_${f};`);
    runArgs.push('&ws');
  }
  if (constFields.length > 0) {
    lines.push(`  struct ${prefix}_constant_pools cp;`);
    for (const f of constFields) lines.push(`  cp.${f} = pool_${f};`);
    runArgs.push('&cp');
  }
  lines.push(`  if (${prefix}_run(${runArgs.join(', ')}) != 0) { fprintf(stderr, "run failed\\n"); return 2; }`);
  result.outputs.forEach((_, i) => {
    lines.push(`  for (size_t k = 0; k < sizeof(output_${i}_data); k++) printf("%u ", (unsigned)output_${i}_data[k]);`);
    lines.push('  printf("\\n");');
  });
  lines.push('  return 0;', '}');
  fs.writeFileSync(path.join(dir, 'main.c'), lines.join('\n') + '\n');

  const layout = buildLayout(mlf);
  const sources = [...layout.modelSources, ...layout.runtimeSources];
  execFileSync('gcc', [...STRICT_C, '-O2', ...layout.includeDirs.map((d) => `-I${d}`), 'main.c', ...sources, '-o', 'prog', '-lm'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return dir;
}

export function runApplication(dir: string, outputSizes: readonly number[]): RunOutcome {
  try {
    const stdout = execFileSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const outputs = stdout
      .trim()
      .split('\n')
      .map((line) => Uint8Array.from(line.trim().split(/\s+/).filter(Boolean).map(Number)));
    outputs.forEach((o, i) => {
      if (o.length !== outputSizes[i]) throw new Error(`output ${i}: ${o.length} bytes, expected ${outputSizes[i]}`);
    });
    return { status: 0, outputs, stderr: '', dir };
  } catch (e) {
    const err = e as { status?: number; stderr?: string };
    if (typeof err.status !== 'number') throw e;
    return { status: err.status, outputs: [], stderr: err.stderr ?? '', dir };
  }
}

/** Deterministic pseudo-random input bytes (LCG), valid for any int8/uint8 tensor. */
export function fixedInput(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

/** Access constant name in a simulator's header for what `target` may do in `pool`. */
function accessMacro(prefix: string, pool: PoolInfo, target: string): string {
  const access = pool.targetAccess[target];
  return `${prefix}_ACCESS_${access === 'rw' ? 'RW' : access === 'ro' ? 'RO' : 'NONE'}`;
}

/** The accel simulator's registration: each pool with the access the accelerator has there. */
export const ACCEL_POOL_REGISTRATION: PoolRegistration = {
  includes: '#include "accel_runtime.h"',
  statement: (pool, base, size) =>
    `accel_register_pool(${JSON.stringify(pool.name)}, ${base}, ${size}, ${accessMacro('ACCEL', pool, 'accel')});`,
};

/** The dma_local simulator's registration: each pool with the access the DMA engine has there. */
export const DMA_LOCAL_POOL_REGISTRATION: PoolRegistration = {
  includes: '#include "dma_local_runtime.h"',
  statement: (pool, base, size) =>
    `dma_local_register_pool(${JSON.stringify(pool.name)}, ${base}, ${size}, ${accessMacro('DMA_LOCAL', pool, 'dma_local')});`,
};

/**
 * Inputs for every model input: integer tensors get LCG bytes, float tensors small reals in
 * [-2, 2) (random bit patterns would be NaNs and infinities, not model inputs).
 */
export function modelInputs(graph: IRModule, seed: number): Uint8Array[] {
  const main = graph.functions.get('main')!;
  return main.params.map((p, i) => {
    const t = main.nodes.find((n) => n.name === p)!.type;
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (t.dtype !== 'float32') return fixedInput(n * DTYPE_BYTES[t.dtype], seed + i);
    const f = new Float32Array(n);
    const bytes = fixedInput(n, seed + i);
    for (let k = 0; k < n; k++) f[k] = (bytes[k] - 128) / 64;
    return new Uint8Array(f.buffer);
  });
}

/**
 * Builds the program with the public verify harness (`runCompiled`: main written from
 * metadata.json; the generated run registers pools with the backends' simulators) under
 * strict gcc, runs it, and expects a clean exit with exactly `expected` out. `extraCflags`
 * follow the harness's own (`-O0` for a quick build of a big generated source).
 */
export function expectRunsByteExact(result: CompileResult, inputs: readonly Uint8Array[], expected: readonly Uint8Array[], extraCflags: readonly string[] = []): void {
  const run = runCompiled(result.artifacts, { invocations: [inputs], cflags: ['-Werror', ...extraCflags] });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  expect(run.outputs[0].map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
}
