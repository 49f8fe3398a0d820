/**
 * The backends a CLI run can compile for: the bundled example backends, plus user backends
 * loaded from `--backend-module <file.js|file.ts>` (a module exporting UmaBackend subclasses or a
 * `register(registry)` function). Also finds a backend's bundled pools file and turns
 * `--target-attr k=v` flags into type-checked target attributes.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BackendRegistry } from '../backend/registry';
import { parseTarget, TargetAttrValue } from '../backend/targetAttrs';
import { UmaBackend } from '../backend/umaBackend';
import { describeThrown as describeHookThrow, isThenable } from '../util/thrown';
import { ConfigError, isUmaError } from '../errors';
import { withFileErrors } from '../util/files';
import { requireUserModule } from './userModule';

/** First line of whatever a user module threw (it need not be an Error). */


/** What loading or registering threw: a plain Error's message alone, anything else `threw ...`. */
function describeThrown(e: unknown): string {
  const said = describeHookThrow(e);
  if (!(e instanceof Error)) return `threw ${typeof e === 'string' ? e.split('\n')[0].slice(0, 200) : said}`;
  return said.startsWith('Error: ') ? said.slice('Error: '.length) : said;
}

/**
 * Lets the event loop turn once, so that a promise the user's code rejected without handling
 * it is reported now (by the CLI's unhandled-rejection handler, which ends the process with
 * one `error:` line), before anything is compiled or written, not after.
 */
function settleUserPromises(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function isBackendClass(value: unknown): value is new () => UmaBackend {
  return typeof value === 'function' && value.prototype instanceof UmaBackend;
}

/** A class, or an instance as `BackendRegistry.register` also takes (`export const npu = new Npu()`). */
function isBackendExport(value: unknown): value is UmaBackend | (new () => UmaBackend) {
  return isBackendClass(value) || value instanceof UmaBackend;
}

/**
 * Registers what one user module provides; returns the targets it added. A `register` that
 * returns a promise (an `async function`) is awaited, and its rejection is reported as a
 * thrown one: nothing is compiled with a half-registered backend.
 */
export async function loadBackendModule(registry: BackendRegistry, file: string): Promise<string[]> {
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw new ConfigError(`--backend-module ${file}: file not found`, { file });
  const stat = withFileErrors('read backend module', file, () => fs.statSync(resolved));
  if (!stat.isFile()) throw new ConfigError(`--backend-module ${file}: not a regular file`, { file });
  let exports: Record<string, unknown>;
  try {
    exports = requireUserModule(resolved);
  } catch (e) {
    // Node may run a .js file with `import` syntax as an ES module, whose imports this loader
    // does not resolve.
    const esm = (e as { code?: unknown } | undefined)?.code === 'ERR_MODULE_NOT_FOUND' && describeThrown(e).includes("'uma-ts'");
    const hint = esm ? " (an ES module cannot import 'uma-ts' here: write the backend as CommonJS or TypeScript)" : '';
    throw new ConfigError(`--backend-module ${file}: cannot load: ${describeThrown(e)}${hint}`, { file });
  }
  await settleUserPromises();
  const before = new Set(registry.targets());
  try {
    // Inside the try: reading an export runs the user's code too (a getter, a proxy).
    const register = exports.register ?? (exports.default as Record<string, unknown> | undefined)?.register;
    if (typeof register === 'function') {
      const result: unknown = (register as (r: BackendRegistry) => unknown)(registry);
      if (isThenable(result)) await result;
    } else {
      const classes = Object.values(exports).filter(isBackendExport);
      if (classes.length === 0) {
        throw new ConfigError(
          `--backend-module ${file}: exports neither a register(registry) function nor a UmaBackend subclass or instance ` +
            '(the class must extend the UmaBackend of this uma-ts installation)',
          { file },
        );
      }
      for (const cls of classes) registry.register(cls);
    }
  } catch (e) {
    if (isUmaError(e) && !(e instanceof ConfigError && e.context.file === file)) {
      throw new ConfigError(`--backend-module ${file}: ${e.message}`, { ...e.context, file });
    }
    if (isUmaError(e)) throw e;
    // The user's own code failed while registering: their mistake, reported as such.
    throw new ConfigError(`--backend-module ${file}: registering its backends failed: ${describeThrown(e)}`, { file });
  }
  await settleUserPromises();
  const added = registry.targets().filter((t) => !before.has(t));
  // Else the compile stops at "unknown target", as if the module had never been given.
  if (added.length === 0) {
    throw new ConfigError(`--backend-module ${file}: its register(registry) registered no backend (call registry.register(YourBackend) in it)`, { file });
  }
  return added;
}

/** A registry with the example backends and the given user modules, in that order. */
export async function createCliRegistry(backendModules: readonly string[] = []): Promise<BackendRegistry> {
  const registry = new BackendRegistry();
  // Loaded on first use so commands that need no backend (inspect) do not pay for them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const bundled = require('../../backends') as typeof import('../../backends');
  bundled.registerExampleBackends(registry);
  for (const m of backendModules) await loadBackendModule(registry, m);
  return registry;
}

/**
 * `backends/<target>/pools.json` when the target is a bundled backend that ships one.
 * Sources run from `src/cli`, the build from `dist/src/cli`; the JSON stays in the source tree.
 */
export function bundledPoolsFile(target: string): string | undefined {
  for (const root of [path.resolve(__dirname, '..', '..'), path.resolve(__dirname, '..', '..', '..')]) {
    const file = path.join(root, 'backends', target, 'pools.json');
    if (fs.existsSync(file)) return path.relative(process.cwd(), file) || file;
  }
  return undefined;
}

/**
 * `--target-attr name=value` flags checked against the backend's declared attributes
 * (types converted as in a target string `accel --name=value`).
 */
export function parseTargetAttrFlags(
  registry: BackendRegistry,
  target: string,
  flags: readonly string[],
): Record<string, TargetAttrValue> {
  const options: string[] = [];
  for (const flag of flags) {
    const m = /^([^=\s]+)=(\S*)$/.exec(flag);
    if (!m) throw new ConfigError(`--target-attr ${flag}: expected name=value (no spaces)`, { target });
    options.push(`--${m[1]}=${m[2]}`);
  }
  try {
    return { ...parseTarget([target, ...options].join(' '), registry).attrs };
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`--target-attr: ${e.message}`, e.context);
    throw e;
  }
}
