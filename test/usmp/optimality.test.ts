import { planOptimality, recordOptimality } from '../../src/usmp/optimality';

describe('plan optimality', () => {
  test('the bound reached is a proof; otherwise the gap to the bound is reported', () => {
    expect(planOptimality(new Map(), 100, 100)).toEqual({ provenOptimal: true, lowerBoundBytes: 100, gapBytes: 0, gapPercent: 0 });
    expect(planOptimality(new Map(), 110, 100)).toEqual({ provenOptimal: false, lowerBoundBytes: 100, gapBytes: 10, gapPercent: 10 });
  });

  test("a planner's recorded proof counts: a raised bound narrows the gap, a proof closes it", () => {
    const raised = new Map();
    recordOptimality(raised, false, 105);
    expect(planOptimality(raised, 110, 100)).toEqual({ provenOptimal: false, lowerBoundBytes: 105, gapBytes: 5, gapPercent: 4.76 });
    const proven = new Map();
    recordOptimality(proven, true, 110);
    expect(planOptimality(proven, 110, 100)).toEqual({ provenOptimal: true, lowerBoundBytes: 110, gapBytes: 0, gapPercent: 0 });
  });

  test("a planner's clock that cut in is reported, even where its proof is not used", () => {
    const cut = new Map();
    recordOptimality(cut, true, 110, true);
    expect(planOptimality(cut, 110, 100)).toEqual({ provenOptimal: true, lowerBoundBytes: 110, gapBytes: 0, gapPercent: 0, timeCapReached: true });
    expect(planOptimality(cut, 110, 100, false)).toEqual({ provenOptimal: false, lowerBoundBytes: 100, gapBytes: 10, gapPercent: 10, timeCapReached: true });
  });
});
