/**
 * The vanilla example backend, uma-ts's counterpart of TVM's `apps/uma/_template`
 * (`MyAiHwBackend`): int8 conv2d and dense are offloaded, lowered with the CPU's loops, and
 * a TIR pass swaps each conv2d loop nest for the `vanilla_conv2dnchw` C kernel. The target
 * shares the CPU's memory: it reaches the default workspace and constant pools, with no
 * operand constraints.
 */
import { DEFAULT_CONSTANT_POOL, DEFAULT_WORKSPACE_POOL, UmaBackend } from '../../src';
import { vanillaCodegenHooks } from './codegen';
import { vanillaConv2dPass } from './passes';
import { conv2dPattern, densePattern } from './patterns';
import { vanillaConv2dStrategy, vanillaDenseStrategy } from './strategies';

export const VANILLA_TARGET = 'vanilla';

export class VanillaBackend extends UmaBackend {
  readonly targetName = VANILLA_TARGET;

  constructor() {
    super();
    // As in TVM's template: a declared, documented knob the kernels do not read yet.
    this.registerTargetAttr('dimension', 16);

    this.registerPattern('conv2d', conv2dPattern());
    this.registerPattern('dense', densePattern());

    this.registerOperatorStrategy('conv2d', vanillaConv2dStrategy);
    this.registerOperatorStrategy('dense', vanillaDenseStrategy);

    this.registerTirPass(1, vanillaConv2dPass);

    this.registerCodegen(vanillaCodegenHooks);

    this.registerMemory({
      pools: [
        { pool: DEFAULT_WORKSPACE_POOL, access: 'rw' },
        { pool: DEFAULT_CONSTANT_POOL, access: 'rw' },
      ],
      operandConstraints: [],
    });
  }
}
