/**
 * dma_local's C runtime as files shipped with the generated code; found next to this module
 * or, from the compiled `dist/` tree, in the package's `backends/dma_local/runtime`.
 */
import { findRuntimeDir, readRuntimeSources } from '../../src/index';

export const DMA_RUNTIME_HEADER = 'dma_local_runtime.h';
export const DMA_RUNTIME_SOURCE = 'dma_local_runtime.c';

export function dmaRuntimeDir(): string {
  return findRuntimeDir(__dirname, [DMA_RUNTIME_HEADER, DMA_RUNTIME_SOURCE], 'dma_local');
}

export function dmaRuntimeSources(): { name: string; content: string }[] {
  return readRuntimeSources(__dirname, [DMA_RUNTIME_HEADER, DMA_RUNTIME_SOURCE], 'dma_local');
}
