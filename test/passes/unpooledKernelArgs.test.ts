/**
 * The post-plan access check follows every pointer an offloaded function hands its kernels.
 * A buffer the planner leaves out of every pool (a `local` array: the host's stack) is memory
 * the device cannot reach, yet before this check a kernel given one compiled, ran and
 * matched the interpreter whenever the stack happened to hold the right bytes.
 */
import { PlanVerificationError } from '../../src/errors';
import {
  BackendRegistry,
  compileModel,
  DEFAULT_CONSTANT_POOL,
  DEFAULT_WORKSPACE_POOL,
  GraphFunctionBuilder,
  isOp,
  moduleOf,
  OperatorStrategy,
  tensorType,
  tir,
  UmaBackend,
  wildcard,
} from '../../src';
import { errorOf } from '../helpers/errorOf';

/** Offloads reshape as `dev_copy(src, staging)` then `dev_copy(staging, out)`, staging in `scope`. */
function stagingBackend(scope: string): new () => UmaBackend {
  const strategy: OperatorStrategy = ({ args, out }) => {
    const bytes = out.shape.reduce((n, d) => n * (d as tir.IntImm).value, 1) * tir.dtypeBytes(out.dtype);
    const staging = tir.makeVar('staging', 'handle', out.dtype);
    return tir.allocate({
      bufferVar: staging,
      dtype: out.dtype,
      extents: [bytes / tir.dtypeBytes(out.dtype)],
      storageScope: scope,
      body: tir.seq([
        tir.evaluate(tir.callExtern('dev_copy', [args[0].data, staging, bytes])),
        tir.evaluate(tir.callExtern('dev_copy', [staging, out.data, bytes])),
      ]),
    });
  };
  return class extends UmaBackend {
    readonly targetName = 'dev';
    constructor() {
      super();
      this.registerPattern('reshape', isOp('reshape')(wildcard()));
      this.registerOperatorStrategy('reshape', strategy);
      this.registerMemory({
        pools: [
          { pool: DEFAULT_WORKSPACE_POOL, access: 'rw' },
          { pool: DEFAULT_CONSTANT_POOL, access: 'ro' },
        ],
        operandConstraints: [],
      });
    }
  };
}

function compile(scope: string, poolPinning = true) {
  const b = new GraphFunctionBuilder();
  const x = b.param('x', tensorType([2, 4], 'int8'));
  const y = b.call('y', 'reshape', [x], tensorType([8], 'int8'));
  const registry = new BackendRegistry();
  registry.register(stagingBackend(scope));
  return compileModel(moduleOf([b.build([y])]), { backend: 'dev', registry, poolPinning });
}

describe('kernel arguments outside every pool', () => {
  it('a local array handed to a kernel of an offloaded function fails the access check, naming function, kernel and buffer', () => {
    const e = errorOf(() => compile('local'));
    expect(e).toBeInstanceOf(PlanVerificationError);
    expect(e.message).toContain(
      "dev_main_0 (target dev) passes 'staging' to kernel 'dev_copy', but 'staging' is a 'local' array of dev_main_0, in no memory pool, so dev cannot reach it",
    );
  });

  it('without pool pinning it is a warning, as every other access finding', () => {
    const result = compile('local', false);
    expect(result.access.unpooled).toEqual([{ func: 'dev_main_0', target: 'dev', kernel: 'dev_copy', buffer: 'staging', what: "a 'local' array" }]);
    expect(result.warnings.filter((w) => w.includes("passes 'staging' to kernel 'dev_copy'"))).toHaveLength(1);
  });

  it('the same staging buffer with global scope is planned into a pool and passes', () => {
    const result = compile('global');
    expect(result.access.unpooled).toEqual([]);
    expect(result.access.violations).toEqual([]);
  });
});
