/**
 * A pattern whose composite has no strategy is lowered operator by operator, so the error is
 * about the primitive op. Authors who registered a strategy under the composite name of
 * another pattern read "no strategy for op 'add'" as nonsense: the message names the
 * composite that came without one, and both names a strategy could be registered under.
 */
import { BackendRegistry, compileToTir, GraphFunctionBuilder, isOp, LoweringError, moduleOf, tensorType, UmaBackend, wildcard } from '../../src';
import { CPU_STRATEGIES } from '../../src/lower/cpu';
import { errorOf } from '../helpers/errorOf';

class TwoPatterns extends UmaBackend {
  readonly targetName = 'npu';
  constructor() {
    super();
    // 'addx' matches first; only 'npu.add' has a strategy.
    this.registerPattern('addx', isOp('add')(wildcard(), wildcard()));
    this.registerPattern('add', isOp('add')(wildcard(), wildcard()));
    this.registerOperatorStrategy('npu.add', CPU_STRATEGIES.get('add')!);
  }
}

it('names the composite without a strategy and where to register one', () => {
  const b = new GraphFunctionBuilder();
  const x = b.param('x', tensorType([4], 'float32'));
  const y = b.call('y', 'add', [x, x], tensorType([4], 'float32'));
  const registry = new BackendRegistry();
  registry.register(TwoPatterns);
  const e = errorOf(() => compileToTir(moduleOf([b.build([y])]), registry, 'npu'));
  expect(e).toBeInstanceOf(LoweringError);
  expect(e.message).toBe(
    "no strategy for op 'add' on target 'npu' (y in npu_main_0, inside composite npu.addx, which has no strategy either: register one for 'npu.addx' or for 'add')",
  );
});
