/**
 * Finds the C runtime files a backend ships with the generated code. tsc does not copy
 * `.c`/`.h` files into `dist/`, so a backend compiled there looks for its `runtime/` folder
 * both next to its module and at the same place in the source tree.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CodegenError } from '../errors';

/** `dir` itself, then the same path with the last `dist/` segment removed. */
export function runtimeDirCandidates(moduleDir: string, relative = 'runtime'): string[] {
  const own = path.join(moduleDir, relative);
  const parts = path.resolve(moduleDir).split(path.sep);
  const dist = parts.lastIndexOf('dist');
  if (dist < 0) return [own];
  const source = [...parts.slice(0, dist), ...parts.slice(dist + 1)].join(path.sep);
  return [own, path.join(source, relative)];
}

/** Locates the folder holding `files[0]`; throws a CodegenError naming where it looked. */
export function findRuntimeDir(moduleDir: string, files: readonly string[], target: string, relative = 'runtime'): string {
  const candidates = runtimeDirCandidates(moduleDir, relative);
  const dir = candidates.find((d) => files.every((f) => fs.existsSync(path.join(d, f))));
  if (dir === undefined) {
    // Per folder, what is missing: a misspelt name among present files reads differently
    // from a folder that is not there at all.
    const looked = candidates.map((d) => {
      if (!fs.existsSync(d)) return `${d}: no such directory`;
      return `${d}: lacks ${files.filter((f) => !fs.existsSync(path.join(d, f))).join(', ')}`;
    });
    throw new CodegenError(`${target} runtime files ${files.join(', ')} not found (looked in ${looked.join('; ')})`, { target });
  }
  return dir;
}

/** Reads the named runtime files as `{name, content}` for a codegen hook. */
export function readRuntimeSources(
  moduleDir: string,
  files: readonly string[],
  target: string,
  relative = 'runtime',
): { name: string; content: string }[] {
  const dir = findRuntimeDir(moduleDir, files, target, relative);
  return files.map((name) => ({ name, content: fs.readFileSync(path.join(dir, name), 'utf8') }));
}
