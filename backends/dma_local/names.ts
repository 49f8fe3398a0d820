/** Names the dma_local backend shares between its pass, patterns, kernels and tests. */
export const DMA_TARGET = 'dma_local';

/** `copy` kinds of the two DMA directions. */
export const DMA_IN_KIND = 'dma_in';
export const DMA_OUT_KIND = 'dma_out';

/** Operators the accelerator computes, each matched as its own pattern `dma_local.<op>`. */
export const COMPUTE_OPS = ['conv2d', 'depthwise_conv2d', 'dense'] as const;
export type ComputeOp = (typeof COMPUTE_OPS)[number];

export const DMA_IN_COMPOSITE = `${DMA_TARGET}.${DMA_IN_KIND}`;
export const DMA_OUT_COMPOSITE = `${DMA_TARGET}.${DMA_OUT_KIND}`;

/** C kernels of `runtime/dma_local_runtime.c` (and their TS simulations). */
export const COPY_IN_KERNEL = 'dma_local_copy_in';
export const COPY_OUT_KERNEL = 'dma_local_copy_out';

/** The accelerator's local memory (reached only by DMA) and the main memories it copies from/to. */
export const LOCAL_MEM = 'local_mem';
export const SRAM = 'sram';
export const FLASH = 'flash';
