/**
 * Stage-by-stage progress of a long command. On a terminal it is one line rewritten in
 * place (`\r`), showing the running stage and the elapsed milliseconds; elsewhere (pipes,
 * CI logs, tests) every stage is a plain line `[uma-ts] <stage> ...`. Progress goes to
 * stderr so stdout stays the report (and valid JSON under `--json`).
 */
import { CliIO } from './io';

export interface Progress {
  stage(name: string): void;
  /** Ends the display after success. */
  done(): void;
  /** Ends the display after a failure (clears the in-place line). */
  fail(): void;
}

export interface ProgressOptions {
  /** Rewrite one line in place; default: when both stdout (`io.isTTY`) and stderr are terminals. */
  readonly inPlace?: boolean;
  /** Raw writer for the in-place line (no newline added); default: process.stderr. */
  readonly write?: (text: string) => void;
  readonly now?: () => number;
}

const CLEAR_LINE = '\r\x1b[K';

export function createProgress(io: CliIO, options: ProgressOptions = {}): Progress {
  const now = options.now ?? (() => Date.now());
  const start = now();
  const elapsed = (): number => Math.round(now() - start);
  // The line is drawn on stderr: with stderr redirected to a file, `\r` updates would be junk.
  if (!(options.inPlace ?? (io.isTTY && Boolean(process.stderr.isTTY)))) {
    return {
      stage: (name) => io.err(`[uma-ts] ${name} ...`),
      done: () => io.err(`[uma-ts] done in ${elapsed()} ms`),
      fail: () => undefined,
    };
  }
  const write = options.write ?? ((t: string) => void process.stderr.write(t));
  let current = '';
  return {
    stage: (name) => {
      current = name;
      write(`${CLEAR_LINE}[uma-ts] ${current} ... ${elapsed()} ms`);
    },
    done: () => write(`${CLEAR_LINE}[uma-ts] done in ${elapsed()} ms\n`),
    fail: () => write(current ? `${CLEAR_LINE}[uma-ts] failed during ${current} after ${elapsed()} ms\n` : ''),
  };
}
