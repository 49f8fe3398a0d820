/**
 * What code generation takes and gives: the TIR module with its I/O description and memory
 * plan in, C files and MLF metadata out.
 */
import { DType } from '../ir/graph/types';
import { TirModule } from '../ir/tir/nodes';
import { UsmpResult } from '../usmp/types';

/** A model input or output as the application sees it. */
export interface TensorSpec {
  readonly name: string;
  readonly dtype: DType;
  readonly shape: readonly number[];
}

/** A file a backend ships with the generated code (its kernels, their header). */
export interface RuntimeSource {
  /** Plain file name; `.h` files go to `runtime/include/`, everything else to `runtime/src/`. */
  readonly name: string;
  readonly content: string;
}

/** A pool as a backend runtime's registration call sees it. */
export interface RuntimePool {
  readonly name: string;
  readonly kind: 'workspace' | 'constant';
  /** C expression of the pool's base address (`uint8_t*`). */
  readonly base: string;
  readonly sizeBytes: number;
  /** What the backend's target may do in the pool. */
  readonly access: 'rw' | 'ro';
}

/** A backend's contribution to the C of the functions offloaded to its target. */
export interface BackendCodegenHook {
  readonly target: string;
  /**
   * C text placed at the top of the target's source file, typically `#include "kernels.h"`.
   * The externs its functions call are then declared by that text, not inferred.
   */
  readonly includes: string;
  readonly runtimeSources?: readonly RuntimeSource[];
  /**
   * Custom C for `call_extern(name, args...)` in this target's functions; `args` are already
   * rendered C expressions. Returning undefined keeps the default `name(args...)`.
   */
  readonly replaceCallExtern?: (name: string, args: readonly string[]) => string | undefined;
  /** See `CodegenHooks.registerPool`: one C expression (0 = ok) registering a pool with the runtime. */
  readonly registerPool?: (pool: RuntimePool) => string;
}

/**
 * Where an application-owned model input/output must live because an offload target
 * touches it directly (I/O not planned in the workspace).
 */
export interface IoRequirement {
  /** Model tensor name. */
  readonly name: string;
  /** Offload targets that read or write it in place. */
  readonly usedBy: readonly string[];
  /** Pools it may live in (empty: no pool satisfies every user). */
  readonly pools: readonly string[];
}

/** The parts of a USMP result codegen needs. */
export type MemoryLayout = Pick<UsmpResult, 'pools' | 'inputs' | 'outputs'> & Partial<Pick<UsmpResult, 'algorithm'>>;

export interface GenerateCInput {
  /** Lowered (and possibly pool-rewritten) module; must contain `__tvm_main__`. */
  readonly module: TirModule;
  /** C prefix `tvmgen_<moduleName>`; default `default`. */
  readonly moduleName?: string;
  /** Model inputs and outputs in main's order. */
  readonly inputs: readonly TensorSpec[];
  readonly outputs: readonly TensorSpec[];
  /** The memory plan; absent = nothing planned, every allocation is a static array. */
  readonly memory?: MemoryLayout;
  readonly backends?: readonly BackendCodegenHook[];
  /** Application-owned I/O an offload target touches, for metadata.json. */
  readonly ioRequirements?: readonly IoRequirement[];
  /**
   * Several models in one application (run one after the other): each internal workspace
   * pool is the application's array of this name (defined once, in `uma_app.c`, sized for
   * the largest model), which the model's entry declares `extern` instead of owning it.
   */
  readonly sharedWorkspaceSymbol?: (pool: string) => string;
}

/**
 * A generated file, its path relative to its root: `codegen/host/` for model code
 * (e.g. `src/default_lib0.c`), `runtime/` for runtime files (e.g. `src/uma_ref_kernels.c`).
 */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

export interface PoolMetadata {
  readonly name: string;
  /** Field of the pools struct (external pools) or static array name (internal pools). */
  readonly cName?: string;
  readonly kind: 'workspace' | 'constant';
  readonly internal: boolean;
  readonly sizeBytes: number;
  readonly alignment: number;
  readonly targets: Readonly<Record<string, 'rw' | 'ro'>>;
  /** Base address of the pool's memory on an embedded target (pools.json `address`). */
  readonly address?: number;
  /** Targets whose runtime the generated `run` registers this pool with. */
  readonly registeredWith?: readonly string[];
}

export interface FunctionMetadata {
  readonly name: string;
  readonly symbol: string;
  readonly target: string;
  readonly file: string;
  /** Function-static arrays of allocations the planner did not place. */
  readonly workspaceSizeBytes: number;
  readonly stackSizeBytes: number;
  readonly constantSizeBytes: number;
}

export interface TensorMetadata {
  readonly name: string;
  /** Field name in the inputs/outputs struct. */
  readonly cName: string;
  readonly dtype: string;
  readonly shape: readonly number[];
  readonly sizeBytes: number;
  /** Present when the tensor lives in a workspace pool. */
  readonly pool?: string;
  readonly offset?: number;
  /**
   * Application-owned tensors an offload target touches in place: the targets and the pools
   * the application must put the tensor in (their memory, registered with those runtimes).
   */
  readonly usedBy?: readonly string[];
  readonly requiredPools?: readonly string[];
}

/** `metadata.json` of the MLF directory (schemas/metadata.schema.json). */
/** Where the C of an output directory is, relative to its root (what to compile, what to include). */
export interface OutputFilesMetadata {
  readonly includeDirs: readonly string[];
  /** Model sources (codegen/host/src), prefixed with the module name. */
  readonly modelSources: readonly string[];
  /** Model-independent sources (runtime/src): identical across compiles, link one copy per application. */
  readonly runtimeSources: readonly string[];
}

export interface MlfMetadata {
  readonly schemaVersion: 1;
  readonly modelName: string;
  readonly targets: readonly string[];
  readonly memoryPlanningAlgorithm?: string;
  readonly pools: readonly PoolMetadata[];
  readonly functions: readonly FunctionMetadata[];
  readonly inputs: readonly TensorMetadata[];
  readonly outputs: readonly TensorMetadata[];
  readonly files?: OutputFilesMetadata;
}

export interface CArtifacts {
  readonly moduleName: string;
  /** Model code, paths relative to `codegen/host/`. */
  readonly files: readonly GeneratedFile[];
  /**
   * Model-independent runtime (uma's runtime header and reference kernels, backends' runtime
   * sources), paths relative to `runtime/`: byte-identical across compiles of one uma-ts version.
   */
  readonly runtimeFiles: readonly GeneratedFile[];
  readonly metadata: MlfMetadata;
}
