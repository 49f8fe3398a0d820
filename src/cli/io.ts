/** Where a command writes; tests pass buffers, the binary passes the process streams. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is an interactive terminal (progress display allowed). */
  readonly isTTY: boolean;
  /** Calls `done` once everything written so far has left (the process may then exit). */
  flush?(done: () => void): void;
}

export const processIO: CliIO = {
  out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
  err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
  isTTY: Boolean(process.stdout.isTTY),
  // Writes complete in order: an empty write's callback runs after those before it.
  flush: (done) => process.stdout.write('', () => process.stderr.write('', () => done())),
};

/** Collects output in memory; used by tests to run commands in-process. */
export function memoryIO(): CliIO & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    isTTY: false,
    out: (t) => void stdout.push(t),
    err: (t) => void stderr.push(t),
  };
}

/**
 * A reader that goes away (`uma-ts plan big.txt | head`) is not an error of ours: a closed pipe
 * on these streams drops further output, and the command finishes as it would (a compile still
 * completes its output directory). Any other stream error stays an error.
 */
export function ignoreClosedPipes(streams: readonly NodeJS.EventEmitter[]): void {
  for (const stream of streams) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') throw e;
    });
  }
}
