/**
 * Whole networks as applications and on the microcontroller target: two int8 networks (the
 * MobileNetV3-small-like classifier and the SSD-style detector with its float custom
 * post-processing) compiled together for accel, sequential (one shared workspace, every model
 * from offset 0) and `--concurrent` (disjoint parts), built once and run via verifyApplication
 * under gcc with every output bit-exact; and `uma-ts run --target cortex-m55` (arm-none-eabi-gcc,
 * QEMU) of the int8 MobileNet on accel, each pool in its own section, outputs equal, and of
 * every suite network per form as one application.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { memoryIO } from '../../src/cli/io';
import { main } from '../../src/cli/main';
import { importTflite } from '../../src/frontend/tflite';
import { MAIN_FUNCTION } from '../../src/ir/graph/types';
import { listPlanningAlgorithms } from '../../src/usmp/algo/registry';
import { verifyApplication } from '../../src/verify';
import { CONVERTER_NETWORKS } from './converterNets';
import { buildNet, BuiltNet } from './netBuilder';
import { floats, mobilenetV3Small, NETWORKS } from './realisticNets';
import { ssdDetectorOf } from './ssdNet';

const mobilenet = (): BuiltNet => buildNet(mobilenetV3Small, 'int8', { values: [floats([1, 16, 16, 3], 1)] }, 17);
const ssd = (): BuiltNet => buildNet(ssdDetectorOf(false), 'int8', { values: [floats([1, 16, 16, 3], 31)] }, 23);

describe('whole int8 networks as one application (accel)', () => {
  const nets = [mobilenet(), ssd()];
  const models = nets.map((b, k) => ({ model: importTflite(b.model, `net${k}.tflite`), moduleName: ['mnv3', 'ssd'][k] }));

  it.each([[false], [true]])('concurrent %s: shared pools laid out as asked, every output bit-exact', (concurrent) => {
    const report = verifyApplication(models, { backend: 'accel', compile: { concurrent }, invocations: nets.map((b) => [b.inputs]) });
    const problems = report.models.flatMap((m) => [...(m.failure ? [`${m.moduleName}: ${m.failure}`] : []), ...m.comparisons.filter((c) => !c.equal || c.maxAbsDiff !== 0).map((c) => `${m.moduleName} ${c.name}: ${c.maxAbsDiff}`)]);
    expect(problems).toEqual([]);
    expect(report.models.map((m) => m.comparisons.length)).toEqual([1, 4]);
    expect(report.ok).toBe(true);
    const app = report.application;
    expect(app.concurrent).toBe(concurrent);
    // Both models use the shared workspace pools (accel's act_mem at least).
    const shared = app.sharedPools.filter((p) => p.perModel.mnv3 > 0 && p.perModel.ssd > 0);
    expect(shared.length).toBeGreaterThan(0);
    for (const p of app.sharedPools) {
      const needs = Object.values(p.perModel);
      if (!concurrent) {
        // Sequential: one workspace reused, each model from offset 0, the pool as large as the larger need.
        expect(Object.values(p.offsets).every((o) => o === 0)).toBe(true);
        expect(p.sizeBytes).toBe(Math.max(...needs));
      } else {
        // Concurrent: parts disjoint, the pool holding them all.
        const parts = Object.entries(p.offsets).map(([m, o]) => [o, o + p.perModel[m]] as const).sort((a, b) => a[0] - b[0]);
        parts.slice(1).forEach((part, i) => expect(part[0]).toBeGreaterThanOrEqual(parts[i][1]));
        expect(p.sizeBytes).toBeGreaterThanOrEqual(parts[parts.length - 1][1]);
        expect(p.sizeBytes).toBeGreaterThanOrEqual(needs.reduce((a, b) => a + b, 0));
      }
    }
  }, 300000);
});

/**
 * Three int8 networks (MobileNet, the SSD detector with regular NMS, the DS-CNN keyword
 * spotter) as one dma_local application (two workspace pools), with every planning algorithm,
 * sequential and concurrent: bit-exact under gcc, and auto's shared pools at or below the rest.
 */
describe('three whole networks on dma_local with every planning algorithm', () => {
  const kws = CONVERTER_NETWORKS.find((n) => n.name === 'kws')!;
  const nets = [mobilenet(), buildNet(ssdDetectorOf(true), 'int8', { values: [floats([1, 16, 16, 3], 31)] }, 23), buildNet(kws.net, 'int8', kws.inputs(), 17)];
  const models = nets.map((b, k) => ({ model: importTflite(b.model, `net${k}.tflite`), moduleName: ['mnv3', 'ssd', 'kws'][k] }));

  it.each([[false], [true]])('concurrent %s', (concurrent) => {
    const totals = new Map<string, number>();
    for (const algorithm of listPlanningAlgorithms()) {
      const report = verifyApplication(models, { backend: 'dma_local', compile: { concurrent, algorithm }, invocations: nets.map((b) => [b.inputs]) });
      const bad = report.models.flatMap((m) => [...(m.failure ? [m.failure] : []), ...m.comparisons.filter((c) => !c.equal || c.maxAbsDiff !== 0).map((c) => `${m.moduleName} ${c.name}`)]);
      expect({ algorithm, bad, ok: report.ok }).toEqual({ algorithm, bad: [], ok: true });
      expect(report.models.map((m) => m.comparisons.length)).toEqual([1, 4, 1]);
      const pools = report.application.sharedPools;
      expect(pools.map((p) => p.name).sort()).toEqual(['local_mem', 'sram']);
      for (const p of pools) expect(Object.values(p.offsets).some((o) => o > 0)).toBe(concurrent);
      totals.set(algorithm, pools.reduce((a, p) => a + p.sizeBytes, 0));
    }
    for (const [algorithm, total] of totals) expect({ algorithm, autoAtOrBelow: totals.get('auto')! <= total }).toEqual({ algorithm, autoAtOrBelow: true });
  }, 600000);
});

describe('uma-ts run --target cortex-m55 on a whole int8 network', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-nets-m55-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('MobileNetV3-small (int8) on accel under QEMU: outputs equal, each pool in its own section', async () => {
    const b = mobilenet();
    const file = path.join(dir, 'mnv3.tflite');
    fs.writeFileSync(file, b.model);
    const input = importTflite(b.model, 'mnv3.tflite').functions.get(MAIN_FUNCTION)!.params[0];
    const bin = path.join(dir, 'image.bin');
    fs.writeFileSync(bin, b.inputs[0]);
    const io = memoryIO();
    const code = await main(['node', 'uma-ts', 'run', file, '--backend', 'accel', '--target', 'cortex-m55', '--input', `${input}=${bin}`, '--json'], io);
    const err = io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n');
    expect(err).not.toMatch(/error:/);
    expect(code).toBe(0);
    const json = JSON.parse(io.stdout.join('\n'));
    expect(json.ok).toBe(true);
    expect(json.target).toBe('cortex-m55');
    expect(json.outputs.map((o: { equal: boolean; maxAbsDiff: number }) => [o.equal, o.maxAbsDiff])).toEqual([[true, 0]]);
    const pools = json.sections.sections.filter((s: { pool?: string }) => s.pool !== undefined);
    expect(pools.map((s: { pool: string }) => s.pool).sort()).toEqual(['act_mem', 'l2_mem', 'wei_mem']);
    expect(new Set(pools.map((s: { address: number }) => s.address >>> 24)).size).toBe(3);
  }, 600000);

  it('MobileNetV3-small and the SSD detector (float post-processing on newlib) as one --concurrent application under QEMU', async () => {
    const built = { mnv3: mobilenet(), ssd: ssd() };
    const args: string[] = [];
    for (const [name, b] of Object.entries(built)) {
      const file = path.join(dir, `${name}_app.tflite`);
      fs.writeFileSync(file, b.model);
      args.push(file);
      const input = importTflite(b.model, file).functions.get(MAIN_FUNCTION)!.params[0];
      const bin = path.join(dir, `${name}_in.bin`);
      fs.writeFileSync(bin, b.inputs[0]);
      args.push('--input', `${name}:${input}=${bin}`);
    }
    const io = memoryIO();
    const code = await main(['node', 'uma-ts', 'run', ...args, '--module-name', 'mnv3,ssd', '--backend', 'accel', '--target', 'cortex-m55', '--concurrent', '--json'], io);
    const err = io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n');
    expect(err).not.toMatch(/error:/);
    expect(code).toBe(0);
    const json = JSON.parse(io.stdout.join('\n'));
    expect(json.ok).toBe(true);
    const rows = json.models.map((m: { outputs: { equal: boolean; maxAbsDiff: number }[] }) => m.outputs.map((o) => [o.equal, o.maxAbsDiff]));
    expect(rows).toEqual([[[true, 0]], [[true, 0], [true, 0], [true, 0], [true, 0]]]);
  }, 600000);

  /**
   * Every network of the suites in one form (the realistic ones LiteRT runs and the SSD
   * detector with regular NMS in float32/int8; the converter-style ones in each of their forms)
   * as one application on accel under QEMU: float32 (the Cortex-M55's FPU, newlib's libm), int8
   * (offloaded backbones) and 16x8 (`--concurrent`), every output bit-exact with the interpreter.
   */
  it.each([['float32'], ['int8'], ['int16']] as const)('every suite network (%s) as one application under QEMU, bit-exact', async (mode) => {
    const realistic = mode === 'int16' ? [] : [{ name: 'ssd', net: ssdDetectorOf(true), inputs: () => ({ values: [floats([1, 16, 16, 3], 31)] }) }, ...NETWORKS.filter((n) => n.litert !== false)];
    const nets = [...realistic, ...CONVERTER_NETWORKS.filter((n) => n.modes.includes(mode))];
    const args: string[] = [];
    nets.forEach((n) => {
      const b = buildNet(n.net, mode, n.inputs(), 17);
      const file = path.join(dir, `${n.name}_${mode}.tflite`);
      fs.writeFileSync(file, b.model);
      args.push(file);
    });
    const modules = nets.map((n) => n.name.replace(/_/g, ''));
    const io = memoryIO();
    const code = await main(['node', 'uma-ts', 'run', ...args, '--module-name', modules.join(','), '--backend', 'accel', '--target', 'cortex-m55', ...(mode === 'int16' ? ['--concurrent'] : []), '--json'], io);
    expect(io.stderr.filter((l) => !l.startsWith('[uma-ts]')).join('\n')).not.toMatch(/error:/);
    expect(code).toBe(0);
    const json = JSON.parse(io.stdout.join('\n'));
    expect(json.ok).toBe(true);
    const differing = json.models.flatMap((m: { moduleName: string; outputs: { name: string; equal: boolean; maxAbsDiff: number }[] }) =>
      m.outputs.filter((o) => !o.equal || o.maxAbsDiff !== 0).map((o) => `${m.moduleName} ${o.name}`),
    );
    expect(differing).toEqual([]);
    expect(json.models.map((m: { moduleName: string }) => m.moduleName)).toEqual(modules);
    expect(json.models.flatMap((m: { outputs: unknown[] }) => m.outputs).length).toBeGreaterThanOrEqual(nets.length + 5);
  }, 600000);
});
