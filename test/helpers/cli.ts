import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  /** Everything on stderr, progress lines included. */
  readonly err: string;
}

/** Runs `uma-ts <args>` in process, capturing its exit code, stdout and stderr. */
export async function runCli(args: readonly string[]): Promise<CliRun> {
  const io = memoryIO();
  const code = await main(['node', 'uma-ts', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}
