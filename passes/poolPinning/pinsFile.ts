/** Reads a user pins file (`schemas/pins.schema.json`) into pinning constraints. */
import * as fs from 'fs';
import { parseJsonDocument } from '../../src/config/validateJson';
import { ConfigError } from '../../src/errors';
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
      throw new ConfigError(`${file}: /pins/${i}/operand: invalid operand '${pin.operand}'`, {
        file,
        jsonPath: `/pins/${i}/operand`,
      });
    }
    operands.push({ source, op: pin.operator, ...selector, pools: pin.pools });
  });
  return { operands, tensors, ...(doc.poolPreference ? { poolOrder: doc.poolPreference } : {}) };
}

export function loadPinsFile(file: string): PinningConstraints {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new ConfigError(`cannot read pins file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { file });
  }
  return parsePins(text, file);
}
