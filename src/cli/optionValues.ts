/**
 * Value parsers shared by the commands' flags and arguments. A path given as '' would
 * otherwise reach the file system as the working directory or as "no such file ''", and
 * every message naming it would show a blank where the path belongs.
 */
import { InvalidArgumentError } from 'commander';

/** Repeatable flag: every occurrence, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** A file or directory path: refused when empty or only blanks. */
export function pathValue(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('The path is empty.');
  return value;
}

/** Variadic path arguments (`<models...>`): each checked like pathValue. */
export function collectPaths(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), pathValue(value)];
}

/** A repeatable path flag. */
export function collectPath(value: string, previous: string[] | undefined): string[] {
  return collect(pathValue(value), previous);
}

/**
 * A name or command flag (`--algorithm`, `--module-name`, `--cc`, ...): refused when empty or
 * only blanks. The layers below read an empty value as "not given", so without this check
 * `--algorithm ''` planned with the default and `--cc ''` built with gcc, silently.
 */
export function nonEmptyValue(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('The value is empty.');
  return value;
}
