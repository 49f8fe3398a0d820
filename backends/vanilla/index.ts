export { VanillaBackend, VANILLA_TARGET } from './backend';
export { conv2dPattern, densePattern } from './patterns';
export { vanillaConv2dStrategy, vanillaDenseStrategy, conv2dCallParams } from './strategies';
export { vanillaConv2dPass, replaceConv2dNests } from './passes';
export { removeDeadScratch } from './deadScratch';
export { vanillaCodegenHook, vanillaCodegenHooks, vanillaIncludes, vanillaRuntimeSources, VANILLA_HEADER, VANILLA_SOURCE } from './codegen';
export { simulateVanillaConv2d, VANILLA_EXTERN_SIMULATIONS } from './simulation';
export * from './kernel';
