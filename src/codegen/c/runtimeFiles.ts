/**
 * The C runtime helpers shipped next to the generated code. They live as real C files in
 * `src/codegen/c/runtime/` (readable, testable with gcc); this finds them both when running
 * from the sources and from the compiled `dist/` tree.
 */
import * as fs from 'fs';
import * as path from 'path';
import { CodegenError } from '../../errors';
import { DETECTION_POSTPROCESS, EXTERN_KERNELS, SIGNAL_KERNELS } from '../../lower/cpu/externKernels';

export const RUNTIME_HEADER = 'uma_runtime.h';
/** Reference kernels lowering may call (src/lower/cpu/externKernels.ts), shipped on use. */
export const KERNELS_HEADER = 'uma_ref_kernels.h';
export const KERNELS_SOURCE = 'uma_ref_kernels.c';
export const RUNTIME_KERNELS: ReadonlySet<string> = new Set(EXTERN_KERNELS.map((k) => k.name));
/** The detection post-processing kernel's own source: the one kernel that needs libm, shipped only on use. */
export const DETECTION_KERNELS_SOURCE = 'uma_ref_detection.c';
/** TFLite Micro's signal-library kernels (the micro_speech audio front end), shipped only on use. */
export const SIGNAL_KERNELS_SOURCE = 'uma_ref_signal.c';

/** Whether a backend's runtime source may be called `name`: a plain file name no generated file has. */
export function isFreeRuntimeSourceName(name: string): boolean {
  return (
    /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) &&
    ![RUNTIME_HEADER, KERNELS_HEADER, KERNELS_SOURCE, DETECTION_KERNELS_SOURCE, SIGNAL_KERNELS_SOURCE].includes(name) &&
    !/^default_lib\d+\.c$/.test(name) &&
    !/^tvmgen_/.test(name)
  );
}

/** The runtime source defining kernel `name` (uma_ref_kernels.c unless it has a file of its own). */
export function kernelSourceOf(name: string): string {
  if (name === DETECTION_POSTPROCESS) return DETECTION_KERNELS_SOURCE;
  return SIGNAL_KERNELS.includes(name) ? SIGNAL_KERNELS_SOURCE : KERNELS_SOURCE;
}

const CANDIDATE_DIRS = [
  path.join(__dirname, 'runtime'),
  // dist/src/codegen/c → the package's src/codegen/c/runtime
  path.join(__dirname, '..', '..', '..', '..', 'src', 'codegen', 'c', 'runtime'),
];

export function runtimeDir(): string {
  for (const dir of CANDIDATE_DIRS) {
    if (fs.existsSync(path.join(dir, RUNTIME_HEADER))) return dir;
  }
  throw new CodegenError(`C runtime header ${RUNTIME_HEADER} not found (looked in ${CANDIDATE_DIRS.join(', ')})`);
}

export function readRuntimeHeader(): string {
  return readRuntimeFile(RUNTIME_HEADER);
}

export function readRuntimeFile(name: string): string {
  return fs.readFileSync(path.join(runtimeDir(), name), 'utf8');
}
