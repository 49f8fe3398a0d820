/**
 * The planner on whole networks: every registered planning algorithm (`--algorithm`) on each
 * network of the three suites (realistic, converter-style, SSD detector) in each of its forms,
 * host-only and for the accel backend (its pools, model I/O in the workspace): each plan
 * verifies, the planned TIR (pools filled with garbage first) gives the interpreter's bytes,
 * and `auto`'s workspace is at or below every other algorithm's.
 */
import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { listPlanningAlgorithms } from '../../src/usmp/algo/registry';
import { parsePoolsJson } from '../../src/usmp/pools';
import { verifyPlan } from '../../src/usmp/verify';
import { CONVERTER_NETWORKS } from './converterNets';
import { buildNet, NetInputs, NetMode, Network } from './netBuilder';
import { floats, NETWORKS } from './realisticNets';
import { ssdDetectorOf } from './ssdNet';

class HostOnlyBackend extends UmaBackend {
  readonly targetName = 'host_only';
}

const registry = new BackendRegistry();
registry.register(HostOnlyBackend);
registry.register(AccelBackend);

const ALGORITHMS = listPlanningAlgorithms();

interface Case {
  readonly id: string;
  readonly net: Network;
  readonly mode: NetMode;
  readonly inputs: () => NetInputs;
}

const CASES: Case[] = [
  ...NETWORKS.flatMap((n) => (['float32', 'int8'] as NetMode[]).map((mode) => ({ id: `${n.name} (${mode})`, net: n.net, mode, inputs: n.inputs }))),
  ...CONVERTER_NETWORKS.flatMap((n) => n.modes.map((mode) => ({ id: `${n.name} (${mode})`, net: n.net, mode, inputs: n.inputs }))),
  ...(['float32', 'int8'] as NetMode[]).map((mode) => ({ id: `ssd_detector (${mode})`, net: ssdDetectorOf(false), mode, inputs: () => ({ values: [floats([1, 16, 16, 3], 31)] }) })),
];

const accelPools = () => parsePoolsJson(fs.readFileSync('backends/accel/pools.json', 'utf8'), 'accel pools').map((p) => ({ ...p, internal: false }));

describe('every planning algorithm on whole networks', () => {
  it('has the algorithms to compare', () => {
    expect(ALGORITHMS).toEqual(expect.arrayContaining(['auto', 'greedy_by_size', 'greedy_by_conflicts', 'hill_climb']));
  });

  describe.each(CASES.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const b = buildNet(c.net, c.mode, c.inputs(), 17);
    const graph = importTflite(b.model, 'net.tflite');
    const expected = interpret(graph, b.inputs);

    it.each([
      ['host_only', 'host_only', false],
      ['accel pools, I/O in the workspace', 'accel', true],
    ] as const)('%s: plans verify, run right, auto at or below the rest', (_s, backend, ioInWorkspace) => {
      const sizes = new Map<string, number>();
      for (const algorithm of ALGORITHMS) {
        const r = compileModel(graph, { backend, registry, algorithm, ioInWorkspace, pools: backend === 'accel' ? accelPools() : undefined, timeBudgetMs: 200 });
        expect(r.usmp.algorithm).toBe(algorithm);
        verifyPlan(r.usmp.buffers, r.usmp.plan, r.usmp.pools.map((p) => p.pool));
        sizes.set(algorithm, r.usmp.pools.filter((p) => p.data === undefined).reduce((s, p) => s + p.sizeBytes, 0));
        if (backend === 'host_only') {
          // Garbage in every pool first: a plan that overlaps live buffers shows in the outputs.
          const pools = new Map(r.usmp.pools.map((p) => [p.pool.name, p.data ? p.data.slice() : new Uint8Array(p.sizeBytes).fill(0xa5)]));
          const got = runMain(r.usmp.module, b.inputs, { pools, externs: LOWERING_EXTERN_SIMULATIONS });
          expect(got).toHaveLength(expected.length);
          got.forEach((o, k) => expect({ algorithm, output: k, exact: Buffer.from(o).equals(Buffer.from(expected[k])) }).toEqual({ algorithm, output: k, exact: true }));
        }
      }
      const auto = sizes.get('auto')!;
      for (const [algorithm, size] of sizes) expect({ algorithm, auto: auto <= size }).toEqual({ algorithm, auto: true });
    });
  });
});
