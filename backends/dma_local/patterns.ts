/** dma_local's patterns: the two DMA directions (tagged copies) and one per compute operator. */
import { DFPattern, PatternMatch, isConstant, isOp, optionalArg, wildcard } from '../../src/index';
import { ComputeOp } from './names';
import { isOffloadableCompute } from './offloadable';

export const dmaPattern = (kind: string): DFPattern => isOp('copy')(wildcard()).hasAttr({ kind });

export const computePattern = (op: ComputeOp): DFPattern => isOp(op)(wildcard(), isConstant(), optionalArg(isConstant()));

export const computePredicate = (m: PatternMatch): boolean => isOffloadableCompute(m.root, m.func);
