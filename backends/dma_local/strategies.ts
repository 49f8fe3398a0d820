/**
 * How dma_local lowers its operators. The DMA copies become kernel calls
 * (`dma_local_copy_in/out(src, dst, bytes)`); the compute operators run as the same loop
 * nests the CPU uses (the accelerator is programmable; what differs is where its operands
 * live, which the memory declaration states).
 */
import { CPU_STRATEGIES, LoweringError, OperatorStrategy, tir } from '../../src/index';
import { COPY_IN_KERNEL, COPY_OUT_KERNEL, ComputeOp, DMA_IN_KIND, DMA_OUT_KIND } from './names';

function byteSize(b: tir.Buffer): number {
  return b.shape.reduce((n, d) => {
    if (d.kind !== 'IntImm') throw new LoweringError(`buffer '${b.name}' has a symbolic shape`, { buffer: b.name, target: 'dma_local' });
    return n * d.value;
  }, tir.dtypeBytes(b.dtype));
}

const KERNEL_OF_KIND: Readonly<Record<string, string>> = { [DMA_IN_KIND]: COPY_IN_KERNEL, [DMA_OUT_KIND]: COPY_OUT_KERNEL };

/** `dma_local_copy_in/out(src, dst, bytes)`, by the copy's kind. */
export const dmaCopyStrategy: OperatorStrategy = (input) => {
  const kind = input.call.attrs.kind;
  const kernel = typeof kind === 'string' ? KERNEL_OF_KIND[kind] : undefined;
  if (kernel === undefined) {
    throw new LoweringError(`dma_local lowers only copies of kind ${DMA_IN_KIND} or ${DMA_OUT_KIND}, '${input.call.name}' has kind ${JSON.stringify(kind)}`, {
      op: 'copy',
      target: 'dma_local',
    });
  }
  const bytes = byteSize(input.out);
  if (byteSize(input.args[0]) !== bytes) {
    throw new LoweringError(`dma_local copy '${input.call.name}' changes the tensor size`, { op: 'copy', target: 'dma_local' });
  }
  return tir.evaluate(tir.callExtern(kernel, [input.args[0].data, input.out.data, bytes]));
};

/** The CPU loop nest of `op`, run by the accelerator on its local memory. */
export function computeStrategy(op: ComputeOp): OperatorStrategy {
  const strategy = CPU_STRATEGIES.get(op);
  if (strategy === undefined) throw new LoweringError(`no loop-nest strategy for '${op}'`, { op, target: 'dma_local' });
  return strategy;
}
