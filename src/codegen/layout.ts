/**
 * Where things live in an output directory (TVM's Model Library Format keeps the runtime
 * apart from the generated code the same way):
 *
 *   codegen/host/{include,src}   model code, every name prefixed with the module name
 *   runtime/{include,src}        model-independent runtime, byte-identical across compiles
 *
 * and how to build it: every include dir, every `.c` of both trees.
 */
import * as fs from 'fs';
import * as path from 'path';

export const MLF_HOST_DIR_POSIX = 'codegen/host';
export const RUNTIME_DIR = 'runtime';

/** Absolute include dirs and `.c` sources of the output directory `root`, in a stable order. */
export interface BuildLayout {
  readonly includeDirs: readonly string[];
  readonly modelSources: readonly string[];
  readonly runtimeSources: readonly string[];
}

function cFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.c'))
    .sort()
    .map((f) => path.join(dir, f));
}

export function buildLayout(root: string): BuildLayout {
  return {
    includeDirs: [path.join(root, 'codegen', 'host', 'include'), path.join(root, RUNTIME_DIR, 'include')],
    modelSources: cFiles(path.join(root, 'codegen', 'host', 'src')),
    runtimeSources: cFiles(path.join(root, RUNTIME_DIR, 'src')),
  };
}
