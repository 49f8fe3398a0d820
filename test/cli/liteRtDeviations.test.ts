/**
 * A quantized RELU6 whose output quantization differs from its input's computes as TFLite
 * Micro's kernel does (the input codes clamped, not rescaled), which is not what TensorFlow Lite
 * computes: `compile` warns of it (stderr and report.json) and `inspect` lists it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { liteRtDeviations } from '../../src/driver/liteRtDeviations';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter } from '../../src/frontend/tflite/writer';
import { elementwiseCases } from '../ops/elementwiseCases';
import { runCli } from '../helpers/cli';

/** One int8 RELU6 from the model input to its output, quantized as `out` (the input's when undefined). */
function relu6Model(out?: { scale: number; zeroPoint: number }): Uint8Array {
  const w = new TfliteWriter();
  const inQuant = { scale: [0.05], zeroPoint: [-10] };
  const x = w.addInput({ name: 'x', shape: [1, 8], dtype: 'int8', quant: inQuant });
  const quant = out ? { scale: [out.scale], zeroPoint: [out.zeroPoint] } : inQuant;
  const y = w.addTensor({ name: 'clamped', shape: [1, 8], dtype: 'int8', quant });
  w.addOperator({ op: 'RELU6', inputs: [x], outputs: [y] });
  w.markOutput(y);
  return w.finish();
}

describe('outputs that differ from TensorFlow Lite (liteRtDeviations)', () => {
  it('names a quantized RELU6 whose output quantization is not its input one, with both quantizations', () => {
    const warnings = liteRtDeviations(importTflite(relu6Model({ scale: 6 / 255, zeroPoint: -128 }), 'relu6.tflite'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("RELU6 output 'clamped' (int8, scale 0.02352941, zero point -128)");
    expect(warnings[0]).toContain("input 'x' (int8, scale 0.05, zero point -10)");
    expect(warnings[0]).toContain("differs from TensorFlow Lite's");
  });

  it('says nothing where RELU6 keeps its input quantization, or is float', () => {
    expect(liteRtDeviations(importTflite(relu6Model(), 'relu6.tflite'))).toEqual([]);
    // float32, and int8/int16 quantized as their input.
    const agreeing = elementwiseCases().filter((c) => c.label.startsWith('relu6') && !c.label.includes('unlike'));
    expect(agreeing.length).toBeGreaterThanOrEqual(3);
    for (const c of agreeing) expect(liteRtDeviations(c.module)).toEqual([]);
  });

  it('covers int16 and a differing zero point alone', () => {
    const int16 = elementwiseCases().find((c) => c.label === 'relu6 int16 output scale unlike the input')!;
    expect(liteRtDeviations(int16.module)).toEqual([expect.stringContaining('int16, scale 0.0002')]);
    expect(liteRtDeviations(importTflite(relu6Model({ scale: 0.05, zeroPoint: -11 }), 'relu6.tflite'))).toHaveLength(1);
  });
});

describe('uma-ts compile and inspect on a RELU6 unlike TensorFlow Lite', () => {
  let dir: string;
  let model: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-relu6-warning-'));
    model = path.join(dir, 'relu6.tflite');
    fs.writeFileSync(model, relu6Model({ scale: 6 / 255, zeroPoint: -128 }));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('compile succeeds, warns on stderr and in report.json', async () => {
    const out = path.join(dir, 'out');
    const { code, err } = await runCli(['compile', model, '--backend', 'accel', '--out', out]);
    expect(code).toBe(0);
    expect(err).toMatch(/warning: RELU6 output 'clamped' .* differs from TensorFlow Lite's/);
    const report = JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8'));
    expect(report.warnings).toEqual([expect.stringContaining("RELU6 output 'clamped'")]);
  });

  it('inspect lists it', async () => {
    const { code, out } = await runCli(['inspect', model]);
    expect(code).toBe(0);
    expect(out).toContain("outputs that differ from TensorFlow Lite's (1):\n  RELU6 output 'clamped'");
  });

  it('a RELU6 with its input quantization gets no warning', async () => {
    const same = path.join(dir, 'same.tflite');
    fs.writeFileSync(same, relu6Model());
    const { code, err } = await runCli(['compile', same, '--backend', 'accel', '--out', path.join(dir, 'same-out')]);
    expect(code).toBe(0);
    expect(err).not.toContain('warning:');
    expect((await runCli(['inspect', same])).out).not.toContain('differ from TensorFlow Lite');
  });
});
