import { Command, CommanderError } from 'commander';
import { isUmaError } from '../errors';
import { commandsFor } from './commands';
import { describeFsFailure } from '../util/files';
import { CliIO, processIO } from './io';

/**
 * The error line as printed: indented detail lines (a constraint error's steps) stay; any
 * other line break or control character came from user text (a name, a path) and is
 * escaped, so the error is always one line plus its details.
 */
export function oneErrorLine(message: string): string {
  const [first, ...rest] = message.split('\n');
  let text = first;
  for (const line of rest) text += line.startsWith('  ') ? `\n${line}` : `\\n${line}`;
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function unwrappedFsError(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (typeof err?.code !== 'string' || typeof err.syscall !== 'string') return undefined;
  return `cannot ${err.syscall}${err.path !== undefined ? ` ${err.path}` : ''}: ${describeFsFailure(e)}`;
}

/**
 * Runs the CLI and resolves to the process exit code. User errors (UmaError) print one
 * line `error: ...` and give 1; anything else is a bug and keeps its stack.
 */
export async function main(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const program = new Command();
  program
    .name('uma-ts')
    .description('Compile ML models for custom accelerators with pool-aware static memory planning')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) });
  // argv is [node, script, command, ...].
  for (const register of await commandsFor(argv[2])) register(program, io);
  try {
    await program.parseAsync([...argv]);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? 0 : 1;
    }
    if (isUmaError(e)) {
      io.err(`error: ${oneErrorLine(e.message)}`);
      return 1;
    }
    // A file-system failure some command did not wrap is still the user's environment, not a bug.
    const fsFailure = unwrappedFsError(e);
    if (fsFailure !== undefined) {
      io.err(`error: ${oneErrorLine(fsFailure)}`);
      return 1;
    }
    throw e;
  }
}
