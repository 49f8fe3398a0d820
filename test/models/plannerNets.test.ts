/**
 * The planner on whole networks: every registered planning algorithm (`--algorithm`) on each
 * network of the three suites (realistic, converter-style, SSD detector) in each of its forms,
 * host-only and for the accel backend (its pools, model I/O in the workspace): each plan
 * verifies, the planned TIR (pools filled with garbage first) gives the interpreter's bytes,
 * and `auto`'s workspace is at or below every other algorithm's.
 */
import * as fs from 'fs';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { listPlanningAlgorithms } from '../../src/usmp/algo/registry';
import { defaultPools, parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { verifyPlan } from '../../src/usmp/verify';
import { CONVERTER_NETWORKS } from './converterNets';
import { buildNet, NetInputs, NetMode, Network } from './netBuilder';
import { allNetworks, floats, NETWORKS } from './realisticNets';
import { ssdDetectorOf } from './ssdNet';
import { bundledBackendRegistry } from './bundledBackends';

const registry = bundledBackendRegistry();

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

  /**
   * All realistic networks side by side in one model (a large planning problem), for every
   * bundled backend with its own pools (accel and dma_local: two workspace pools, one limited).
   */
  describe.each([['float32'], ['int8']] as const)('all networks in one model (%s)', (mode) => {
    const all = allNetworks(NETWORKS);
    const graph = importTflite(buildNet(all.net, mode, all.inputs(), 17).model, 'all_networks.tflite');
    const external = (pools: readonly PoolInfo[]): PoolInfo[] => pools.map((p) => ({ ...p, internal: false }));
    const fromJson = (backend: string) => () => external(parsePoolsJson(fs.readFileSync(`backends/${backend}/pools.json`, 'utf8'), `${backend} pools`));
    const setups: readonly (readonly [string, (() => PoolInfo[]) | undefined, boolean])[] = [
      ['host_only', undefined, true],
      ['vanilla', () => external(defaultPools(['c', 'vanilla'])), false],
      ['accel', fromJson('accel'), true],
      ['dma_local', fromJson('dma_local'), true],
    ];
    it.each(setups)('%s: every plan verifies, auto at or below each other algorithm over all pools', (backend, pools, ioInWorkspace) => {
      const sizes = new Map<string, Map<string, number>>();
      for (const algorithm of ALGORITHMS) {
        const r = compileModel(graph, { backend, registry, algorithm, ioInWorkspace, pools: pools?.(), timeBudgetMs: 300 });
        verifyPlan(r.usmp.buffers, r.usmp.plan, r.usmp.pools.map((p) => p.pool));
        sizes.set(algorithm, new Map(r.usmp.pools.filter((p) => p.data === undefined).map((p) => [p.pool.name, p.sizeBytes])));
      }
      const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
      const auto = sizes.get('auto')!;
      for (const [algorithm, m] of sizes) expect({ algorithm, auto: total(auto) <= total(m) }).toEqual({ algorithm, auto: true });
      // The other algorithms are not vacuous competitors: at least one plans larger.
      expect(Math.max(...[...sizes.values()].map(total))).toBeGreaterThan(total(auto));
    });
  });
});
