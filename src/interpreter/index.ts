export { createSession, interpret, runFunction } from './interpret';
export type { InterpreterSession } from './interpret';
export { VariableStore } from './variables';
export { KernelContext } from './kernel';
export type { Kernel } from './kernel';
export { KERNELS } from './kernels';
export { allocateTensorData, tensorFromBytes, tensorToBytes } from './tensor';
export type { Tensor, TypedArray } from './tensor';
