/** Running the C toolchain and simulators: a missing tool or a failed step is a VerifyError. */
import { spawnSync } from 'child_process';
import { VerifyError } from '../errors';

/** The compiler's first error line, else its first line: what a user needs to see first. */
export function firstErrorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const real = lines.filter((l) => !/^collect2:/.test(l));
  return (
    real.find((l) => /\berror\b/i.test(l)) ??
    real.find((l) => /undefined reference|multiple definition|overflowed|will not fit/.test(l)) ??
    lines[0] ??
    '(no output)'
  );
}

export function splitCommand(cmd: string): string[] {
  const parts = cmd.trim().split(/\s+/).filter((p) => p !== '');
  if (parts.length === 0) throw new VerifyError('the C compiler command is empty');
  return parts;
}

/** Runs `argv`; a missing program or a non-zero exit becomes a VerifyError naming `what`. */
export function runTool(argv: readonly string[], cwd: string, what: string): void {
  const r = spawnSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.error !== undefined) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new VerifyError(`${what}: cannot run ${argv[0]}${code === 'ENOENT' ? ' (not installed or not on PATH)' : `: ${r.error.message}`}`, { file: argv[0] });
  }
  if (r.status !== 0) {
    throw new VerifyError(`${what} failed: ${firstErrorLine(`${r.stderr}\n${r.stdout}`)}`, { file: argv[0] });
  }
}

