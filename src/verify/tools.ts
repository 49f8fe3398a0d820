/** Running the C toolchain and simulators: a missing tool or a failed step is a VerifyError. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { VerifyError } from '../errors';

/** The compiler's first error line, else its first line: what a user needs to see first. */
export function firstErrorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const real = lines.filter((l) => !/^collect2:/.test(l));
  const found = real.find((l) => /\berror\b/i.test(l)) ?? real.find((l) => /undefined reference|multiple definition|overflowed|will not fit/.test(l));
  if (found === undefined) return lines[0] ?? '(no output)';
  // gcc quotes the offending source line under a diagnostic (`35 | code`). The build directory
  // is removed before the user reads the error, so "default_lib0.c:35:22" alone points nowhere:
  // the line itself shows which code it was (a backend hook's C expression, say).
  const quoted = /^(\d+) \| (.*)$/.exec(lines[lines.indexOf(found) + 1] ?? '');
  return quoted !== null && quoted[2].trim() !== '' ? `${found} (line ${quoted[1]}: ${quoted[2].trim()})` : found;
}

/**
 * The compiler command as argv. Tools run in a temporary directory, so a relative program path
 * (`./mycc`, `tools/cc`) is resolved against the user's working directory, where it was meant.
 */
export function splitCommand(cmd: string): string[] {
  const parts = cmd.trim().split(/\s+/).filter((p) => p !== '');
  if (parts.length === 0) throw new VerifyError('the C compiler command is empty');
  if (parts[0].includes('/') && !path.isAbsolute(parts[0])) parts[0] = path.resolve(parts[0]);
  return parts;
}

export interface RunToolOptions {
  /** A file (relative to `cwd`) the tool must have written: a compiler that exits 0 without it failed. */
  readonly output?: string;
  /** Kill the tool after this long (a compiler that never returns is an error, not a hang). */
  readonly timeoutMs?: number;
}

/** How long a C build may take by default: far beyond any bundled model's build. */
export const TOOL_TIMEOUT_MS = 120_000;

/** Runs `argv`; a missing program, a timeout, a non-zero exit or a missing output becomes a VerifyError naming `what`. */
export function runTool(argv: readonly string[], cwd: string, what: string, options: RunToolOptions = {}): void {
  const timeoutMs = options.timeoutMs ?? TOOL_TIMEOUT_MS;
  const r = spawnSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', maxBuffer: 64 << 20, timeout: timeoutMs, killSignal: 'SIGKILL' });
  if (r.error !== undefined) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ETIMEDOUT') throw new VerifyError(`${what}: ${argv[0]} did not finish within ${timeoutMs / 1000} s`, { file: argv[0] });
    throw new VerifyError(`${what}: cannot run ${argv[0]}${code === 'ENOENT' ? ' (not installed or not on PATH)' : `: ${r.error.message}`}`, { file: argv[0] });
  }
  if (r.status !== 0) {
    const how = r.status === null ? `killed by ${r.signal}` : firstErrorLine(`${r.stderr}\n${r.stdout}`);
    throw new VerifyError(`${what} failed: ${how}`, { file: argv[0] });
  }
  if (options.output !== undefined && !fs.existsSync(path.join(cwd, options.output))) {
    throw new VerifyError(`${what} failed: ${argv[0]} exited 0 but wrote no ${options.output}`, { file: argv[0] });
  }
}

