import { runPoolPinning } from '../../passes/poolPinning/pass';
import { NO_CONSTRAINTS } from '../../passes/poolPinning/constraints';
import { runUsmp } from '../../src/usmp/pipeline';
import { seedModule, SEED_POOLS } from '../passes/seedModule';

describe('buffer targets in the planner output', () => {
  it('reports a main intermediate used by the accelerator as the accelerator\'s, owner still main', () => {
    const { module } = runPoolPinning(seedModule(), SEED_POOLS, NO_CONSTRAINTS);
    const result = runUsmp(module, { pools: SEED_POOLS });
    const target = (name: string) => result.buffers.find((b) => b.name === name)?.target;
    // sid_1: written by the CPU layout transform, read by the accel function.
    expect(target('sid_1')).toBe('accel');
    // sid_3: written by accel, read by the CPU strided slice.
    expect(target('sid_3')).toBe('accel');
    // the fetcher's buffer lives in and is used by the accel function only.
    expect(target('input_fetcher')).toBe('accel');
    expect(result.buffers.find((b) => b.name === 'sid_1')?.func).toBe('__tvm_main__');
  });
});
