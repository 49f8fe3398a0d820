/**
 * TFLite frontend: `.tflite` bytes or file → graph IR (`IRModule` with one function `main`).
 */
import { readFileSync } from 'fs';
import { ModelFormatError } from '../../errors';
import { IRModule } from '../../ir/graph/types';
import { checkTflite, importTflite, TfliteCheck } from './importer';

export { checkTflite, formatUnsupportedList, groupUnsupported, importTflite, unsupportedModelError } from './importer';
export type { DeclaredOperator, TfliteCheck, UnsupportedGroup, UnsupportedUse } from './importer';
export { resolvePadding, outputSize } from './padding';
export type { PaddingMode, WindowSpec } from './padding';
export { builtinOperatorName } from './builtinOperators';

function readModelFile(path: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new ModelFormatError(`cannot read model file ${path}: ${reason}`, { file: path });
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Reads and imports a `.tflite` file; an unreadable file is a ModelFormatError. */
export function loadTfliteFile(path: string): IRModule {
  return importTflite(readModelFile(path), path);
}

/** Reads a `.tflite` file and runs the import checker on it (what `inspect` shows). */
export function checkTfliteFile(path: string): TfliteCheck {
  return checkTflite(readModelFile(path), path);
}
