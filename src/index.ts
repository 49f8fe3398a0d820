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
export { checkTflite, checkTfliteFile, formatUnsupportedList, groupUnsupported } from './frontend/tflite';
export type { DeclaredOperator, TfliteCheck, UnsupportedGroup, UnsupportedUse } from './frontend/tflite';
// Writing .tflite models (tests, bench, scripted models without TensorFlow).
export { BUILTIN_OPTIONS, TfliteWriter, builtinOperatorCode, encodeTensorData, flexbufferOptions, tfliteOptions, writeTflite } from './frontend/tflite/writer';
export type {
  FlexOption,
  WriterActivation,
  WriterData,
  WriterDType,
  WriterModel,
  WriterOperator,
  WriterOptions,
  WriterQuantization,
  WriterTensor,
} from './frontend/tflite/writer';
export * from './ir/graph/graph';
export * from './ir/graph/typeInference';
export * from './ir/graph/printer';
export * from './ir/graph/liveness';
export { FunctionBuilder as GraphFunctionBuilder, tensorType, moduleOf } from './ir/graph/builder';
export * from './usmp';
export { generateC, readModelLibraryFormat, writeModelLibraryFormat } from './codegen';
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
export { randomInt, seededRandom } from './util/random';
export { interpret, runFunction as interpretFunction } from './interpreter';
export { createSession } from './interpreter';
export type { InterpreterSession } from './interpreter';
// Backend plugin API, patterns and partitioning, CPU strategies and the TIR driver: what
// backends (backends/*) build on.
export * from './backend';
export * from './partition';
export { CPU_STRATEGIES, LOWERING_EXTERN_SIMULATIONS, makeConv2dStrategy, makeDepthwiseConv2dStrategy } from './lower/cpu';
export type { ConvStrategyOptions, PaddingMode } from './lower/cpu';
export { lowerToTir } from './lower/lowerModule';
export type { LowerOptions } from './lower/lowerModule';
export { CONV_KERNEL_SCALARS, convKernelParams } from './lower/convKernelParams';
export type { ConvKernelParams, ConvKernelScalarName, ConvKernelScalars } from './lower/convKernelParams';
export { compileToTir, strategyLookup } from './driver/compileToTir';
export type { CompileToTirOptions, TirCompilation } from './driver/compileToTir';
export { ATTR_OPERATORS, operatorAliases, operatorLabel, readOperatorRecords, withOperatorRecords } from './ir/tir/operators';
export type { OperatorRecord } from './ir/tir/operators';
export { EXTERN_KERNELS, SOFTMAX_INT8 } from './lower/cpu';
export type { ExternKernel } from './lower/cpu';
export { SOFTMAX_INT8_INT16 } from './lower/cpu/externKernels';
// Memory planning algorithms: the registry a custom planner registers into, and plan checks.
export { DEFAULT_PLANNING_ALGORITHM, getPlanningAlgorithm, listPlanningAlgorithms, registerPlanningAlgorithm } from './usmp/algo/registry';
export { poolSizesOfPlan, verifyPlan } from './usmp/verify';
export { planAuto } from './usmp/algo/auto';
export type { AutoPlanningOptions, AutoStats } from './usmp/algo/auto';
export { intervalsToBufferInfos, lowerBoundOfBuffers, memoryPressureOfIntervals } from './usmp/conflicts';
export type { LiveInterval } from './usmp/conflicts';
export { planOptimality, recordOptimality } from './usmp/optimality';
export type { PlanOptimality } from './usmp/optimality';
export { parseBufferSet, parseIntervalText, parseJsonBufferSet } from './usmp/bufferSet';
export type { BufferSet } from './usmp/bufferSet';
// The whole pipeline (what `uma-ts compile` runs), for applications and backend tests.
export { compileModel } from './driver/compile';
export type { CompileOptions, CompileResult, CompileStage } from './driver/compile';
// The output directory of `uma-ts compile` (MLF + report.json/svg/html + tir.txt), written atomically.
export { REPORT_FILES, reportFiles, reportJson, writeCompileOutput } from './driver/writeOutput';
export type { ExtraOutputFile } from './codegen/mlf';
// Global passes: pool pinning (constraints, pins, explain, post-plan access check, copies).
export * from '../passes/poolPinning';
// Reports: the memory table/JSON and the layout picture.
export { buildMemoryReport, formatMemoryReport, peakLiveBytes } from './report/memoryReport';
export type { BufferReport, MemoryReport, PoolReport } from './report/memoryReport';
export { renderLayoutHtml, renderLayoutSvg } from './report/layoutSvg';
// End-to-end checks of compiled programs against the reference interpreter (`uma-ts run`).
export * from './verify';
