/**
 * The unified static memory planner's TIR bridges and pipeline. Planning algorithms live in
 * `algo/` (registry), plan verification in `verify.ts`.
 */
export {
  DEFAULT_CONSTANT_POOL,
  DEFAULT_WORKSPACE_POOL,
  defaultConstantPool,
  defaultPools,
  describePool,
  makePool,
  parsePoolsJson,
  poolsForTarget,
  validatePools,
  withDefaultConstantPool,
} from './pools';
export type { ParsePoolsOptions, PoolSource, PoolSpec } from './pools';
export { assignPoolInfo, candidatePoolNames, funcTarget, isGlobalScope } from './assignPoolInfo';
export { extractBufferInfo } from './extractBufferInfo';
export type { BufferInfoAnalysis, BufferSite, CallInstance, UnplannedSite } from './extractBufferInfo';
export { ATTR_POOL_ARGS, convertToPoolOffsets, poolParamName } from './convertToPoolOffsets';
export type { OffsetRewriteResult } from './convertToPoolOffsets';
export { ATTR_NUM_INPUTS, createIoAllocates } from './ioAllocates';
export { moduleTargets, runUsmp } from './pipeline';
export type { UsmpOptions } from './pipeline';
