/**
 * TFLite frontend: `.tflite` bytes or file → graph IR (`IRModule` with one function `main`).
 */
import { MODEL_FILE_LIMIT_BYTES, readInputFile } from '../../util/files';
import { IRModule } from '../../ir/graph/types';
import { checkTflite, importTflite, TfliteCheck } from './importer';

export { checkMainTypes, checkTflite, formatUnsupportedList, groupUnsupported, importTflite, unsupportedModelError } from './importer';
export type { DeclaredOperator, TfliteCheck, UnsupportedGroup, UnsupportedUse } from './importer';
export { resolvePadding, outputSize } from './padding';
export type { PaddingMode, WindowSpec } from './padding';
export { builtinOperatorName } from './builtinOperators';

function readModelFile(path: string): Uint8Array {
  const bytes = readInputFile(path, { what: 'model file', limitBytes: MODEL_FILE_LIMIT_BYTES });
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads and imports a `.tflite` file; an unreadable file is a FileAccessError. */
export function loadTfliteFile(path: string): IRModule {
  return importTflite(readModelFile(path), path);
}

/** Reads a `.tflite` file and runs the import checker on it (what `inspect` shows). */
export function checkTfliteFile(path: string): TfliteCheck {
  return checkTflite(readModelFile(path), path);
}
