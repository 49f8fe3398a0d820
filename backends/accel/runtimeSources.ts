/**
 * The accel's C runtime as files shipped with the generated code. The files live in
 * `runtime/` next to this module; from the compiled `dist/` tree they are found in the
 * package's `backends/accel/runtime` (tsc does not copy C files).
 */
import * as fs from 'fs';
import * as path from 'path';
import { CodegenError } from '../../src/index';

export const ACCEL_RUNTIME_HEADER = 'accel_runtime.h';
export const ACCEL_RUNTIME_SOURCE = 'accel_runtime.c';

const CANDIDATE_DIRS = [path.join(__dirname, 'runtime'), path.join(__dirname, '..', '..', '..', 'backends', 'accel', 'runtime')];

export function accelRuntimeDir(): string {
  const dir = CANDIDATE_DIRS.find((d) => fs.existsSync(path.join(d, ACCEL_RUNTIME_HEADER)));
  if (dir === undefined) throw new CodegenError(`accel runtime ${ACCEL_RUNTIME_HEADER} not found (looked in ${CANDIDATE_DIRS.join(', ')})`, { target: 'accel' });
  return dir;
}

export function accelRuntimeSources(): { name: string; content: string }[] {
  const dir = accelRuntimeDir();
  return [ACCEL_RUNTIME_HEADER, ACCEL_RUNTIME_SOURCE].map((name) => ({ name, content: fs.readFileSync(path.join(dir, name), 'utf8') }));
}
