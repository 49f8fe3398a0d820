export { DmaLocalBackend } from './backend';
export { dmaKernelSimulations, DMA_DIRECTIONS } from './simulation';
export type { DmaSimulationOptions, SimulatedPool } from './simulation';
export { DMA_LOCAL_MEMORY } from './memory';
export { wrapWithDma, wrapWithDmaPass, WRAP_WITH_DMA_PASS } from './wrapWithDma';
export { dmaRuntimeDir, dmaRuntimeSources } from './runtimeSources';
export * from './names';
