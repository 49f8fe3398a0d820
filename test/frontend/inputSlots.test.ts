import { builtinOperatorName } from '../../src/frontend/tflite/builtinOperators';
import { convertedBuiltins, VARIADIC_BUILTINS } from '../../src/frontend/tflite/converters';
import { MAX_INPUT_SLOTS } from '../../src/frontend/tflite/converters/inputSlots';

describe('input slot counts of the converted builtins', () => {
  it('every converted builtin has a count or takes any number of inputs, never both', () => {
    const missing = convertedBuiltins().filter((code) => MAX_INPUT_SLOTS.has(code) === VARIADIC_BUILTINS.has(code));
    expect(missing.map(builtinOperatorName)).toEqual([]);
  });

  it('only converted builtins are counted', () => {
    const converted = new Set(convertedBuiltins());
    expect([...MAX_INPUT_SLOTS.keys()].filter((code) => !converted.has(code)).map(builtinOperatorName)).toEqual([]);
  });
});
