/**
 * Builds a compiled program with its generated harness and runs it: on the host with a C
 * compiler (`cc`, default `gcc`), or for the Cortex-M55 of QEMU's `mps3-an547` machine
 * (`cortexM55.ts`). Returns each invocation's output bytes, or how the program stopped.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { buildLayout } from '../codegen/layout';
import { writeModelLibraryFormat } from '../codegen/mlf';
import { CArtifacts } from '../codegen/types';
import { VerifyError } from '../errors';
import { buildCortexM55, runCortexM55, SectionSizes } from './cortexM55';
import { VerifyTarget, writeHarnessMain } from './harnessMain';
import { runTool, splitCommand } from './tools';
import { makeTemporaryDir } from '../util/temporaryDir';

export const HOST_CFLAGS = ['-std=c99', '-O2', '-Wall', '-Wextra'];

export interface RunCompiledOptions {
  readonly invocations: readonly (readonly Uint8Array[])[];
  readonly target?: VerifyTarget;
  /** C compiler command (split on spaces); default `gcc` (host), `arm-none-eabi-gcc` (cortex-m55). */
  readonly cc?: string;
  /** Extra compiler flags, e.g. `['-Werror']`. */
  readonly cflags?: readonly string[];
  /** Keep the build directory (its path is returned); default: removed. */
  readonly keepDir?: boolean;
  /** Seconds before the C build, and then the program, is stopped; default 120. */
  readonly timeoutSeconds?: number;
  /** The pools JSON the pools (and their `address`es) came from, named in errors about them. */
  readonly poolsFile?: string;
}

export interface RunCompiledResult {
  /** Exit status; 0 = every invocation ran. */
  readonly status: number;
  /** Output bytes per completed invocation (model output order). */
  readonly outputs: Uint8Array[][];
  /** Wall time of each `run` call in nanoseconds (host only). */
  readonly timesNs: number[];
  /** `run` returned non-zero: invocation and code. */
  readonly runFailure?: { readonly run: number; readonly code: number };
  /** The program's stderr (a simulator's trap message, for instance). */
  readonly stderr: string;
  /** Code/data bytes per section and pool (cortex-m55). */
  readonly sections?: SectionSizes;
  readonly dir?: string;
}

/** Parses the harness's `uma-*` lines. */
export function parseHarnessOutput(stdout: string, outputSizes: readonly number[]): Pick<RunCompiledResult, 'outputs' | 'timesNs' | 'runFailure'> {
  const outputs: Uint8Array[][] = [];
  const timesNs: number[] = [];
  let runFailure: RunCompiledResult['runFailure'];
  for (const line of stdout.split('\n')) {
    const parts = line.trim().split(' ');
    if (parts[0] === 'uma-out' && parts.length >= 3) {
      const run = Number(parts[1]);
      const index = Number(parts[2]);
      const hex = parts[3] ?? '';
      const bytes = new Uint8Array(hex.length / 2);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      if (bytes.length !== outputSizes[index]) {
        throw new VerifyError(`run ${run}: output ${index} printed ${bytes.length} bytes, expected ${outputSizes[index]}`);
      }
      (outputs[run] ??= [])[index] = bytes;
    } else if (parts[0] === 'uma-time') {
      timesNs[Number(parts[1])] = Number(parts[2]);
    } else if (parts[0] === 'uma-status') {
      runFailure = { run: Number(parts[1]), code: Number(parts[2]) };
    }
  }
  return { outputs: outputs.filter((o) => o !== undefined && o.length === outputSizes.length), timesNs, ...(runFailure ? { runFailure } : {}) };
}

/** Text a run's program may print (its outputs, element by element), read back whole. */
const PROGRAM_OUTPUT_LIMIT = 256 << 20;

/** Builds `sources` in `dir` with the host C compiler and runs the program. */
export function buildAndRunHost(
  dir: string,
  sources: readonly string[],
  includeDirs: readonly string[],
  options: Pick<RunCompiledOptions, 'cc' | 'cflags' | 'timeoutSeconds'>,
): { status: number; stdout: string; stderr: string } {
  const cc = splitCommand(options.cc ?? 'gcc');
  runTool([...cc, ...HOST_CFLAGS, ...(options.cflags ?? []), ...includeDirs.map((d) => `-I${d}`), ...sources, '-o', 'prog', '-lm'], dir, 'C build', {
    output: 'prog',
    timeoutMs: (options.timeoutSeconds ?? 120) * 1000,
  });
  const r = spawnSync(path.join(dir, 'prog'), [], { cwd: dir, encoding: 'utf8', timeout: (options.timeoutSeconds ?? 120) * 1000, maxBuffer: PROGRAM_OUTPUT_LIMIT });
  if (r.error !== undefined) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') throw new VerifyError(`the program did not finish within ${options.timeoutSeconds ?? 120} s`);
    // The harness prints every output element as text: a model whose outputs are tens of MB
    // prints more than is read back (fuzzed: a 150 MB output, "spawnSync ... ENOBUFS").
    if (code === 'ENOBUFS') {
      throw new VerifyError(`the program printed more than ${PROGRAM_OUTPUT_LIMIT >> 20} MiB (every output element as text): the model's outputs are too large to compare; run it with fewer or smaller outputs`);
    }
    throw new VerifyError(`running the program failed: ${r.error.message}`);
  }
  const run = { status: r.status ?? (r.signal ? 128 : 1), stdout: r.stdout, stderr: r.stderr };
  // First, so the failure quotes it rather than whatever the program printed before dying.
  if (r.signal) run.stderr = `${KILLED_BY}${r.signal}${SIGNAL_HINTS[r.signal] ?? ''}\n${run.stderr}`;
  return run;
}

const KILLED_BY = 'killed by ';

/** What a crash of the generated program usually means, for the signals a memory error raises. */
const SIGNAL_HINTS: Readonly<Record<string, string>> = {
  SIGSEGV:
    ': an access outside every buffer, or a write into a constant pool (the host build keeps constants in read-only memory), e.g. by a kernel given the wrong pointer',
  SIGBUS: ': a misaligned or out-of-range access, e.g. by a kernel given the wrong pointer',
};

/** Why a program that did not exit 0 stopped: `the program exited with status 3: <trap>`, or `was killed by SIGSEGV: ...`. */
export function programStopped(status: number, stderr: string): string {
  const first = stderr.split('\n').find((l) => l.trim() !== '')?.trim();
  if (first?.startsWith(KILLED_BY)) return `the program was ${first}`;
  return `the program exited with status ${status}${first ? `: ${first}` : ''}`;
}

/** Writes the MLF output and the harness to `dir`, builds and runs it. */
export function runCompiled(artifacts: CArtifacts, options: RunCompiledOptions): RunCompiledResult {
  const target = options.target ?? 'host';
  const main = writeHarnessMain(artifacts.metadata, { invocations: options.invocations, target });
  const temp = makeTemporaryDir('uma-run-');
  const dir = temp.path;
  try {
    const mlf = path.join(dir, 'mlf');
    writeModelLibraryFormat(mlf, artifacts);
    fs.writeFileSync(path.join(dir, 'main.c'), main);
    const layout = buildLayout(mlf);
    const includeDirs = layout.includeDirs;
    const sources = ['main.c', ...layout.modelSources, ...layout.runtimeSources];
    const outputSizes = artifacts.metadata.outputs.map((o) => o.sizeBytes);
    const timeout = (options.timeoutSeconds ?? 120) * 1000;
    let run: { status: number; stdout: string; stderr: string };
    let sections: SectionSizes | undefined;
    if (target === 'cortex-m55') {
      const built = buildCortexM55(dir, artifacts.metadata, sources, includeDirs, options.cc, options.cflags ?? [], options.poolsFile, timeout);
      sections = built.sections;
      run = runCortexM55(built.elf, dir, timeout);
    } else {
      run = buildAndRunHost(dir, sources, includeDirs, options);
    }
    const parsed = parseHarnessOutput(run.stdout, outputSizes);
    return {
      status: run.status,
      ...parsed,
      stderr: run.stderr,
      ...(sections ? { sections } : {}),
      ...(options.keepDir ? { dir } : {}),
    };
  } finally {
    if (options.keepDir) temp.keep();
    else temp.remove();
  }
}
