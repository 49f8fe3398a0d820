/**
 * TIR: the low-level IR, shaped after TVM's `tir` (PrimFunc, Allocate, For, BufferLoad...).
 *
 * Nodes are plain immutable data tagged by `kind`. Build them with the constructors in
 * `builder.ts`, walk them with `StmtExprVisitor`, rewrite them with `StmtExprMutator`.
 * Variables are compared by identity of their `id` (unique per Var), never by name, so
 * two vars called `i` in different loops stay distinct.
 */

import { Buffer as NodeBuffer } from 'buffer';
import { GraphStructureError } from '../../errors';

export type ScalarDType =
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'uint32'
  | 'uint64'
  | 'float32'
  | 'bool'
  | 'handle'
  | 'void';

// ---------------------------------------------------------------- expressions

export interface Var {
  readonly kind: 'Var';
  readonly name: string;
  readonly dtype: ScalarDType;
  /** Unique identity; two Vars are the same variable iff their ids are equal. */
  readonly id: number;
  /** For `handle` vars that point at buffer data: the element type pointed to. */
  readonly pointee?: ScalarDType;
}

export interface IntImm {
  readonly kind: 'IntImm';
  readonly dtype: ScalarDType;
  readonly value: number;
}

export interface FloatImm {
  readonly kind: 'FloatImm';
  readonly dtype: 'float32';
  readonly value: number;
}

export interface StringImm {
  readonly kind: 'StringImm';
  readonly value: string;
}

export type BinaryOpKind =
  | 'Add'
  | 'Sub'
  | 'Mul'
  | 'Div'
  | 'FloorDiv'
  | 'FloorMod'
  | 'Min'
  | 'Max'
  | 'EQ'
  | 'NE'
  | 'LT'
  | 'LE'
  | 'GT'
  | 'GE'
  | 'And'
  | 'Or';

export interface BinaryOp {
  readonly kind: 'BinaryOp';
  readonly op: BinaryOpKind;
  readonly dtype: ScalarDType;
  readonly a: Expr;
  readonly b: Expr;
}

export interface Not {
  readonly kind: 'Not';
  readonly a: Expr;
}

/** `cond ? t : f` with both sides evaluated (as tir.Select). */
export interface Select {
  readonly kind: 'Select';
  readonly dtype: ScalarDType;
  readonly cond: Expr;
  readonly t: Expr;
  readonly f: Expr;
}

export interface Cast {
  readonly kind: 'Cast';
  readonly dtype: ScalarDType;
  readonly value: Expr;
}

export interface BufferLoad {
  readonly kind: 'BufferLoad';
  readonly buffer: Buffer;
  readonly indices: readonly Expr[];
}

/**
 * Built-in and external calls. Known ops:
 * - `tir.call_extern`: args[0] is a StringImm naming a C function, the rest its arguments
 * - `tir.tvm_call_cpacked`: as call_extern, for operator PrimFuncs called from AoT main
 * - `tir.address_of`: args[0] is a BufferLoad; yields a pointer to that element
 * - `tir.tvm_access_ptr`: (dtype StringImm, data Var, offset, extent, rw-mask)
 * - `tir.q_multiply_shift`: TFLite MultiplyByQuantizedMultiplier(x, multiplier, shift) (an int64 x:
 *   the 64-bit overload of the 16x8 kernels)
 * - `tir.if_then_else`: lazily evaluated select
 * - `tir.pool_ptr`: (pool Var, byte offset IntImm) a pointer into a memory pool; written by
 *   the USMP offset rewrite
 */
export interface Call {
  readonly kind: 'Call';
  readonly dtype: ScalarDType;
  readonly op: string;
  readonly args: readonly Expr[];
}

export type Expr =
  | Var
  | IntImm
  | FloatImm
  | StringImm
  | BinaryOp
  | Not
  | Select
  | Cast
  | BufferLoad
  | Call;

// ---------------------------------------------------------------- buffers

/** A typed, shaped view of memory reached through the handle var `data`. */
export interface Buffer {
  readonly kind: 'Buffer';
  readonly name: string;
  readonly data: Var;
  readonly dtype: ScalarDType;
  readonly shape: readonly Expr[];
  /** Element offset of the view into `data` (0 for plain buffers). */
  readonly elemOffset: number;
  readonly scope: string;
}

// ---------------------------------------------------------------- statements

/** JSON-safe annotation values (e.g. `candidate_memory_pools: ["act_mem", "l2_mem"]`). */
export type AnnotationValue =
  | string
  | number
  | boolean
  | readonly string[]
  | readonly number[]
  | { readonly [key: string]: AnnotationValue };
export type Annotations = Readonly<Record<string, AnnotationValue>>;

/** Well-known annotation keys. */
export const ANN_CANDIDATE_POOLS = 'candidate_memory_pools';
export const ANN_INPUT_TENSOR = 'input_tensor';
export const ANN_OUTPUT_TENSOR = 'output_tensor';
/**
 * On a model I/O Allocate: the model outputs (named as ANN_OUTPUT_TENSOR names them) that
 * copied this tensor and are served from its bytes (usmp/ioAliases.ts).
 */
export const ANN_OUTPUT_ALIASES = 'output_aliases';

/** The outputs an I/O Allocate also serves (ANN_OUTPUT_ALIASES; none when absent). */
export function outputAliasesOf(annotations: Annotations): readonly string[] {
  const v = annotations[ANN_OUTPUT_ALIASES];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}
/**
 * On a persistent Allocate: the byte every byte of it starts with (TFLite Micro resets an int8
 * variable tensor to its zero point with memset); absent = zero.
 */
export const ANN_FILL_BYTE = 'uma.fill_byte';

/**
 * On a persistent Allocate: its initial contents, base64 of the raw little-endian bytes (a
 * resource variable's value after TFLite's CALL_ONCE init); takes the place of `uma.fill_byte`.
 */
export const ANN_INITIAL_BYTES = 'uma.initial_bytes';

/** The bytes `uma.initial_bytes` holds, checked against the allocation's size; undefined when absent. */
export function initialBytesOf(s: Allocate, bytes: number): Uint8Array | undefined {
  const ann = s.annotations[ANN_INITIAL_BYTES];
  if (ann === undefined) return undefined;
  const data = typeof ann === 'string' ? new Uint8Array(NodeBuffer.from(ann, 'base64')) : undefined;
  if (data === undefined || data.length !== bytes) {
    throw new GraphStructureError(`allocation ${s.bufferVar.name}: ${ANN_INITIAL_BYTES} must be base64 of its ${bytes} bytes`, { buffer: s.bufferVar.name });
  }
  return data;
}

/**
 * Storage scope of an Allocate whose contents must survive between runs of the program
 * (a model's variable tensors, e.g. SVDF state, resource variables): never planned into a
 * workspace pool, emitted as a `static` array (zero, `uma.fill_byte` or `uma.initial_bytes`
 * initialised), written in place by the operators.
 */
export const PERSISTENT_SCOPE = 'persistent';

export interface Allocate {
  readonly kind: 'Allocate';
  /** The handle var the body uses to reach the allocation. */
  readonly bufferVar: Var;
  readonly dtype: ScalarDType;
  readonly extents: readonly Expr[];
  readonly condition: Expr;
  readonly storageScope: string;
  readonly annotations: Annotations;
  readonly body: Stmt;
}

/** Constant data bound to a handle var (weights); `data` is raw little-endian bytes. */
export interface AllocateConst {
  readonly kind: 'AllocateConst';
  readonly bufferVar: Var;
  readonly dtype: ScalarDType;
  readonly extents: readonly Expr[];
  readonly data: Uint8Array;
  readonly annotations: Annotations;
  readonly body: Stmt;
}

export interface DeclBuffer {
  readonly kind: 'DeclBuffer';
  readonly buffer: Buffer;
  readonly body: Stmt;
}

export type ForKind = 'serial' | 'parallel' | 'unrolled' | 'vectorized';

export interface For {
  readonly kind: 'For';
  readonly loopVar: Var;
  readonly min: Expr;
  readonly extent: Expr;
  readonly forKind: ForKind;
  readonly annotations: Annotations;
  readonly body: Stmt;
}

export interface SeqStmt {
  readonly kind: 'SeqStmt';
  readonly seq: readonly Stmt[];
}

export interface LetStmt {
  readonly kind: 'LetStmt';
  readonly var: Var;
  readonly value: Expr;
  readonly body: Stmt;
}

export interface IfThenElse {
  readonly kind: 'IfThenElse';
  readonly condition: Expr;
  readonly then: Stmt;
  readonly else?: Stmt;
}

export interface BufferStore {
  readonly kind: 'BufferStore';
  readonly buffer: Buffer;
  readonly value: Expr;
  readonly indices: readonly Expr[];
}

export interface Evaluate {
  readonly kind: 'Evaluate';
  readonly value: Expr;
}

export type Stmt =
  | Allocate
  | AllocateConst
  | DeclBuffer
  | For
  | SeqStmt
  | LetStmt
  | IfThenElse
  | BufferStore
  | Evaluate;

export type Node = Expr | Stmt | Buffer;

// ---------------------------------------------------------------- functions and module

export type FuncAttrValue = string | number | boolean | readonly string[];

/**
 * On main: the graph tensor each param holds (inputs, then outputs), so pins and reports can
 * name model I/O as the model does, not only by its C name.
 */
export const ATTR_PARAM_TENSORS = 'uma.param_tensors';

export interface PrimFuncAttrs {
  readonly global_symbol?: string;
  /** Target that runs this function; absent or `c` = host CPU. */
  readonly target?: string;
  readonly 'tir.noalias'?: boolean;
  /** Marks the AoT entry function. */
  readonly runner_function?: boolean;
  readonly [key: string]: FuncAttrValue | undefined;
}

export interface PrimFunc {
  readonly kind: 'PrimFunc';
  /** Parameters: handle vars for tensors (and pools after USMP), scalars otherwise. */
  readonly params: readonly Var[];
  /** Buffer views of handle params. */
  readonly bufferMap: ReadonlyArray<readonly [Var, Buffer]>;
  readonly body: Stmt;
  readonly attrs: PrimFuncAttrs;
}

export interface TirModule {
  /** PrimFuncs by global name. The AoT entry is `MAIN_PRIM_FUNC`. */
  readonly functions: ReadonlyMap<string, PrimFunc>;
}

export const MAIN_PRIM_FUNC = '__tvm_main__';
