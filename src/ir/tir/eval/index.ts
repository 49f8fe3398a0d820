export { TirEvalError, TirOutOfBoundsError } from './errors';
export type { Pointer, Value } from './memory';
export { bytesAt, isPointer, loadElement, offsetPointer, pointerTo, storeElement } from './memory';
export type { ArgValue } from './compile';
export type { EvalArg, EvalOptions, ExternContext, ExternFn } from './run';
export { paramBufferBytes, runMain, runPrimFunc } from './run';
