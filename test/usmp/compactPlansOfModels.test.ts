/**
 * A compiled model's buffers as extractBufferInfo hands them to the planner (conflicts kept as
 * live ranges and the constants' clique, compactConflicts.ts) against the same buffers with
 * their lists written out (a spread reads each list; the copies are plain BufferInfos, so every
 * consumer takes the lists' path): every registered algorithm must give the same plan, and the
 * bounds must agree. The property test (compactConflicts.test.ts) draws one constant pool; here
 * real extractions meet what it does not draw: constants spread over two constant pools, the
 * first size-limited (the verifier's per-pool clique check, the bounds of a clique over two
 * pools), zero-size tensors (planWithoutZeroSize's restricted part), identical constants (one
 * planned for both), model I/O in the workspace, and the accel backend's pools and pins.
 */
import * as fs from 'fs';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { compactPartOf } from '../../src/usmp/compactConflicts';
import { lowerBoundOfBuffers, pinnedPoolsBound } from '../../src/usmp/conflicts';
import { getPlanningAlgorithm, registerPlanningAlgorithm } from '../../src/usmp/algo/registry';
import { parsePoolsJson } from '../../src/usmp/pools';
import { BufferInfo, BufferPlan } from '../../src/usmp/types';
import { verifyPlan } from '../../src/usmp/verify';
import { bundledBackendRegistry } from '../models/bundledBackends';

const registry = bundledBackendRegistry();
const ALGORITHMS = ['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb'];

/** Zero-size slices and an empty constant, two identical constants, a tensor live across the model. */
function oddModel(): Uint8Array {
  const w = new TfliteWriter('odd');
  const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'float32' });
  const begin = w.addConstant({ name: 'begin', shape: [2], dtype: 'int32', data: [0, 0] });
  const size = w.addConstant({ name: 'size', shape: [2], dtype: 'int32', data: [1, 0] });
  const z = w.addTensor({ name: 'z', shape: [1, 0], dtype: 'float32' });
  w.addOperator({ op: 'SLICE', inputs: [x, begin, size], outputs: [z] });
  const empty = w.addConstant({ name: 'empty', shape: [1, 0], dtype: 'float32', data: [] });
  const z2 = w.addTensor({ name: 'z2', shape: [1, 0], dtype: 'float32' });
  w.addOperator({ op: 'ADD', inputs: [z, empty], outputs: [z2], options: tfliteOptions.add() });
  let y = x;
  for (let k = 0; k < 6; k++) {
    // k and k + 3 add the same bytes: identical constants.
    const c = w.addConstant({ name: `c${k}`, shape: [1, 4], dtype: 'float32', data: [k % 3, -(k % 3), 0.5, 1] });
    const t = w.addTensor({ name: `t${k}`, shape: [1, 4], dtype: 'float32' });
    w.addOperator({ op: k % 2 === 0 ? 'ADD' : 'MUL', inputs: [y, c], outputs: [t], options: k % 2 === 0 ? tfliteOptions.add() : tfliteOptions.mul() });
    y = t;
  }
  const cat = w.addTensor({ name: 'cat', shape: [1, 8], dtype: 'float32' });
  w.addOperator({ op: 'CONCATENATION', inputs: [z2, y, z, x], outputs: [cat], options: tfliteOptions.concatenation(1) });
  w.markOutput(cat);
  return w.finish();
}

/** Two pools of each kind, the first of each size-limited (`limit` bytes, half for constants). */
function limitedPools(limit: number) {
  const text = JSON.stringify({
    workspacePools: [
      { name: 'fast', targets: { c: 'rw', vanilla: 'rw' }, sizeHintBytes: limit, alignment: 16 },
      { name: 'slow', targets: { c: 'rw', vanilla: 'rw' }, alignment: 4 },
    ],
    constantPools: [
      { name: 'cfast', targets: { c: 'ro', vanilla: 'ro' }, sizeHintBytes: limit / 2, alignment: 8 },
      { name: 'cslow', targets: { c: 'ro', vanilla: 'ro' } },
    ],
  });
  return parsePoolsJson(text, 'pools.json').map((p) => ({ ...p, internal: false }));
}

const accelPools = () => parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools').map((p) => ({ ...p, internal: false }));

const outcome = (plan: () => BufferPlan): string => {
  try {
    return JSON.stringify([...plan()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  } catch (e) {
    return `error: ${(e as Error).message}`;
  }
};

/** What the comparing planner saw, per compile. */
interface Seen {
  compact: boolean;
  count: number;
  constantPools: number;
  zeroSize: number;
  mismatches: string[];
}
let seen: Seen[] = [];

// Plans the compact buffers and their listed copies with every algorithm; hands back auto's plan.
registerPlanningAlgorithm('pv25_compact_vs_lists', (buffers, memoryPressure) => {
  const listed: BufferInfo[] = buffers.map((b) => ({ ...b, conflicts: [...b.conflicts] }));
  const mismatches: string[] = [];
  for (const algorithm of ALGORITHMS) {
    const planner = getPlanningAlgorithm(algorithm);
    const a = outcome(() => planner(buffers, memoryPressure, { seed: 5 }));
    const b = outcome(() => planner(listed, memoryPressure, { seed: 5 }));
    if (a !== b) mismatches.push(`${algorithm}: compact ${a.slice(0, 300)} / lists ${b.slice(0, 300)}`);
  }
  if (lowerBoundOfBuffers(buffers) !== lowerBoundOfBuffers(listed)) mismatches.push('lowerBoundOfBuffers');
  if (pinnedPoolsBound(buffers, true) !== pinnedPoolsBound(listed, true)) mismatches.push('pinnedPoolsBound');
  seen.push({
    compact: compactPartOf(buffers) !== undefined,
    count: buffers.length,
    constantPools: new Set(buffers.filter((b) => b.kind === 'constant').flatMap((b) => b.poolCandidates.map((p) => p.name))).size,
    zeroSize: buffers.filter((b) => b.sizeBytes === 0).length,
    mismatches,
  });
  const plan = getPlanningAlgorithm('auto')(buffers, memoryPressure, { seed: 5 });
  verifyPlan(listed, plan);
  return plan;
});

const MODELS: readonly (readonly [string, () => Uint8Array])[] = [
  ['odd (zero-size, identical constants)', oddModel],
  ['micro_speech_quantized', () => fs.readFileSync('models/micro_speech_quantized.tflite')],
  ['ad01_int8', () => fs.readFileSync('models/ad01_int8.tflite')],
];

describe('a compiled model plans the same from its compact conflicts as from their lists', () => {
  describe.each(MODELS)('%s', (_name, bytes) => {
    const graph = importTflite(bytes(), 'model.tflite');

    it.each([
      ['vanilla, two limited pools of each kind', 'vanilla', false, () => limitedPools(1024)],
      ['vanilla, two limited pools of each kind, I/O in the workspace', 'vanilla', true, () => limitedPools(256)],
      ['accel pools, I/O in the workspace', 'accel', true, accelPools],
    ] as const)('%s', (_config, backend, ioInWorkspace, pools) => {
      seen = [];
      const r = compileModel(graph, { backend, registry, algorithm: 'pv25_compact_vs_lists', ioInWorkspace, pools: pools() });
      verifyPlan(r.usmp.buffers, r.usmp.plan, r.usmp.pools.map((p) => p.pool));
      expect(seen).toHaveLength(1);
      // The planner was handed the compact set (else this compares lists with lists).
      expect(seen[0].compact).toBe(true);
      expect(seen[0].mismatches).toEqual([]);
      if (backend === 'vanilla') expect(seen[0].constantPools).toBe(2);
    });
  });

  it('the odd model has the zero-size buffers and the shared constant it is meant to have', () => {
    seen = [];
    const r = compileModel(importTflite(oddModel(), 'odd.tflite'), { backend: 'vanilla', registry, algorithm: 'pv25_compact_vs_lists', ioInWorkspace: true, pools: limitedPools(256) });
    expect(seen[0].zeroSize).toBeGreaterThanOrEqual(2);
    expect(r.usmp.sameAs?.size ?? 0).toBeGreaterThanOrEqual(1);
  });
});
