/**
 * What every fuzz case must end in: exit 0 with a complete output (the pipeline verifies its
 * plan before writing), or exit 1 with one `error:` line (a constraint error may add indented
 * detail lines); never a stack trace, another exit code, or a partial output.
 */
import * as fs from 'fs';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';

export const ROOT = path.join(__dirname, '..', '..');
export const model = (name: string): string => path.join(ROOT, 'models', `${name}.tflite`);

/** Fixed seeds: a failure reproduces on every machine. */
export const FUZZ_SEED = 14;

export interface CliOutcome {
  readonly args: readonly string[];
  readonly code: number;
  readonly stdout: string;
  /** stderr without progress (`[uma-ts] ...`), warning and note lines. */
  readonly problems: readonly string[];
}

export async function runCli(args: readonly string[]): Promise<CliOutcome> {
  const io = memoryIO();
  // A non-UmaError escapes main as a rejection: the property fails with its stack.
  const code = await main(['node', 'uma-ts', ...args], io);
  const problems = io.stderr
    .flatMap((t) => t.split('\n'))
    .filter((l) => l !== '' && !l.startsWith('[uma-ts] ') && !l.startsWith('warning: ') && !l.startsWith('note: '));
  return { args, code, stdout: io.stdout.join('\n'), problems };
}

/** Throws (failing the property) unless the run ended cleanly; `outDir`: the run's --out. */
export function assertCleanOutcome(r: CliOutcome, outDir?: string): void {
  const show = (): string => `uma-ts ${r.args.join(' ')}\nexit ${r.code}\n${r.problems.join('\n')}`;
  if (r.code !== 0 && r.code !== 1) throw new Error(`exit code ${r.code}:\n${show()}`);
  if (r.code === 0) {
    if (r.problems.some((l) => l.startsWith('error:'))) throw new Error(`error printed with exit 0:\n${show()}`);
    if (outDir !== undefined && !fs.existsSync(path.join(outDir, 'metadata.json'))) throw new Error(`exit 0 without output:\n${show()}`);
    return;
  }
  const [first, ...rest] = r.problems;
  if (first === undefined || !first.startsWith('error: ')) throw new Error(`exit 1 without an error line:\n${show()}`);
  if (rest.some((l) => !l.startsWith('  '))) throw new Error(`more than one error line:\n${show()}`);
  if (/\n\s+at .*\(.*:\d+:\d+\)/.test(r.problems.join('\n'))) throw new Error(`stack trace:\n${show()}`);
  if (outDir !== undefined && fs.existsSync(outDir)) throw new Error(`exit 1 but output written:\n${show()}`);
}
