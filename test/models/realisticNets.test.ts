/**
 * Whole realistic networks end to end (test/models/realisticNets.ts), float32 and int8 as the
 * converter emits them: LiteRT agrees with the interpreter operator by operator (int8 within
 * 1 LSB, float within a small tolerance) and on the float outputs; every bundled backend
 * compiles each network and the generated C (strict gcc) gives the interpreter's bytes; and
 * host-only with model I/O in the workspace, no operator needs scratch beyond the graph
 * tensors and the plan reaches the tensor-level bound (what TFLite Micro's planner counts).
 */
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { MAIN_FUNCTION } from '../../src/ir/graph/types';
import { expectRunsByteExact } from '../e2e/harness';
import { Closeness, elementsOf, firstMismatch, LiteRtResult, runLiteRtBatch } from '../oracle/litert';
import { layerByLayer } from './liteRtLayers';
import { buildNet, NetMode } from './netBuilder';
import { allNetworks, floats, mobilenetV3SmallOf, NETWORKS, resDenseEffNetOf } from './realisticNets';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { BACKEND_SETUPS, bundledBackendRegistry } from './bundledBackends';

const registry = bundledBackendRegistry();

const SETUPS = BACKEND_SETUPS;

const MODES: readonly NetMode[] = ['float32', 'int8'];
const CASES = NETWORKS.flatMap((n) => MODES.map((mode) => ({ ...n, mode, id: `${n.name} (${mode})` })));
const LITERT_CASES = CASES.filter((c) => c.litert !== false);

/** Whole networks: the int8 ones stay within 1 LSB of LiteRT at their outputs too (seen: 0 or 1). */
const OUTPUT_TOLERANCE: Closeness = { lsb: 1, rel: 1e-4, abs: 1e-5 };
/** The float outputs of an int8 network are dequantized int8: 1 LSB is about its scale (below 0.01 here). */
const INT8_NET_OUTPUT_TOLERANCE: Closeness = { lsb: 1, rel: 1e-4, abs: 1e-2 };

describe('realistic networks end to end', () => {
  const built = new Map(CASES.map((c) => [c.id, buildNet(c.net, c.mode, c.inputs(), 17)]));
  let lite: Map<string, { every: LiteRtResult; plain: LiteRtResult }>;
  beforeAll(() => {
    const jobs = LITERT_CASES.flatMap((c) => {
      const b = built.get(c.id)!;
      return [
        { model: b.everyActivation, inputs: b.inputs },
        { model: b.model, inputs: b.inputs },
      ];
    });
    const results = runLiteRtBatch(jobs);
    lite = new Map(LITERT_CASES.map((c, i) => [c.id, { every: results[2 * i], plain: results[2 * i + 1] }]));
  });

  describe.each(LITERT_CASES.map((c) => [c.id, c] as const))('%s against LiteRT', (id, c) => {
    const b = built.get(id)!;
    const graph = importTflite(b.model, `${c.name}.tflite`);
    const expected = interpret(graph, b.inputs);

    it('agrees with LiteRT operator by operator', () => {
      const { failures, compared, calls } = layerByLayer(b, lite.get(id)!.every);
      expect(failures).toEqual([]);
      // Nearly every operator is checked (not a vacuous pass).
      expect(compared).toBeGreaterThanOrEqual(Math.ceil(calls * 0.9));
    });

    it('gives LiteRT\'s outputs within tolerance, and varied outputs', () => {
      const r = lite.get(id)!.plain;
      if ('error' in r) throw new Error(r.error);
      const outs = graph.functions.get(MAIN_FUNCTION)!.outputs.map((o) => graph.functions.get(MAIN_FUNCTION)!.nodes.find((n) => n.name === o)!.type.dtype);
      expect(r.outputs.length).toBe(expected.length);
      outs.forEach((dtype, k) => {
        expect(r.outputs[k].dtype).toBe(dtype);
        // Indices (ARG_MAX) exactly.
        const tolerance = dtype === 'int32' ? { lsb: 0 } : c.mode === 'int8' ? INT8_NET_OUTPUT_TOLERANCE : OUTPUT_TOLERANCE;
        expect(firstMismatch(dtype, expected[k], r.outputs[k].data, tolerance)).toBeNull();
        // A network whose output saturated would check little.
        expect(new Set(elementsOf(dtype, expected[k])).size).toBeGreaterThan(2);
      });
    });
  });

  describe.each(CASES.map((c) => [c.id, c] as const))('%s', (id, c) => {
    const graph = importTflite(built.get(id)!.model, `${c.name}.tflite`);

    it('plans host-only with I/O in the workspace at the tensor-level bound (the plan\'s own with operator scratch)', () => {
      const result = compileModel(graph, { backend: 'host_only', registry, ioInWorkspace: true, timeBudgetMs: 200 });
      const ws = result.report.workspace;
      expect(ws.tensorLowerBoundBytes).not.toBeNull();
      if (c.scratch) {
        // Operator scratch on top of the graph tensors: the plan reaches its own bound.
        expect(ws.planLowerBoundBytes).toBeGreaterThan(ws.tensorLowerBoundBytes!);
        expect(ws.sizeBytes).toBeLessThanOrEqual(ws.planLowerBoundBytes);
      } else {
        // No operator scratch beyond the graph tensors (the plan's own bound is at most the tensor-level one) ...
        expect(ws.planLowerBoundBytes).toBeLessThanOrEqual(ws.tensorLowerBoundBytes!);
        // ... and the plan reaches the tensor-level bound.
        expect(ws.sizeBytes).toBeLessThanOrEqual(ws.tensorLowerBoundBytes!);
      }
    });
  });

  /** All networks in one model per form: one strict gcc build per backend and form. */
  describe.each(MODES.map((m) => [m] as const))('all networks side by side (%s)', (mode) => {
    const all = allNetworks(NETWORKS);
    const b = buildNet(all.net, mode, all.inputs(), 17);
    const graph = importTflite(b.model, 'all_networks.tflite');
    const expected = interpret(graph, b.inputs);

    it.each(Object.keys(SETUPS))('compiles for %s and runs byte-exact under gcc', (backend) => {
      const s = SETUPS[backend];
      const result = compileModel(graph, { backend, registry, pools: s.pools?.(), ioInWorkspace: s.ioInWorkspace, timeBudgetMs: 300 });
      expect(result.access.violations).toEqual([]);
      const offloaded = [...result.partitioned.functions.values()].filter((f) => f.attrs.Compiler === backend).length;
      // The bundled accelerators take int8 operators only.
      if (backend !== 'host_only' && mode === 'int8') expect(offloaded).toBeGreaterThan(0);
      // gcc -O2 takes seconds on this much generated C: one optimised build (int8, host only), the rest -O0.
      expectRunsByteExact(result, b.inputs, expected, mode === 'int8' && backend === 'host_only' ? [] : ['-O0']);
    });
  });

  /**
   * The convolutional networks at other (odd) input sizes, where SAME padding is uneven and
   * strided VALID convs drop edges: LiteRT at the output, and the lowered TIR byte-exact with
   * the interpreter (no gcc: cheap).
   */
  it('keeps agreeing at odd input sizes (LiteRT at the output, TIR evaluator byte-exact)', () => {
    const sweep = [7, 9, 11, 15].flatMap((size) =>
      MODES.flatMap((mode) =>
        [mobilenetV3SmallOf, resDenseEffNetOf].map((of) => ({ id: `${of.name} ${size} ${mode}`, built: buildNet(of(size), mode, { values: [floats([1, size, size, 3], size)] }, size * 3) })),
      ),
    );
    const results = runLiteRtBatch(sweep.map((c) => ({ model: c.built.model, inputs: c.built.inputs })));
    const failures: string[] = [];
    sweep.forEach((c, i) => {
      const r = results[i];
      if ('error' in r) throw new Error(`${c.id}: LiteRT: ${r.error}`);
      const graph = importTflite(c.built.model, `${c.id}.tflite`);
      const mine = interpret(graph, c.built.inputs);
      const m = firstMismatch(r.outputs[0].dtype, mine[0], r.outputs[0].data, OUTPUT_TOLERANCE);
      if (m) failures.push(`${c.id}: LiteRT ${m}`);
      const lowered = runMain(lowerForCpu(graph), c.built.inputs, { externs: LOWERING_EXTERN_SIMULATIONS });
      if (!Buffer.from(lowered[0]).equals(Buffer.from(mine[0]))) failures.push(`${c.id}: TIR evaluator differs from the interpreter`);
    });
    expect(failures).toEqual([]);
  });
});
