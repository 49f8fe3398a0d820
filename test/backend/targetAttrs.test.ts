import { BackendRegistry, parseTarget } from '../../src/backend';
import { ConfigError } from '../../src/errors';
import { ConfigurableBackend } from '../partition/helpers';

function registry(): BackendRegistry {
  const reg = new BackendRegistry();
  reg.register(
    new ConfigurableBackend('accel', (r) => {
      r.attr('dimension', 16);
      r.attr('fast', false);
      r.attr('mode', 'dense');
      r.attr('scale', 1.5);
    }),
  );
  return reg;
}

describe('parseTarget', () => {
  it('converts values to the declared types and fills defaults', () => {
    expect(parseTarget('accel --dimension=32 --fast=true', registry())).toEqual({
      kind: 'accel',
      attrs: { dimension: 32, fast: true, mode: 'dense', scale: 1.5 },
      builtins: {},
    });
  });

  it('accepts single dashes, space-separated values and built-in attributes', () => {
    expect(parseTarget('  accel -mode sparse --scale=0.25 --mcpu=cortex-m55 ', registry())).toEqual({
      kind: 'accel',
      attrs: { dimension: 16, fast: false, mode: 'sparse', scale: 0.25 },
      builtins: { mcpu: 'cortex-m55' },
    });
  });

  it.each([
    ['accel --dimension', `target 'accel': option --dimension needs a value (--dimension=<value>)`],
    ['accel --dimension --fast=true', `target 'accel': option --dimension needs a value (--dimension=<value>)`],
    ['accel --dimension=big', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got 'big'`],
    ['accel --dimension=1.5', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got '1.5'`],
    ['accel --dimension=', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got ''`],
    // Number() took these: exponent and hex notation, and a value it rounds (fuzzed).
    ['accel --dimension=1e3', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got '1e3'`],
    ['accel --dimension=0x10', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got '0x10'`],
    ['accel --dimension=99999999999999999999', `target 'accel': --dimension expects an integer (decimal digits, at most 2^53-1), got '99999999999999999999'`],
    ['accel --scale=x', `target 'accel': --scale expects a number, got 'x'`],
    ['accel --fast=yes', `target 'accel': --fast expects a boolean (true/false), got 'yes'`],
    ['accel --width=3', `target 'accel': unknown attribute 'width' (known: dimension, fast, mode, scale)`],
    ['accel dimension=3', `target 'accel': expected an option like --name=value, got 'dimension=3'`],
    ['accel --fast=true --fast=false', `target 'accel': option --fast is given twice`],
    ['npu --dimension=3', `unknown target 'npu' (registered: accel)`],
    ['   ', 'empty target string'],
  ])('%s', (text, message) => {
    expect(() => parseTarget(text, registry())).toThrow(new ConfigError(message));
  });
});
