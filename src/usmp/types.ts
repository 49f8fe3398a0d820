import type { PlanOptimality } from './optimality';

/**
 * The data the unified static memory planner works on (RFC 0009): pools, buffer infos,
 * pool allocations. The planner sees only these; it knows nothing about TIR. Extraction
 * (TIR -> BufferInfo) and the offset rewrite (PoolAllocation -> TIR) are the only bridges.
 */

export type PoolKind = 'workspace' | 'constant';
export type PoolAccess = 'rw' | 'ro';

export interface PoolInfo {
  readonly name: string;
  readonly kind: PoolKind;
  /** Targets that can reach this pool, with their access mode. */
  readonly targetAccess: Readonly<Record<string, PoolAccess>>;
  /** Hard cap on the pool size in bytes; absent = unlimited. */
  readonly sizeHintBytes?: number;
  /** Every buffer placed here starts at a multiple of this (bytes). */
  readonly alignment: number;
  /**
   * Internal pools are owned by the generated code (static arrays); external ones are
   * supplied by the application through the workspace/constant pool struct.
   */
  readonly internal: boolean;
  // Performance fields, carried through to metadata and reports (as TVM's PoolInfo).
  readonly clockFrequencyHz?: number;
  readonly readBandwidthBytesPerCycle?: number;
  readonly writeBandwidthBytesPerCycle?: number;
  readonly readLatencyCycles?: number;
  readonly writeLatencyCycles?: number;
  readonly targetBurstBytes?: Readonly<Record<string, number>>;
  /**
   * Base address of the pool's memory region on an embedded target: `uma-ts run --target
   * cortex-m55` links the pool's section there. Absent = the target picks a memory.
   */
  readonly address?: number;
}

/** Default alignment of a planned buffer: 16 bytes suits SIMD loads on Cortex-M/A (TVM uses 1 unless a pool sets it). */
export const DEFAULT_ALIGNMENT = 16;

export interface BufferInfo {
  /** Unique name (repeated TIR names are made unique at extraction). */
  readonly name: string;
  readonly sizeBytes: number;
  readonly alignment: number;
  /** Candidate pools, in preference order; the planner falls back along this list. */
  readonly poolCandidates: readonly PoolInfo[];
  /**
   * Names of buffers live at the same time as this one. Directional and may contain
   * repeats, exactly as TVM's extraction produces them; planners must not symmetrize.
   */
  readonly conflicts: readonly string[];
  readonly kind: PoolKind;
  /** Inclusive [first, last] statement index of the liveness interval, when known. */
  readonly liveRange?: readonly [number, number];
  /** PrimFunc whose statement allocates it, and that function's target (for reports). */
  readonly func?: string;
  readonly target?: string;
}

export interface PoolAllocation {
  readonly pool: string;
  readonly offset: number;
}

export type BufferPlan = ReadonlyMap<string, PoolAllocation>;

/** Options every planning algorithm receives. */
export interface PlanningOptions {
  /** Wall-clock budget for searching planners, in ms. */
  readonly timeBudgetMs?: number;
  /** Seed for randomised planners; same seed, same plan. */
  readonly seed?: number;
}

/**
 * A memory planning algorithm, as RFC 0009's `(buffers, memory pressure) -> allocations`.
 * Must place every buffer or throw a MemoryPlanningError.
 */
export type PlanningAlgorithm = (
  buffers: readonly BufferInfo[],
  memoryPressure: number,
  options?: PlanningOptions,
) => BufferPlan;

/** A pool as planned: its final size and, for constant pools, its initial contents. */
export interface PlannedPool {
  readonly pool: PoolInfo;
  readonly sizeBytes: number;
  /**
   * Where its last buffer ends: sizeBytes before rounding up to the pool's alignment, so the
   * smallest size limit the plan meets (a limit caps the rounding).
   */
  readonly usedBytes?: number;
  /** Constant pools only: the bytes to initialise the pool with (length = sizeBytes). */
  readonly data?: Uint8Array;
}

/** Where a model input/output lives when I/O is planned into the workspace (U4). */
export interface IoPlacement {
  readonly name: string;
  readonly pool: string;
  readonly offset: number;
  readonly sizeBytes: number;
}

export interface UnplannedAllocate {
  readonly func: string;
  readonly name: string;
  readonly reason: string;
}

/**
 * What the USMP pipeline hands to codegen and reports. `pools` is in the order of the extra
 * pool params every rewritten PrimFunc takes.
 */
export interface UsmpResult<M = unknown> {
  readonly module: M;
  readonly algorithm: string;
  readonly pools: readonly PlannedPool[];
  readonly buffers: readonly BufferInfo[];
  readonly plan: BufferPlan;
  /**
   * Constants left out of `buffers` because a planned constant holds the same bytes, by name,
   * to that constant's name (they share its place; identicalConstants.ts).
   */
  readonly sameAs?: ReadonlyMap<string, string>;
  readonly memoryPressure: number;
  readonly unplanned: readonly UnplannedAllocate[];
  readonly inputs: readonly IoPlacement[];
  readonly outputs: readonly IoPlacement[];
  /** Proven optimal, or the gap to the best proven lower bound on the total of all pools. */
  readonly optimality?: PlanOptimality;
}
