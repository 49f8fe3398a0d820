/**
 * Pool pinning decided whether a function writes a buffer from its operator records alone. A
 * function that also stores into an input it is recorded as only reading (here a TIR pass adds
 * the store; a strategy doing so is refused at lowering) got that input in a pool its target
 * may only read, and neither the pinning pass nor the post-plan check saw the write: the
 * accelerator wrote read-only memory unnoticed. Both now look at the stores the body makes.
 */
import { BackendRegistry, compileModel, GraphFunctionBuilder, moduleOf, PoolInfo, tensorType } from '../../src';
import { addBackend } from '../helpers/clobberingBackend';

// The CPU computes both operands of the add; the accelerator may only read `shared`.
const POOLS: PoolInfo[] = [
  { name: 'shared', kind: 'workspace', targetAccess: { c: 'rw', npu: 'ro' }, alignment: 16, internal: true },
  { name: 'npu_mem', kind: 'workspace', targetAccess: { c: 'rw', npu: 'rw' }, alignment: 16, internal: true },
];

function compile(clobber: boolean, poolPinning = true) {
  const b = new GraphFunctionBuilder();
  const x = b.param('x', tensorType([8], 'float32'));
  const y = b.call('y', 'relu', [x], tensorType([8], 'float32'));
  const z = b.call('z', 'relu', [x], tensorType([8], 'float32'));
  const s = b.call('s', 'add', [y, z], tensorType([8], 'float32'));
  const registry = new BackendRegistry();
  registry.register(addBackend(clobber));
  return compileModel(moduleOf([b.build([s])]), { backend: 'npu', registry, pools: POOLS, poolPinning });
}

describe('a function that stores into an input it is recorded as reading', () => {
  it('gets that input in a pool its target can write (without the store it may stay in the read-only pool)', () => {
    const honest = compile(false);
    const clobbering = compile(true);
    const sids = (r: ReturnType<typeof compile>) => r.report.buffers.filter((b) => b.func === '__tvm_main__' && b.name.startsWith('sid_'));
    expect(sids(honest).map((b) => b.pool)).toEqual(['shared', 'shared']);
    // The second operand is written by the accelerator: only npu_mem will do.
    expect(sids(clobbering).map((b) => b.pool).sort()).toEqual(['npu_mem', 'shared']);
    expect(clobbering.access.violations).toEqual([]);
  });

  it('without pool pinning, the post-plan check reports the write into the read-only pool', () => {
    const result = compile(true, false);
    expect(result.access.violations).toEqual([expect.objectContaining({ target: 'npu', pool: 'shared', readOnly: true })]);
    expect(result.warnings.some((w) => /npu_main_0 \(target npu\) writes '\w+' in pool 'shared', which npu cannot write/.test(w))).toBe(true);
  });
});
