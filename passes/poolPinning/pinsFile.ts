/** Reads a user pins file (`schemas/pins.schema.json`) into pinning constraints. */
import { parseJsonDocument } from '../../src/config/validateJson';
import { ConfigError } from '../../src/errors';
import { CONFIG_FILE_LIMIT_BYTES, readInputText } from '../../src/util/files';
import { OperandPin, parseOperandSelector, PinningConstraints, TensorPin } from './constraints';

interface PinsDocument {
  pins?: ({ tensor: string; pools: string[] } | { operator: string; operand?: string; pools: string[] })[];
  poolPreference?: string[];
}

export function parsePins(text: string, file = 'pins.json'): PinningConstraints {
  const doc = parseJsonDocument<PinsDocument>(text, 'pins.schema.json', file);
  const operands: OperandPin[] = [];
  const tensors: TensorPin[] = [];
  (doc.pins ?? []).forEach((pin, i) => {
    const source = `pins ${file} #${i}`;
    if ('tensor' in pin) {
      tensors.push({ source, tensor: pin.tensor, pools: pin.pools });
      return;
    }
    const selector = parseOperandSelector(pin.operand ?? 'any');
    if (!selector) {
      throw new ConfigError(`${file}: /pins/${i}/operand: invalid operand '${pin.operand}': expected input, output, scratch or any, optionally ':k' with an index k up to 2^53-1`, {
        file,
        jsonPath: `/pins/${i}/operand`,
      });
    }
    operands.push({ source, op: pin.operator, ...selector, pools: pin.pools });
  });
  return { operands, tensors, ...(doc.poolPreference ? { poolOrder: doc.poolPreference, poolOrderSource: `pins ${file} /poolPreference` } : {}) };
}

export function loadPinsFile(file: string): PinningConstraints {
  return parsePins(readInputText(file, { what: 'pins file', limitBytes: CONFIG_FILE_LIMIT_BYTES }), file);
}
