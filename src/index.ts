/**
 * The public API of uma-ts. Example backends (backends/) and user code import only from here.
 */
export * from './errors';
export * from './ir/graph';
export * as tir from './ir/tir';
export * from './usmp/types';
export * from './lower/strategy';
export * from './arith/fixedpoint';
export { importTflite, loadTfliteFile } from './frontend/tflite';
export * from './ir/graph/graph';
export * from './ir/graph/typeInference';
export * from './ir/graph/printer';
export * from './ir/graph/liveness';
export { FunctionBuilder as GraphFunctionBuilder, tensorType, moduleOf } from './ir/graph/builder';
export * from './usmp';
export { generateC, writeModelLibraryFormat } from './codegen';
export type {
  BackendCodegenHook,
  CArtifacts,
  GenerateCInput,
  GeneratedFile,
  MemoryLayout,
  MlfMetadata,
  RuntimeSource,
  TensorSpec,
} from './codegen';
export * as quantParams from './arith/quant-params';
export * as gemmlowp from './arith/gemmlowp';
export { interpret, runFunction as interpretFunction } from './interpreter';
