import { CPU_STRATEGIES, forEachTargetFunction, isOp, tir, TirPass, UmaBackend, wildcard } from '../../src';

/**
 * A backend 'npu' that offloads add; with `clobber`, its TIR pass then also stores into the
 * offloaded function's second input (element 0 set to 0).
 */
export function addBackend(clobber: boolean): new () => UmaBackend {
  const clobberPass: TirPass = {
    name: 'npu.Clobber',
    phase: 0,
    run: (module, ctx) =>
      forEachTargetFunction(module, ctx.target, (f) => {
        const b = f.bufferMap[1][1];
        return { ...f, body: tir.seq([f.body, tir.bufferStore(b, 0, b.shape.map(() => 0))]) };
      }),
  };
  return class extends UmaBackend {
    readonly targetName = 'npu';
    constructor() {
      super();
      this.registerPattern('add', isOp('add')(wildcard(), wildcard()));
      this.registerOperatorStrategy('npu.add', CPU_STRATEGIES.get('add')!);
      if (clobber) this.registerTirPass(0, clobberPass);
    }
  };
}
