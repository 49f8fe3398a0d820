/**
 * TFLite frontend: `.tflite` bytes or file → graph IR (`IRModule` with one function `main`).
 */
import { MODEL_FILE_LIMIT_BYTES, readInputFile } from '../../util/files';
import { IRModule } from '../../ir/graph/types';
import { importTflite } from './importer';

export { importTflite } from './importer';
export { resolvePadding, outputSize } from './padding';
export type { PaddingMode, WindowSpec } from './padding';
export { builtinOperatorName } from './builtinOperators';

/** Reads and imports a `.tflite` file; an unreadable file is a FileAccessError. */
export function loadTfliteFile(path: string): IRModule {
  const bytes = readInputFile(path, { what: 'model file', limitBytes: MODEL_FILE_LIMIT_BYTES });
  return importTflite(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), path);
}
