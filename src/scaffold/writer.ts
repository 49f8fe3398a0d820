/**
 * `uma-ts new-backend`: renders the skeleton templates for a backend name and writes them
 * to a fresh directory. Never overwrites: an existing directory is an error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ConfigError } from '../errors';
import { bestEffort, withFileErrors } from '../util/files';
import { BackendNames, backendNames } from './names';
import { TEMPLATE_FILES, TemplateFile } from './templates';

export interface NewBackendOptions {
  /** The backend name as typed (`my-accel`, `MyAccel`, ...). */
  readonly name: string;
  /** Output directory; default `backends/<snake_name>`, relative to `cwd`. */
  readonly dir?: string;
  /** Directory relative paths are resolved against (default: the process's). */
  readonly cwd?: string;
  /** Import specifier of uma-ts's public API; default the relative path to its `src/`. */
  readonly apiImport?: string;
  /** Target names taken already (the bundled backends, which the CLI always registers). */
  readonly takenTargets?: readonly string[];
}

export interface NewBackendResult {
  readonly names: BackendNames;
  /** Absolute path of the created directory. */
  readonly dir: string;
  /** Created files, relative to `dir`, `/`-separated. */
  readonly files: readonly string[];
  readonly apiImport: string;
}

/** The uma-ts checkout or installation this module belongs to (works from src/ and dist/). */
export function umaPackageRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg)) {
      try {
        if ((JSON.parse(fs.readFileSync(pkg, 'utf8')) as { name?: string }).name === 'uma-ts') return dir;
      } catch {
        // An unreadable package.json is not ours; keep walking up.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new ConfigError(`cannot find the uma-ts package root above ${start}`, { file: start });
    dir = parent;
  }
}

/** `../../src` from `<root>/backends/x`: the specifier generated code imports the API with. */
export function relativeApiImport(outDir: string, root: string = umaPackageRoot()): string {
  const rel = path.relative(outDir, path.join(root, 'src')).split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

function render(text: string, names: BackendNames, apiImport: string): string {
  return text
    .replace(/__SNAKE__/g, names.snake.toUpperCase())
    .replace(/__snake__/g, names.snake)
    .replace(/__Camel__/g, names.camel)
    .replace(/__camel__/g, names.lowerCamel)
    .replace(/__API__/g, apiImport);
}

/** The skeleton's files for `names`, rendered (paths relative to the backend directory). */
export function renderBackendFiles(names: BackendNames, apiImport: string): TemplateFile[] {
  return TEMPLATE_FILES.map((f) => ({ path: render(f.path, names, apiImport), text: render(f.text, names, apiImport) }));
}

/**
 * A name a generated TypeScript file both imports and declares at its top level, if any: `uma`
 * gave `export class UmaBackend extends UmaBackend`, which does not type-check.
 */
function declaredImport(text: string): string | undefined {
  const imported = new Set<string>();
  for (const m of text.matchAll(/^import\s*(?:type\s*)?\{([^}]*)\}\s*from/gm)) {
    for (const part of m[1].split(',')) {
      const local = part.trim().split(/\s+as\s+/).pop()!.trim();
      if (local !== '') imported.add(local);
    }
  }
  for (const m of text.matchAll(/^(?:export\s+)?(?:const|let|class|function|interface|type)\s+([A-Za-z_$][\w$]*)/gm)) {
    if (imported.has(m[1])) return m[1];
  }
  return undefined;
}

export function writeBackendSkeleton(options: NewBackendOptions): NewBackendResult {
  const names = backendNames(options.name);
  if (options.takenTargets?.includes(names.snake)) {
    throw new ConfigError(
      `backend name '${names.snake}' is taken by a bundled backend (${options.takenTargets.join(', ')}); the new one could not be registered next to it`,
      { target: names.snake },
    );
  }
  const shownDir = options.dir ?? `backends/${names.snake}`;
  const dir = path.resolve(options.cwd ?? process.cwd(), shownDir);
  if (fs.existsSync(dir)) {
    throw new ConfigError(`directory ${shownDir} already exists; choose another name or remove it`, { file: shownDir, target: names.snake });
  }
  if (options.apiImport !== undefined && !/^[^'"`\\\s]+$/.test(options.apiImport)) {
    throw new ConfigError(
      `--import-from '${options.apiImport.slice(0, 60).replace(/[^\x20-\x7e]/g, '?')}' is not a module specifier (no quotes, backslashes or spaces)`,
      { file: shownDir },
    );
  }
  const apiImport = options.apiImport ?? relativeApiImport(dir);
  const files = renderBackendFiles(names, apiImport);
  for (const file of files) {
    const shadowed = declaredImport(file.text);
    if (shadowed !== undefined) {
      throw new ConfigError(
        `backend name '${options.name}' gives ${shadowed}, a name ${file.path} already imports (the class would extend itself); choose another name`,
        { target: names.snake },
      );
    }
  }
  withFileErrors('create the parent directory of', shownDir, () => fs.mkdirSync(path.dirname(dir), { recursive: true }));
  // Created exclusively: a directory appearing meanwhile is someone else's and stays untouched.
  withFileErrors('create backend directory', shownDir, () => fs.mkdirSync(dir));
  // What this write created, so a failure undoes exactly that: a file someone else put into
  // the new directory meanwhile is not ours to remove (nor the directories holding it).
  const createdDirs = [dir];
  const createdFiles: string[] = [];
  try {
    withFileErrors('write backend skeleton into', shownDir, () => {
      for (const f of files) {
        const target = path.join(dir, ...f.path.split('/'));
        const first = fs.mkdirSync(path.dirname(target), { recursive: true });
        if (first !== undefined) {
          for (let d = path.dirname(target); d.length >= first.length; d = path.dirname(d)) createdDirs.push(d);
        }
        fs.writeFileSync(target, f.text, { flag: 'wx' });
        createdFiles.push(target);
      }
    });
  } catch (e) {
    for (const f of createdFiles) bestEffort(() => fs.unlinkSync(f));
    // Deepest first; rmdir leaves a directory that still holds anything.
    for (const d of [...new Set(createdDirs)].sort((a, b) => b.length - a.length)) bestEffort(() => fs.rmdirSync(d));
    throw e;
  }
  return { names, dir, files: files.map((f) => f.path), apiImport };
}
