/**
 * TFLite frontend: `.tflite` bytes or file → graph IR (`IRModule` with one function `main`).
 */
import { readFileSync } from 'fs';
import { ModelFormatError } from '../../errors';
import { IRModule } from '../../ir/graph/types';
import { importTflite } from './importer';

export { importTflite } from './importer';
export { resolvePadding, outputSize } from './padding';
export type { PaddingMode, WindowSpec } from './padding';
export { builtinOperatorName } from './builtinOperators';

/** Reads and imports a `.tflite` file; an unreadable file is a ModelFormatError. */
export function loadTfliteFile(path: string): IRModule {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new ModelFormatError(`cannot read model file ${path}: ${reason}`, { file: path });
  }
  return importTflite(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}
