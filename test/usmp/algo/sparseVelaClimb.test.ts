/**
 * Very sparse sets (Vela's climb cheap: at most about 48 conflicts per buffer on 2,000 buffers)
 * that the core's steps leave above the bound: Vela 3.10's climb runs too, uncharged; a fit at
 * the bound ends the call, else its plan replaces a larger one at the end (auto.ts,
 * sparseVelaClimb). The sets are the bench's mixed family, where `auto` had ended above Vela.
 */
import { mixedFamily } from '../../../bench/generators';
import { velaPlan } from '../../../bench/velaPlan';
import { planAuto } from '../../../src/usmp/algo/auto';
import { lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { arenaBuffersOf } from './helpers';

function planned(seed: number) {
  const set = mixedFamily(seed);
  const alignment = set.alignment ?? 16;
  const buffers = arenaBuffersOf(set, alignment);
  const bound = lowerBoundOfBuffers(buffers);
  const { plan, stats } = planAuto(buffers, bound);
  verifyPlan(buffers, plan);
  const total = poolSizesOfPlan(buffers, plan).get('arena')!;
  const end = (offsets: readonly number[]) => Math.max(...offsets.map((o, i) => o + set.intervals[i].size));
  const vela = end(velaPlan(set.intervals.map((iv) => ({ ...iv, alignment }))).offsets);
  return { total, bound, stats, vela };
}

describe("Vela's climb on very sparse sets above the bound", () => {
  // Seed 1809: the core's steps and finishes ended 0.416% above the bound; Vela's climb packs
  // it there, which proves the plan optimal and ends the call.
  test('a climb at the bound ends the call, proven', () => {
    const { total, bound, stats, vela } = planned(1809);
    expect(vela).toBe(bound);
    expect({ total, proven: stats.provenOptimal, strategy: stats.strategy }).toEqual({ total: bound, proven: true, strategy: 'bottleneck climb' });
  });

  // Seed 2935 (five sizes, DAG-like lifetimes, alignment 64): the call ended 2.640% above the
  // bound, Vela's plan 2.094%; the climb's plan replaces the call's.
  test("a climb above the bound replaces a larger plan: auto at or below Vela's plan", () => {
    const { total, bound, vela } = planned(2935);
    expect(vela).toBeGreaterThan(bound);
    expect(total).toBeGreaterThanOrEqual(bound);
    expect(total).toBeLessThanOrEqual(vela);
  });
});
