/** The accel's patterns: its input fetcher (a tagged copy) and int8 conv2d with constant weights. */
import { DFPattern, PatternMatch, isConstant, isOp, optionalArg, wildcard } from '../../src/index';
import { FETCHER_KIND } from './names';
import { isOffloadableConv } from './offloadableConv';

export const fetcherPattern = (): DFPattern => isOp('copy')(wildcard()).hasAttr({ kind: FETCHER_KIND });

export const convPattern = (): DFPattern => isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant())).hasDtype('int8');

/** The structural pattern cannot see dtypes of inputs, quantization or grouping; this can. */
export const convPredicate = (m: PatternMatch): boolean => isOffloadableConv(m.root, m.func);
