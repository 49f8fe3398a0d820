import { planAuto } from '../../../src/usmp/algo/auto';
import { intervalsToBufferInfos, memoryPressureOfIntervals } from '../../../src/usmp/conflicts';
import { verifyPlan } from '../../../src/usmp/verify';
import { pool } from './helpers';
import { heavyTailed, randomIntervals } from '../../../bench/generators';
import { performance } from 'node:perf_hooks';
test('core', () => {
  for (const set of [randomIntervals(1), randomIntervals(2), randomIntervals(3), heavyTailed(1), heavyTailed(2), heavyTailed(3)]) {
    const intervals = set.intervals.map((iv) => ({ sizeBytes: iv.size, firstUse: iv.first, lastUse: iv.last, alignment: 16 }));
    const bufs = intervalsToBufferInfos(intervals, [pool('ws', undefined, 16)]);
    const bound = memoryPressureOfIntervals(intervals);
    const t = performance.now(); const c0 = process.cpuUsage();
    const a = planAuto(bufs, bound, { timeBudgetMs: 60000 });
    const ms = performance.now() - t; const cpu = process.cpuUsage(c0); const cms = (cpu.user + cpu.system) / 1000;
    verifyPlan(bufs, a.plan);
    const s = a.stats;
    console.log(`${set.name} ${ms.toFixed(0)}ms cpu ${cms.toFixed(0)}ms LB ${s.lowerBound} start ${s.initialTotal} final ${s.finalTotal} ${s.strategy} proven ${s.provenOptimal} coreWork ${s.coreWork} work ${s.work}`);
  }
});
