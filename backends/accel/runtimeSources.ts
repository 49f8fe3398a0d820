/**
 * The accel's C runtime as files shipped with the generated code. The files live in
 * `runtime/` next to this module; from the compiled `dist/` tree they are found in the
 * package's `backends/accel/runtime` (tsc does not copy C files).
 */
import { findRuntimeDir, readRuntimeSources } from '../../src/index';

export const ACCEL_RUNTIME_HEADER = 'accel_runtime.h';
export const ACCEL_RUNTIME_SOURCE = 'accel_runtime.c';

export function accelRuntimeDir(): string {
  return findRuntimeDir(__dirname, [ACCEL_RUNTIME_HEADER, ACCEL_RUNTIME_SOURCE], 'accel');
}

export function accelRuntimeSources(): { name: string; content: string }[] {
  return readRuntimeSources(__dirname, [ACCEL_RUNTIME_HEADER, ACCEL_RUNTIME_SOURCE], 'accel');
}
