/**
 * A held-out uniform set (bench/generators.ts randomIntervals, seed 81: 2,000 buffers over 800
 * operators) whose plan ended 144 bytes above the bound with the holes low in the stack, where
 * no re-solve of the top reaches them: finished again upside down (coreSteps.ts finishMirrored),
 * it is packed at the bound, proven.
 */
import { randomIntervals } from '../../../bench/generators';
import { planAuto } from '../../../src/usmp/algo/auto';
import { intervalsToBufferInfos, lowerBoundOfBuffers } from '../../../src/usmp/conflicts';
import { poolSizesOfPlan, verifyPlan } from '../../../src/usmp/verify';
import { pool } from './helpers';

test('a plan whose holes sit low in the stack reaches the bound once mirrored', () => {
  const set = randomIntervals(81);
  const buffers = intervalsToBufferInfos(
    set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 })),
    [pool('arena', undefined, 16)],
  );
  const bound = lowerBoundOfBuffers(buffers);
  const { plan, stats } = planAuto(buffers, bound);
  verifyPlan(buffers, plan);
  const total = poolSizesOfPlan(buffers, plan).get('arena')!;
  expect({ total, finalTotal: stats.finalTotal, proven: stats.provenOptimal }).toEqual({ total: bound, finalTotal: bound, proven: true });
});
