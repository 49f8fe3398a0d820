import { UmaError } from '../../../errors';

/** The TIR evaluator met a program it cannot run (unbound var, unknown extern, bad call). */
export class TirEvalError extends UmaError {}

/**
 * A load, store or pointer fell outside the memory region it points into: the way tests
 * catch wrong offsets from lowering or memory planning. Context names the buffer and index.
 */
export class TirOutOfBoundsError extends TirEvalError {}
