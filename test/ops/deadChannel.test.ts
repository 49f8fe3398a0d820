/**
 * A pruned filter: TFLite's per-channel weight quantizer gives an all-zero output channel
 * scale 0 (half range 0 / 127), and its bias scale input scale x 0. TFLite and TFLite Micro
 * run such models (a zero multiplier: the channel's output is its zero point, clamped);
 * uma-ts refused them at import ("scale of channel 1 0 is not a finite number > 0"). CONV_2D,
 * DEPTHWISE_CONV_2D and per-channel FULLY_CONNECTED with a dead middle channel: LiteRT's bytes
 * exactly, and every bundled backend under gcc byte-exact with the interpreter.
 */
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import * as fs from 'fs';
import { BackendRegistry } from '../../src/backend/registry';
import { AccelBackend } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { compileModel } from '../../src/driver/compile';
import { parsePoolsJson } from '../../src/usmp/pools';
import { expectRunsByteExact, fixedInput } from '../e2e/harness';
import { runLiteRtBatch } from '../oracle/litert';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';
const registry = new BackendRegistry();
[HostOnlyBackend, AccelBackend, DmaLocalBackend, VanillaBackend].forEach((b) => registry.register(b));
function model(op: 'CONV_2D' | 'DEPTHWISE_CONV_2D' | 'FULLY_CONNECTED'): Uint8Array {
  const w = new TfliteWriter();
  const scales = [0.01, 0, 0.03];
  if (op === 'FULLY_CONNECTED') {
    const x = w.addInput({ name: 'x', shape: [1, 2], dtype: 'int8', quant: { scale: [0.02], zeroPoint: [3] } });
    const wt = w.addConstant({ name: 'w', shape: [3, 2], dtype: 'int8', quant: { scale: scales, zeroPoint: [0, 0, 0], axis: 0 }, data: new Int8Array([10, -20, 0, 0, -50, 60]) });
    const bias = w.addConstant({ name: 'b', shape: [3], dtype: 'int32', quant: { scale: scales.map((s) => s * 0.02), zeroPoint: [0, 0, 0], axis: 0 }, data: [100, 0, 300] });
    const y = w.addTensor({ name: 'y', shape: [1, 3], dtype: 'int8', quant: { scale: [0.01], zeroPoint: [-5] } });
    w.addOperator({ op, inputs: [x, wt, bias], outputs: [y], options: tfliteOptions.fullyConnected() });
    w.markOutput(y);
    return w.finish();
  }
  const x = w.addInput({ name: 'x', shape: [1, 4, 4, op === 'CONV_2D' ? 2 : 3], dtype: 'int8', quant: { scale: [0.02], zeroPoint: [3] } });
  const shape = op === 'CONV_2D' ? [3, 3, 3, 2] : [1, 3, 3, 3];
  const n = shape.reduce((a, b) => a * b, 1);
  const axis = op === 'CONV_2D' ? 0 : 3;
  const chan = (i: number) => (op === 'CONV_2D' ? Math.floor(i / 18) : i % 3);
  const data = new Int8Array(Array.from({ length: n }, (_, i) => (chan(i) === 1 ? 0 : ((i * 37) % 200) - 100)));
  const wt = w.addConstant({ name: 'w', shape, dtype: 'int8', quant: { scale: scales, zeroPoint: [0, 0, 0], axis }, data });
  const bias = w.addConstant({ name: 'b', shape: [3], dtype: 'int32', quant: { scale: scales.map((s) => s * 0.02), zeroPoint: [0, 0, 0], axis: 0 }, data: [100, 0, 300] });
  const y = w.addTensor({ name: 'y', shape: [1, 4, 4, 3], dtype: 'int8', quant: { scale: [0.05], zeroPoint: [-5] } });
  w.addOperator({ op, inputs: [x, wt, bias], outputs: [y], options: op === 'CONV_2D' ? tfliteOptions.conv2d({ padding: 'SAME', activation: 'RELU6' }) : tfliteOptions.depthwiseConv2d({ padding: 'SAME', depthMultiplier: 1, activation: 'RELU6' }) });
  w.markOutput(y);
  return w.finish();
}
/** A per-tensor scale of 0 stays an error (TFLite's per-tensor quantizer writes 1 for an all-zero tensor). */
it('still refuses a per-tensor scale of 0', () => {
  const w = new TfliteWriter();
  const x = w.addInput({ name: 'x', shape: [1, 2], dtype: 'int8', quant: { scale: [0.02], zeroPoint: [3] } });
  const wt = w.addConstant({ name: 'w', shape: [3, 2], dtype: 'int8', quant: { scale: [0], zeroPoint: [0] }, data: new Int8Array(6) });
  const y = w.addTensor({ name: 'y', shape: [1, 3], dtype: 'int8', quant: { scale: [0.01], zeroPoint: [-5] } });
  w.addOperator({ op: 'FULLY_CONNECTED', inputs: [x, wt, -1], outputs: [y], options: tfliteOptions.fullyConnected() });
  w.markOutput(y);
  expect(() => importTflite(w.finish(), 'a.tflite')).toThrow(/scale 0 is not a finite number > 0/);
});

const pools = (b: string) => parsePoolsJson(fs.readFileSync(`backends/${b}/pools.json`, 'utf8'), 'p').map((p) => ({ ...p, internal: false }));
it.each(['CONV_2D', 'DEPTHWISE_CONV_2D', 'FULLY_CONNECTED'] as const)('%s with an all-zero channel of scale 0', (op) => {
  const bytes = model(op);
  const inputs = [fixedInput(op === 'FULLY_CONNECTED' ? 2 : op === 'CONV_2D' ? 32 : 48, 4)];
  const g = importTflite(bytes, 'a');
  const expected = interpret(g, inputs);
  const [lite] = runLiteRtBatch([{ model: bytes, inputs }]);
  if ('error' in lite) throw new Error(lite.error);
  expect(Array.from(expected[0])).toEqual(Array.from(lite.outputs[0].data));
  // The dead channel (1) gives the output zero point (-5; RELU6 keeps it); the others vary.
  const out = Array.from(new Int8Array(expected[0].slice().buffer));
  expect(out.filter((_, i) => i % 3 === 1).every((v) => v === -5)).toBe(true);
  expect(new Set(out.filter((_, i) => i % 3 !== 1)).size).toBeGreaterThan(1);
  for (const backend of ['host_only', 'vanilla', 'accel', 'dma_local']) {
    const r = compileModel(g, { backend, registry, ...(backend === 'accel' || backend === 'dma_local' ? { pools: pools(backend), ioInWorkspace: true } : {}) });
    expectRunsByteExact(r, inputs, expected, ['-O0']);
  }
});
