import { UmaError } from '../../src/errors';
import { importTflite } from '../../src/frontend/tflite';

/**
 * The error importing `bytes` raises, asserted to be a typed one-line UmaError (anything else
 * is rethrown as it came); a model that imports fails the test.
 */
export function importRefusal(bytes: Uint8Array, file = 'bad.tflite'): UmaError {
  try {
    importTflite(bytes, file);
  } catch (e) {
    if (!(e instanceof UmaError)) throw e;
    expect(e.message).not.toContain('\n');
    return e;
  }
  throw new Error(`${file} imported`);
}
