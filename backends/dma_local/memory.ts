/**
 * dma_local's memory: the accelerator computes on `local_mem` only; its DMA engine moves
 * activations between `sram` (the main memory the CPU shares) and `local_mem`; weights are
 * read from `flash`. Operand scratch (e.g. a padded input) is local too.
 */
import { MemoryDecl, OperandConstraint } from '../../src/index';
import { COMPUTE_OPS, DMA_IN_COMPOSITE, DMA_OUT_COMPOSITE, DMA_TARGET, FLASH, LOCAL_MEM, SRAM } from './names';

const computeConstraint = (op: string): OperandConstraint => ({
  op: `${DMA_TARGET}.${op}`,
  inputs: { 0: [LOCAL_MEM], 1: [FLASH], 2: [FLASH] },
  // The bias: a convolution or dense without one has two inputs.
  optionalInputs: [2],
  outputs: { 0: [LOCAL_MEM] },
  scratch: [LOCAL_MEM],
});

export const DMA_LOCAL_MEMORY: MemoryDecl = {
  pools: [
    { pool: LOCAL_MEM, access: 'rw' },
    { pool: SRAM, access: 'rw' },
    { pool: FLASH, access: 'ro' },
  ],
  operandConstraints: [
    { op: DMA_IN_COMPOSITE, inputs: { 0: [SRAM] }, outputs: { 0: [LOCAL_MEM] } },
    { op: DMA_OUT_COMPOSITE, inputs: { 0: [LOCAL_MEM] }, outputs: { 0: [SRAM] } },
    ...COMPUTE_OPS.map(computeConstraint),
  ],
};
