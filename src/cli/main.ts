import { Command, CommanderError } from 'commander';
import { inspect } from 'util';
import { describeThrown } from '../util/thrown';
import { isUmaError } from '../errors';
import { commandsFor } from './commands';
import { describeFsFailure } from '../util/files';
import { CliIO, processIO } from './io';

/** A run of user text (quoted or not) longer than this is cut in an error line. */
const LONG_RUN_CHARS = 300;
/** How much of a cut run the error line keeps. */
const SHOWN_RUN_CHARS = 80;

/**
 * Error lines quote user text (a pool or pin name, an option value, a path): a 1 MB pool name
 * made a 1 MB error line (fuzzed). A quoted or unbroken run past LONG_RUN_CHARS is shown by its
 * start and its length, as interval lines are ('first 80...' (N characters)).
 */
function shortenLongRuns(line: string): string {
  // A quote opens after a space or an opening mark and closes before one, so an apostrophe in
  // prose ("the output's scale") never starts a run.
  const quotedRun = (q: string) => `(?<=^|[\\s(=:,])${q}[^${q}\\n]{${LONG_RUN_CHARS},}${q}(?=$|[\\s),.:;])`;
  const long = new RegExp(`${quotedRun("'")}|${quotedRun('"')}|[^\\s'"]{${LONG_RUN_CHARS},}`, 'g');
  return line.replace(long, (run) => {
    const quote = run[0] === "'" || run[0] === '"' ? run[0] : '';
    const text = quote === '' ? run : run.slice(1, -1);
    return `${quote}${text.slice(0, SHOWN_RUN_CHARS)}...${quote} (${text.length} characters)`;
  });
}

/**
 * The error line as printed: indented detail lines (a constraint error's steps) stay; any
 * other line break or control character came from user text (a name, a path) and is
 * escaped, so the error is always one line plus its details; very long user text is cut.
 */
export function oneErrorLine(message: string): string {
  const [first, ...rest] = message.split('\n');
  let text = first;
  for (const line of rest) text += line.startsWith('  ') ? `\n${line}` : `\\n${line}`;
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return escaped.split('\n').map(shortenLongRuns).join('\n');
}

/**
 * Commander's own errors (an unknown command or option, a missing argument) quote what the user
 * typed and put a suggestion on a line of its own: printed as one line too, like every other
 * error ('uma-ts compil' gave "error: unknown command 'compil'" then "(Did you mean compile?)",
 * and an option name holding a line break split the error in two). Help text passes unchanged.
 */
export function commanderErrorLine(text: string): string {
  if (!text.startsWith('error: ')) return text;
  const message = text
    .slice('error: '.length)
    .replace(/\n$/, '')
    .replace(/\n\(Did you mean (.*)\?\)$/s, ' (did you mean $1?)');
  return `error: ${oneErrorLine(message)}\n`;
}

function unwrappedFsError(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (typeof err?.code !== 'string' || typeof err.syscall !== 'string') return undefined;
  // Relative paths resolve against it: libuv's name for the call said nothing to a user.
  if (err.syscall === 'uv_cwd') return `the current directory cannot be read (${err.code}; was it removed?): run uma-ts from an existing directory`;
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
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(commanderErrorLine(s)) });
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

/** The process as `runMain` uses it (tests pass a fake). */
export interface CliProcess {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  exit(code: number): void;
  exitCode?: number | string | null | undefined;
}

/** The one line printed for a promise that rejected with nobody to handle it. */
export function unhandledRejectionLine(reason: unknown): string {
  return `error: ${oneErrorLine(`a promise rejected and nobody handled it (from user code?): ${describeThrown(reason)}`)}`;
}

export const NEVER_SETTLED_LINE = 'error: uma-ts stopped before finishing: it was waiting for a promise that never settled (from user code?)';

/** The one line printed for an exception thrown outside any call of uma-ts (a user module's timer). */
export function uncaughtExceptionLine(e: unknown): string {
  return `error: ${oneErrorLine(`an exception was thrown outside any uma-ts call (from user code?): ${describeThrown(e)}`)}`;
}

/**
 * What `bin/uma-ts.js` runs: `main` with the process's streams and exit code.
 *  - A promise that user code (a `--backend-module`) rejected and left unhandled ends the run
 *    at once with one `error:` line and exit code 1, never Node's stack trace; so does an
 *    exception thrown outside main (a timer a backend module set). Nothing can be
 *    half-written: outputs are built in a temporary sibling and renamed in one synchronous
 *    step (`ownedOutputDir.ts`), and backend modules are loaded, their rejections given a turn
 *    of the event loop to show, before anything is compiled.
 *  - A run that ends waiting for a promise that never settles (an `async register` that never
 *    resolves) exits 1 with one `error:` line instead of silently with 0.
 *  - Once main is done the process exits with its code, its output flushed: a timer or open
 *    handle a backend module left behind neither keeps the command running nor fires later.
 *  - A failure of main itself is a bug of uma-ts: printed with its stack, exit code 1.
 */
export function runMain(argv: readonly string[], io: CliIO = processIO, proc: CliProcess = process): Promise<void> {
  let settled = false;
  proc.on('unhandledRejection', (reason: unknown) => {
    io.err(unhandledRejectionLine(reason));
    proc.exitCode = 1;
    proc.exit(1);
  });
  proc.on('uncaughtException', (e: unknown) => {
    io.err(uncaughtExceptionLine(e));
    proc.exitCode = 1;
    proc.exit(1);
  });
  const exitFlushed = (code: number) => {
    proc.exitCode = code;
    if (io.flush) io.flush(() => proc.exit(code));
    else proc.exit(code);
  };
  proc.on('beforeExit', () => {
    if (settled) return;
    settled = true;
    io.err(NEVER_SETTLED_LINE);
    proc.exitCode = 1;
  });
  return main(argv, io).then(
    (code) => {
      settled = true;
      exitFlushed(code);
    },
    (e: unknown) => {
      settled = true;
      io.err(inspect(e));
      exitFlushed(1);
    },
  );
}
