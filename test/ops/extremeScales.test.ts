/**
 * Quantization scales whose fixed-point or float arithmetic leaves its range (fuzzed), refused
 * naming the operator instead of compiling to C that crashes or disagrees with the interpreter:
 * int16 LOGISTIC/TANH input multipliers outside 1..32767 (a tiny scale truncated to 0 read as
 * the power-of-two form: the C indexed its table at -4194304, SIGSEGV), requantization
 * multipliers that overflow float32 (the literal Infinity reached the C), and quantized SUM
 * results past int32 (the C saturated, the interpreter wrapped).
 */
import { VanillaBackend } from '../../backends/vanilla';
import { quantizeMultiplier } from '../../src/arith/fixedpoint';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { errorOf } from '../helpers/errorOf';

const registry = new BackendRegistry();
registry.register(VanillaBackend);
const compile = (model: Uint8Array) => compileModel(importTflite(model, 'm.tflite'), { backend: 'vanilla', registry });

function int16Activation(op: 'LOGISTIC' | 'TANH', inputScale: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [4], dtype: 'int16', quant: { scale: [inputScale], zeroPoint: [0] } });
  const y = w.addTensor({ name: 'y', shape: [4], dtype: 'int16', quant: { scale: [2 ** -15], zeroPoint: [0] } });
  w.addOperator({ op, inputs: [x], outputs: [y] });
  w.markOutput(y);
  return w.finish();
}

function dense(scale: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 2], dtype: 'int8', quant: { scale: [scale], zeroPoint: [0] } });
  const weight = w.addConstant({ name: 'w', shape: [2, 2], dtype: 'int8', data: new Int8Array([1, 2, 3, 4]), quant: { scale: [scale], zeroPoint: [0] } });
  const y = w.addTensor({ name: 'y', shape: [1, 2], dtype: 'int8', quant: { scale: [1], zeroPoint: [0] } });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [x, weight, -1], outputs: [y], options: tfliteOptions.fullyConnected({}) });
  w.markOutput(y);
  return w.finish();
}

function sum(inputScale: number, outputScale: number): Uint8Array {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'int8', quant: { scale: [inputScale], zeroPoint: [0] } });
  const axes = w.addConstant({ name: 'axes', shape: [1], dtype: 'int32', data: [1] });
  const y = w.addTensor({ name: 'y', shape: [1, 1], dtype: 'int8', quant: { scale: [outputScale], zeroPoint: [0] } });
  w.addOperator({ op: 'SUM', inputs: [x, axes], outputs: [y], options: tfliteOptions.reducer(true) });
  w.markOutput(y);
  return w.finish();
}

describe('scales past their arithmetic', () => {
  it('int16 LOGISTIC/TANH input scales whose multiplier leaves 1..32767 are refused at import', () => {
    for (const [op, scale] of [['TANH', 1e-30], ['LOGISTIC', 3.4e38]] as const) {
      const e = errorOf(() => importTflite(int16Activation(op, scale), 'm.tflite'));
      expect(e.message).toMatch(new RegExp(`int16 ${op.toLowerCase()} input scale .* gives the input multiplier .*, outside the 1\\.\\.32767 its fixed-point kernel takes on ${op} at operator #0 in m\\.tflite$`));
    }
    expect(() => importTflite(int16Activation('LOGISTIC', 1e-10), 'm.tflite')).not.toThrow();
  });

  it('a requantization multiplier that overflows float32 is refused naming the operator', () => {
    expect(() => quantizeMultiplier(Infinity)).toThrow(/a requantization multiplier of Infinity/);
    expect(errorOf(() => compile(dense(1e30))).message).toMatch(/^m\.tflite: dense 'y': a requantization multiplier of Infinity \(from scales whose product overflows float32\)/);
  });

  it("a quantized SUM far past its output type clamps, as TFLite Micro's integer QuantizedMeanOrSum", () => {
    // Refused while SUM requantized in float (a float past int32 has no defined conversion).
    const model = sum(1, 1e-7);
    const [up] = interpret(importTflite(model, 'm.tflite'), [Uint8Array.from([1, 2, 0, 3])]);
    const [down] = interpret(importTflite(model, 'm.tflite'), [Uint8Array.from([0xff, 0xfe, 0, 0])]);
    expect([new Int8Array(up.buffer)[0], new Int8Array(down.buffer)[0]]).toEqual([127, -128]);
    expect(() => compile(model)).not.toThrow();
    expect(() => compile(sum(0.1, 0.05))).not.toThrow();
  });
});
