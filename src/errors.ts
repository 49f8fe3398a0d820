/**
 * Every error a user can provoke is an UmaError subclass carrying where it happened.
 * The CLI prints `error: <message>` for these and exits 1; anything else is a bug and
 * keeps its stack trace.
 */
export interface ErrorContext {
  /** File the problem was found in (model, JSON config, ...). */
  file?: string;
  /** Byte offset inside a binary file. */
  offset?: number;
  /** JSON path of the offending value, e.g. `/pools/1/sizeHintBytes`. */
  jsonPath?: string;
  /** Function (graph or TIR) the problem was found in. */
  func?: string;
  /** Operator name or type involved. */
  op?: string;
  buffer?: string;
  pool?: string;
  target?: string;
  [key: string]: unknown;
}

export class UmaError extends Error {
  readonly context: ErrorContext;
  constructor(message: string, context: ErrorContext = {}) {
    super(message);
    this.name = new.target.name;
    this.context = context;
  }
}

/** A `.tflite` (or other model) file that cannot be read: truncated, corrupt, wrong magic. */
export class ModelFormatError extends UmaError {}
/** A model uses an operator or an option we do not support. */
export class UnsupportedOperatorError extends UmaError {}
/** Shapes or dtypes that do not fit an operator. */
export class TypeInferenceError extends UmaError {}
/** A JSON document (pools, pins, buffer set, manifest) that fails its schema. */
export class ConfigError extends UmaError {}
/** A backend registration that is invalid (attribute clash, bad pattern, duplicate target). */
export class RegistrationError extends UmaError {}
/** Partitioning or lowering could not handle the program. */
export class LoweringError extends UmaError {}
/** Pool constraints that no pool satisfies. */
export class PoolConstraintError extends UmaError {}
/** The memory planner could not place a buffer (pools too small, unknown algorithm, ...). */
export class MemoryPlanningError extends UmaError {}
/** TVM's pool overflow message, kept verbatim so users can search for it (driver/poolOverflow.ts). */
export const POOLS_EXHAUSTED = 'the space available in the provided pools exceeded when trying to allocate the buffer';
/** A plan that fails verification: a planner bug, never user output. */
export class PlanVerificationError extends UmaError {}
/** Code generation failed (missing kernel, unsupported dtype, ...). */
export class CodegenError extends UmaError {}
/** The reference interpreter met something it cannot run. */
export class InterpreterError extends UmaError {}
/** A graph-IR function that is malformed: a cycle, an unknown argument, a duplicate node name. */
export class GraphStructureError extends UmaError {}

/** Building or running a compiled program to check it (`uma-ts run`, `verifyModel`) failed. */
export class VerifyError extends UmaError {}

export function isUmaError(e: unknown): e is UmaError {
  return e instanceof UmaError;
}

/** A file or directory that cannot be read or written (missing, not permitted, no space...). */
export class FileAccessError extends UmaError {}

/**
 * A backend's own code (a strategy, a pass, a codegen hook, a pattern or operator predicate)
 * threw something that is not an UmaError, or broke the hook's contract. The message names the
 * backend, the hook and what it was working on; `cause` keeps what was thrown, stack included.
 */
export class BackendHookError extends UmaError {
  constructor(message: string, context: ErrorContext = {}, cause?: unknown) {
    super(message, context);
    if (cause !== undefined) this.cause = cause;
  }
}
