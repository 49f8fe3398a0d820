/**
 * Pools of alignment 1 still place each buffer at a multiple of its element size: the generated
 * C reads an int32 bias or a float tensor through a pointer of that type, and an odd offset is
 * undefined behaviour (UBSan: "load of misaligned address"; a fault on cores without unaligned
 * access). Found by a differential campaign: a 1-byte int8 constant put the int32 bias after it
 * at offset 1.
 */
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { parsePoolsJson } from '../../src/usmp/pools';

const registry = new BackendRegistry();
registry.register(VanillaBackend);

/** int8 ADD of a 1-byte constant, an int8 FULLY_CONNECTED with an int32 bias, then float32 ops. */
function model(): Uint8Array {
  const w = new TfliteWriter();
  const q = (scale: number, zeroPoint: number) => ({ scale: [scale], zeroPoint: [zeroPoint] });
  const x = w.addInput({ name: 'x', shape: [1, 5], dtype: 'int8', quant: q(0.02, 1) });
  const k = w.addConstant({ name: 'k', shape: [1], dtype: 'int8', data: new Int8Array([5]), quant: q(0.02, 1) });
  const xa = w.addTensor({ name: 'xa', shape: [1, 5], dtype: 'int8', quant: q(0.03, 0) });
  w.addOperator({ op: 'ADD', inputs: [x, k], outputs: [xa], options: tfliteOptions.add('NONE') });
  const wt = w.addConstant({ name: 'w', shape: [7, 5], dtype: 'int8', data: new Int8Array(35).map((_, i) => i * 13 - 90), quant: q(0.01, 0) });
  const b = w.addConstant({ name: 'b', shape: [7], dtype: 'int32', data: new Int32Array([100, -200, 300, -400, 500, 7, 9]), quant: q(0.0003, 0) });
  const y = w.addTensor({ name: 'y', shape: [1, 7], dtype: 'int8', quant: q(0.05, -2) });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [xa, wt, b], outputs: [y], options: tfliteOptions.fullyConnected({}) });
  const yf = w.addTensor({ name: 'yf', shape: [1, 7], dtype: 'float32' });
  w.addOperator({ op: 'DEQUANTIZE', inputs: [y], outputs: [yf] });
  const z = w.addTensor({ name: 'z', shape: [1, 7], dtype: 'float32' });
  w.addOperator({ op: 'TANH', inputs: [yf], outputs: [z] });
  w.markOutput(z);
  return w.finish();
}

describe('buffers in pools of alignment 1', () => {
  it('sit at multiples of their element size (int32 bias, float32 tensors)', () => {
    const pools = parsePoolsJson(
      JSON.stringify({
        workspacePools: [{ name: 'sram', targets: ['c', 'vanilla'], internal: true, alignment: 1 }],
        constantPools: [{ name: 'flash', targets: ['c', 'vanilla'], internal: true, alignment: 1 }],
      }),
      'pools.json',
    );
    const result = compileModel(importTflite(model()), { backend: 'vanilla', registry, pools });
    const { buffers, plan } = result.usmp;
    // The 1-byte constant is planned, so without element alignment the next constant lands at 1.
    expect(buffers.some((b) => b.sizeBytes === 1)).toBe(true);
    const wide = buffers.filter((b) => b.alignment >= 4);
    // The int32 bias and the float32 tensors (DEQUANTIZE's and TANH's outputs at least).
    expect(wide.length).toBeGreaterThanOrEqual(2);
    expect(wide.some((b) => b.kind === 'constant')).toBe(true);
    for (const b of buffers) expect({ buffer: b.name, misaligned: plan.get(b.name)!.offset % b.alignment }).toEqual({ buffer: b.name, misaligned: 0 });
  });
});
