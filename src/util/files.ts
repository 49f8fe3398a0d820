/**
 * The one place file-system failures become user errors: every command that reads or
 * writes files goes through here, so ENOTDIR, EACCES, ENAMETOOLONG, ENOSPC... always come
 * out as a one-line `FileAccessError` naming the path and what was being done, never as a
 * stack trace. Inputs are read bounded: only regular files, only up to a stated size, so a
 * FIFO or `/dev/zero` given as a model is refused before a byte is read.
 */
import * as fs from 'fs';
import { FileAccessError, UmaError } from '../errors';

/** Largest `.tflite` file read (TFLite's flatbuffers are limited to 2 GiB; real MCU models are far smaller). */
export const MODEL_FILE_LIMIT_BYTES = 1024 * 1024 * 1024;
/** Largest JSON or text configuration read (pools, pins, buffer sets, backend modules). */
export const CONFIG_FILE_LIMIT_BYTES = 256 * 1024 * 1024;

const REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a component of the path is not a directory',
  EISDIR: 'is a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'file name too long',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  EROFS: 'read-only file system',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  EBUSY: 'resource busy',
  EIO: 'input/output error',
  EXDEV: 'cannot move across file systems',
  EINVAL: 'invalid argument',
};

/** `permission denied (EACCES)`: the errno in words, for one-line messages. */
export function describeFsFailure(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string') return `${REASONS[code] ?? 'file system error'} (${code})`;
  return e instanceof Error ? e.message.split('\n')[0] : String(e);
}

/**
 * A file-system exception as a user error: `cannot <action> <path>: <reason>`. UmaErrors
 * pass through unchanged; anything that is not a file-system error is a bug and is rethrown.
 */
export function fileAccessError(e: unknown, action: string, file: string): UmaError {
  if (e instanceof UmaError) return e;
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') throw e;
  const errPath = (e as NodeJS.ErrnoException).path;
  const detail = errPath !== undefined && errPath !== file ? ` (at ${errPath})` : '';
  return new FileAccessError(`cannot ${action} ${file}: ${describeFsFailure(e)}${detail}`, { file, code });
}

/** Runs `fn`, turning a file-system exception into a FileAccessError about `action` on `file`. */
export function withFileErrors<T>(action: string, file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw fileAccessError(e, action, file);
  }
}

/** Cleanup in an error path: must never throw over the error being reported. */
export function bestEffort(fn: () => void): void {
  try {
    fn();
  } catch {
    // The original error matters; a leftover is found and removed by the next run.
  }
}

export interface ReadInputOptions {
  /** What the file is, for messages: `model file`, `pools file`... */
  readonly what: string;
  readonly limitBytes: number;
}

function mib(n: number): string {
  return `${(n / (1024 * 1024)).toFixed(n % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
}

/**
 * Reads a whole input file, refusing (before reading) anything that is not a regular file
 * or is larger than the limit. Opened non-blocking so a FIFO swapped in after the check
 * cannot hang the read.
 */
export function readInputFile(file: string, options: ReadInputOptions): Buffer {
  const { what, limitBytes } = options;
  const action = `read ${what}`;
  const stat = withFileErrors(action, file, () => fs.statSync(file));
  checkRegular(stat, file, what, limitBytes);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw fileAccessError(e, action, file);
  }
  try {
    const opened = withFileErrors(action, file, () => fs.fstatSync(fd));
    checkRegular(opened, file, what, limitBytes);
    // Read at most one byte past the limit: a file growing while read cannot make us read forever.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1 << 20, limitBytes + 1 - total));
      const n = withFileErrors(action, file, () => fs.readSync(fd, chunk, 0, chunk.length, null));
      if (n === 0) break;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      total += n;
      if (total > limitBytes) throw tooLarge(file, what, limitBytes, total, true);
    }
    return Buffer.concat(chunks, total);
  } finally {
    bestEffort(() => fs.closeSync(fd));
  }
}

/**
 * `readInputFile` as UTF-8 text, without a leading byte order mark: editors on Windows write
 * one, and JSON.parse and the interval parser would otherwise reject the file at its first byte.
 */
export function readInputText(file: string, options: ReadInputOptions): string {
  const bytes = readInputFile(file, options);
  // UTF-16 with its byte order mark (what Windows PowerShell 5's `>` writes) is read as such.
  if (bytes.length % 2 === 0 && bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes.length % 2 === 0 && bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  const text = bytes.toString('utf8');
  const nul = text.indexOf('\0');
  if (nul >= 0) {
    throw new FileAccessError(
      `cannot read ${options.what} ${file}: byte ${Buffer.byteLength(text.slice(0, nul))} is a NUL: it is not UTF-8 text (UTF-16 without a byte order mark, or a binary file?)`,
      { file, offset: Buffer.byteLength(text.slice(0, nul)) },
    );
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function checkRegular(stat: fs.Stats, file: string, what: string, limitBytes: number): void {
  if (stat.isDirectory()) throw new FileAccessError(`cannot read ${what} ${file}: it is a directory`, { file });
  if (!stat.isFile()) {
    const kind = stat.isFIFO() ? 'a FIFO' : stat.isCharacterDevice() || stat.isBlockDevice() ? 'a device' : stat.isSocket() ? 'a socket' : 'special';
    throw new FileAccessError(`cannot read ${what} ${file}: it is ${kind}, not a regular file`, { file });
  }
  if (stat.size > limitBytes) throw tooLarge(file, what, limitBytes, stat.size, false);
}

function tooLarge(file: string, what: string, limitBytes: number, size: number, grew: boolean): FileAccessError {
  return new FileAccessError(
    `cannot read ${what} ${file}: ${grew ? 'it grew past' : `it is ${size} bytes, more than`} the ${mib(limitBytes)} limit for a ${what}`,
    { file },
  );
}
