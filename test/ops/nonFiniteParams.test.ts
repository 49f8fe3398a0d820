/**
 * Non-finite float parameters (fuzzed). PADV2's float pad value may be -inf (converters pad a
 * max pool's window with it): it runs, in the interpreter and the generated C alike. Where an
 * infinite or NaN parameter means nothing (LEAKY_RELU's alpha, SOFTMAX's beta) the error says
 * what the value is (it said "got null", JSON's spelling of Infinity); an int8 LEAKY_RELU whose
 * alpha makes a multiplier past 2^31 is refused naming the operator (it named nothing).
 */
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { BUILTIN_OPTIONS, TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';
import { verifyModel } from '../../src/verify/verifyModel';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { errorOf } from '../helpers/errorOf';

const registry = new BackendRegistry();
registry.register(VanillaBackend);

function padV2(value: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
  const pads = w.addConstant({ name: 'p', shape: [1, 2], dtype: 'int32', data: [1, 1] });
  const v = w.addConstant({ name: 'v', shape: [], dtype: 'float32', data: new Float32Array([value]) });
  const y = w.addTensor({ name: 'y', shape: [4], dtype: 'float32' });
  w.addOperator({ op: 'PADV2', inputs: [x, pads, v], outputs: [y], options: tfliteOptions.empty(BUILTIN_OPTIONS.PadV2Options) });
  w.markOutput(y);
  return w.finish();
}

function leakyRelu(alpha: number, int8: boolean): Uint8Array {
  const w = new TfliteWriter();
  const quant = int8 ? { quant: { scale: [0.5], zeroPoint: [0] } } : {};
  const x = w.addInput({ name: 'x', shape: [4], dtype: int8 ? 'int8' : 'float32', ...quant });
  const y = w.addTensor({ name: 'y', shape: [4], dtype: int8 ? 'int8' : 'float32', ...quant });
  w.addOperator({ op: 'LEAKY_RELU', inputs: [x], outputs: [y], options: tfliteOptions.leakyRelu(alpha) });
  w.markOutput(y);
  return w.finish();
}

describe('non-finite float parameters', () => {
  it('PADV2 pads with -inf, in the generated C as in the interpreter', () => {
    const m = importTflite(padV2(-Infinity), 'padv2.tflite');
    const [out] = interpret(m, [new Uint8Array(Float32Array.from([1.5, -2]).buffer)]);
    expect(Array.from(new Float32Array(out.slice().buffer))).toEqual([-Infinity, 1.5, -2, -Infinity]);
    const report = verifyModel(m, { backend: 'vanilla' });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
  }, 60000);

  it('an infinite LEAKY_RELU alpha is refused saying what it is', () => {
    const e = errorOf(() => compileModel(importTflite(leakyRelu(Infinity, false), 'leaky.tflite'), { backend: 'vanilla', registry }));
    expect(e.message).toMatch(/attribute 'alpha' must be a finite number, got Infinity$/);
  });

  it('an int8 LEAKY_RELU alpha past the fixed-point range is refused naming the operator', () => {
    const e = errorOf(() => importTflite(leakyRelu(3.4e38, true), 'leaky_i8.tflite'));
    expect(e.message).toMatch(/^unsupported LEAKY_RELU at operator #0 in leaky_i8\.tflite: a requantization multiplier of 3\.39\d*e\+38 .* is outside the 32-bit fixed-point range$/);
  });
});
