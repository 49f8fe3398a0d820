/**
 * A whole SSD-style detector (test/models/ssdNet.ts), float32 and int8 (int8 backbone and
 * heads, DEQUANTIZE, the float custom TFLite_Detection_PostProcess), fast and regular NMS:
 * LiteRT agrees operator by operator and at the four outputs; compiled host-only and for the
 * accel backend (I/O in the workspace), the generated C under strict gcc gives the
 * interpreter's bytes, and the accel build offloads the int8 backbone.
 */
import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { parsePoolsJson } from '../../src/usmp/pools';
import { expectRunsByteExact } from '../e2e/harness';
import { firstMismatch, runLiteRtBatch } from '../oracle/litert';
import { layerByLayer } from './liteRtLayers';
import { buildNet, NetMode } from './netBuilder';
import { floats } from './realisticNets';
import { SSD_OPTIONS, ssdDetectorOf } from './ssdNet';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(AccelBackend);

const f32 = (b: Uint8Array): number[] => Array.from(new Float32Array(b.slice().buffer));
const ROWS = SSD_OPTIONS.max_detections!;

const CASES = (['float32', 'int8'] as NetMode[]).flatMap((mode) =>
  [false, true].map((regular) => ({ mode, regular, id: `${mode}, ${regular ? 'regular' : 'fast'} NMS` })),
);

describe('SSD-style detector end to end', () => {
  const built = new Map(CASES.map((c) => [c.id, buildNet(ssdDetectorOf(c.regular), c.mode, { values: [floats([1, 16, 16, 3], 31)] }, 23)]));
  let lite: ReturnType<typeof runLiteRtBatch>;
  beforeAll(() => {
    lite = runLiteRtBatch(CASES.flatMap((c) => [built.get(c.id)!].flatMap((b) => [{ model: b.everyActivation, inputs: b.inputs }, { model: b.model, inputs: b.inputs }])));
  });

  describe.each(CASES.map((c, i) => [c.id, c, i] as const))('%s', (id, c, i) => {
    const b = built.get(id)!;
    const graph = importTflite(b.model, 'ssd.tflite');
    const expected = interpret(graph, b.inputs);

    it('detects a full set of boxes (not a vacuous run)', () => {
      expect(expected).toHaveLength(4);
      expect(f32(expected[3])).toEqual([ROWS]);
      const scores = f32(expected[2]);
      // Best first, all above the threshold, not all one value (int8 scores step by 1/256: ties happen).
      scores.forEach((s, k) => expect(s).toBeLessThanOrEqual(k === 0 ? 1 : scores[k - 1]));
      expect(scores[ROWS - 1]).toBeGreaterThan(SSD_OPTIONS.nms_score_threshold!);
      expect(new Set(scores).size).toBeGreaterThan(2);
      expect(new Set(f32(expected[0])).size).toBeGreaterThan(ROWS);
      // Both foreground classes are found.
      expect(new Set(f32(expected[1])).size).toBe(2);
    });

    it('agrees with LiteRT operator by operator (the custom operator on LiteRT\'s own inputs) and at the outputs', () => {
      const every = lite[2 * i];
      const { failures, compared, calls } = layerByLayer(b, every);
      expect(failures).toEqual([]);
      // All but the custom operator, which imports as one packed call and four slices of it
      // (internal tensors LiteRT does not have): it is compared at the model's outputs below.
      expect(compared).toBe(calls - 5);
      const plain = lite[2 * i + 1];
      if ('error' in plain) throw new Error(plain.error);
      expect(plain.outputs).toHaveLength(4);
      // Every row is filled (count = rows), so TFLite's fast path leaves no row unwritten.
      const tol = c.mode === 'float32' ? { rel: 1e-4, abs: 1e-5 } : { rel: 1e-4, abs: 2e-2 };
      expected.forEach((e, k) => expect(firstMismatch('float32', e, plain.outputs[k].data, k === 1 || k === 3 ? {} : tol)).toBeNull());
    });

    it('runs byte-exact under gcc host-only and on the accel backend', () => {
      const host = compileModel(graph, { backend: 'host_only', registry, timeBudgetMs: 300 });
      // Only the kernels' register accumulators stay out of the plan (the operator's scratch is planned).
      expect(host.usmp.unplanned.filter((u) => !/storage scope 'local'/.test(u.reason))).toEqual([]);
      expect(host.usmp.buffers.filter((u) => /_scratch_(f32|i32)/.test(u.name))).toHaveLength(2);
      expectRunsByteExact(host, b.inputs, expected, ['-O0']);
      const pools = parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools').map((p) => ({ ...p, internal: false }));
      const accel = compileModel(graph, { backend: 'accel', registry, pools, ioInWorkspace: true, timeBudgetMs: 300 });
      expect(accel.access.violations).toEqual([]);
      const offloaded = [...accel.partitioned.functions.values()].filter((f) => f.attrs.Compiler === 'accel').length;
      if (c.mode === 'int8') expect(offloaded).toBeGreaterThan(0);
      expectRunsByteExact(accel, b.inputs, expected, ['-O0']);
    });
  });
});
