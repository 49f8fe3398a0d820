/**
 * An accelerator with a small local memory reached only by DMA: a pre-partitioning pass
 * wraps every offloadable operator in DMA-in/DMA-out copies, the copies become DMA kernel
 * calls, the operators run as loop nests, and the memory declaration keeps compute operands
 * in `local_mem` and the DMA's far side in `sram`.
 */
import { UmaBackend } from '../../src/index';
import { DMA_LOCAL_MEMORY } from './memory';
import { COMPUTE_OPS, DMA_IN_KIND, DMA_OUT_KIND, DMA_TARGET } from './names';
import { computePattern, computePredicate, dmaPattern } from './patterns';
import { DMA_RUNTIME_HEADER, dmaRuntimeSources } from './runtimeSources';
import { computeStrategy, dmaCopyStrategy } from './strategies';
import { wrapWithDmaPass } from './wrapWithDma';

export class DmaLocalBackend extends UmaBackend {
  readonly targetName = DMA_TARGET;

  constructor() {
    super();
    this.registerGraphPass('pre_partitioning', wrapWithDmaPass);
    this.registerPattern(DMA_IN_KIND, dmaPattern(DMA_IN_KIND));
    this.registerPattern(DMA_OUT_KIND, dmaPattern(DMA_OUT_KIND));
    for (const op of COMPUTE_OPS) this.registerPattern(op, computePattern(op), computePredicate);
    // Composites without their own strategy are lowered operator by operator, so these
    // per-operator strategies serve all of them; records keep the composite names.
    this.registerOperatorStrategy('copy', dmaCopyStrategy);
    for (const op of COMPUTE_OPS) this.registerOperatorStrategy(op, computeStrategy(op));
    this.registerCodegen({
      includes: () => `#include "${DMA_RUNTIME_HEADER}"\n`,
      runtimeSources: dmaRuntimeSources,
      // The simulator traps on any pointer outside a registered pool (runtime/dma_local_runtime.h).
      registerPool: (p) =>
        `dma_local_register_pool(${JSON.stringify(p.name)}, ${p.base}, ${p.sizeBytes}, ${p.access === 'rw' ? 'DMA_LOCAL_ACCESS_RW' : 'DMA_LOCAL_ACCESS_RO'})`,
    });
    this.registerMemory(DMA_LOCAL_MEMORY);
  }
}
