/**
 * The names a new backend is known by, derived from what the user typed (as TVM's
 * uma_cli does with inflection's underscore/camelize): `my-accel`, `my_accel`, `MyAccel`
 * and `myAccel` all give target/directory `my_accel` and class `MyAccelBackend`.
 */
import { ConfigError } from '../errors';
import { HOST_TARGET } from '../lower/strategy';
import { isFreeRuntimeSourceName } from '../codegen/c/runtimeFiles';

export interface BackendNames {
  /** snake_case: target name, directory name, C identifier prefix. */
  readonly snake: string;
  /** CamelCase stem of the class and type names (`MyAccel`). */
  readonly camel: string;
  /** lowerCamelCase stem of values (`myAccel`). */
  readonly lowerCamel: string;
  /** `<Camel>Backend`. */
  readonly className: string;
}

const RAW_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
const SNAKE = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/** Longest backend name: it becomes a directory, C identifiers and file names. */
export const MAX_BACKEND_NAME_CHARS = 64;

function fail(name: string, why: string): never {
  const shown = `${name.slice(0, 40).replace(/[^\x20-\x7e]/g, '?')}${name.length > 40 ? '...' : ''}`;
  throw new ConfigError(
    `invalid backend name '${shown}': ${why} (use letters and digits, words separated by '-' or '_' or CamelCase, e.g. my-accel)`,
    { target: name },
  );
}

/** `MyAccel` / `my-accel` / `HTTPAccel2` → `my_accel` / `my_accel` / `http_accel2`. */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/-/g, '_')
    .toLowerCase();
}

export function backendNames(name: string): BackendNames {
  if (name.length === 0) fail(name, 'it is empty');
  if (name.length > MAX_BACKEND_NAME_CHARS) fail(name, `it is ${name.length} characters long, more than ${MAX_BACKEND_NAME_CHARS}`);
  if (!RAW_NAME.test(name)) fail(name, 'it must start with a letter and contain only letters, digits, - and _');
  const snake = toSnakeCase(name);
  if (!SNAKE.test(snake)) fail(name, `it gives '${snake}', which has empty words (leading, trailing or doubled separators)`);
  if (snake === HOST_TARGET) fail(name, `'${HOST_TARGET}' is the host CPU target`);
  // The skeleton ships <snake>_kernels.h/.c next to the files codegen writes.
  const clash = [`${snake}_kernels.h`, `${snake}_kernels.c`].find((f) => !isFreeRuntimeSourceName(f));
  if (clash) fail(name, `its kernel file ${clash} would clash with a file uma-ts generates`);
  const words = snake.split('_');
  const camel = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  const lowerCamel = camel[0].toLowerCase() + camel.slice(1);
  return { snake, camel, lowerCamel, className: `${camel}Backend` };
}
