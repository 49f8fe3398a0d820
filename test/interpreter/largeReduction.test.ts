/**
 * A reduction over more elements than a JavaScript array can hold: the interpreter walks the
 * input's offsets instead of listing them. Fuzzed: an 800-byte model (BROADCAST_TO [140M] then
 * REDUCE_MAX) killed `uma-ts run` with V8's "Fatal JavaScript invalid size error".
 */
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { interpret } from '../../src/interpreter';

const N = 150_000_000;

function model(): Uint8Array {
  const w = new TfliteWriter();
  const q = { scale: [0.5], zeroPoint: [0] };
  const x = w.addInput({ name: 'x', shape: [N], dtype: 'int8', quant: q });
  const axes = w.addConstant({ name: 'axes', shape: [1], dtype: 'int32', data: new Int32Array([0]) });
  const y = w.addTensor({ name: 'y', shape: [], dtype: 'int8', quant: q });
  w.addOperator({ op: 'REDUCE_MAX', inputs: [x, axes], outputs: [y], options: tfliteOptions.reducer(false) });
  w.markOutput(y);
  return w.finish();
}

describe('a reduction over 150M elements', () => {
  it('REDUCE_MAX finds the one largest element', () => {
    const input = new Int8Array(N).fill(-3);
    input[N - 7] = 42;
    const [out] = interpret(importTflite(model()), [new Uint8Array(input.buffer)]);
    expect(new Int8Array(out.buffer, out.byteOffset, 1)[0]).toBe(42);
  }, 60000);
});
