/**
 * A small TFLite model writer (`schema.fbs`, identifier `TFL3`, schema version 3) on the
 * `flatbuffers` builder: one subgraph of tensors and builtin/custom operators. Tests and
 * the bench build single-op and multi-op models with it; users can script models without
 * TensorFlow.
 *
 * ```ts
 * const w = new TfliteWriter();
 * const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'int8', quant: { scale: [0.5], zeroPoint: [-1] } });
 * const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'int8', quant: { scale: [0.5], zeroPoint: [-1] } });
 * w.addOperator({ op: 'ADD', inputs: [x, x], outputs: [y], options: tfliteOptions.add() });
 * w.markOutput(y);
 * const bytes = w.finish();
 * ```
 *
 * Field ids follow the schema's declaration order (a union takes two ids: type, value), as
 * in `schema.ts`. Constant data is stored 16-byte aligned, as TensorFlow's converter does.
 */
import { Builder } from 'flatbuffers';
import { builder as flexBuilder } from 'flatbuffers/js/flexbuffers';
import { ModelFormatError } from '../../errors';
import { builtinOperatorName } from './builtinOperators';
import { BuiltinOptionsType, TensorTypeCode, TFLITE_FILE_IDENTIFIER } from './schema';

/**
 * Tensor element types the writer can declare (the graph IR's dtypes plus float16/float64/
 * uint16/uint32/uint64, and int4: two values a byte, the low nibble first, as TFLite packs weights).
 */
export type WriterDType =
  | 'float32'
  | 'float16'
  | 'float64'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64'
  | 'bool'
  | 'resource'
  | 'int4';

const TYPE_CODES: Readonly<Record<WriterDType, number>> = {
  float32: TensorTypeCode.FLOAT32,
  float16: TensorTypeCode.FLOAT16,
  float64: TensorTypeCode.FLOAT64,
  int8: TensorTypeCode.INT8,
  uint8: TensorTypeCode.UINT8,
  int16: TensorTypeCode.INT16,
  uint16: TensorTypeCode.UINT16,
  int32: TensorTypeCode.INT32,
  uint32: TensorTypeCode.UINT32,
  int64: TensorTypeCode.INT64,
  uint64: TensorTypeCode.UINT64,
  bool: TensorTypeCode.BOOL,
  resource: TensorTypeCode.RESOURCE,
  int4: TensorTypeCode.INT4,
};

const ELEMENT_BYTES: Readonly<Record<WriterDType, number>> = {
  float32: 4,
  float16: 2,
  float64: 8,
  int8: 1,
  uint8: 1,
  int16: 2,
  uint16: 2,
  int32: 4,
  uint32: 4,
  int64: 8,
  uint64: 8,
  bool: 1,
  // A resource handle (VAR_HANDLE's output) carries no data in the file.
  resource: 0,
  int4: 0.5,
};

/** Per-tensor (one scale) or per-channel (one scale per slice of `axis`) quantization. */
export interface WriterQuantization {
  readonly scale: readonly number[];
  /** Defaults to 0 for every scale. */
  readonly zeroPoint?: readonly number[];
  /** `quantized_dimension`; default 0. */
  readonly axis?: number;
  readonly min?: readonly number[];
  readonly max?: readonly number[];
}

/** Constant values: raw little-endian bytes, a typed array (its bytes), or numbers encoded as the tensor's dtype. */
export type WriterData = Uint8Array | ArrayBufferView | readonly number[] | readonly bigint[];

export interface WriterTensor {
  readonly name?: string;
  readonly shape: readonly number[];
  readonly dtype: WriterDType;
  readonly quant?: WriterQuantization;
  /** Constant contents; absent = an activation tensor (buffer 0). */
  readonly data?: WriterData;
  readonly isVariable?: boolean;
  /** `shape_signature` (-1 = dynamic dimension); omitted when absent. */
  readonly shapeSignature?: readonly number[];
  /** A constant without `data` of its own that uses the buffer of this earlier tensor of its subgraph (the converter's deduplicated buffers). */
  readonly bufferOf?: number;
}

/** One SignatureDef: a key, its subgraph and its input/output names mapped to that subgraph's tensor indices. */
export interface WriterSignatureDef {
  readonly key: string;
  readonly subgraphIndex: number;
  readonly inputs: Readonly<Record<string, number>>;
  readonly outputs: Readonly<Record<string, number>>;
}

/**
 * One `BuiltinOptions` union value: its type index (`BUILTIN_OPTIONS`) and a function that
 * writes the table with the builder and returns its offset. Nested vectors must be created
 * inside `write` before `startObject` (flatbuffers forbids nesting).
 */
export interface WriterOptions {
  readonly type: number;
  readonly write: (b: Builder) => number;
}

export interface WriterOperator {
  /** BuiltinOperator name (`'CONV_2D'`) or value; `'CUSTOM'` needs `customCode`. */
  readonly op: string | number;
  readonly customCode?: string;
  /** Operator version in `operator_codes`; default 1. */
  readonly version?: number;
  /** Tensor indices; -1 for an omitted optional input. */
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly options?: WriterOptions;
  readonly customOptions?: Uint8Array;
  readonly intermediates?: readonly number[];
}

/** `BuiltinOptions` union member indices (0 = NONE): the schema's one table. */
export const BUILTIN_OPTIONS = BuiltinOptionsType;

/** `enum ActivationFunctionType`. */
export type WriterActivation = 'NONE' | 'RELU' | 'RELU_N1_TO_1' | 'RELU6' | 'TANH' | 'SIGN_BIT';
const ACTIVATIONS: readonly WriterActivation[] = ['NONE', 'RELU', 'RELU_N1_TO_1', 'RELU6', 'TANH', 'SIGN_BIT'];
const act = (a: WriterActivation | undefined): number => ACTIVATIONS.indexOf(a ?? 'NONE');
const padCode = (p: 'SAME' | 'VALID' | undefined): number => (p === 'VALID' ? 1 : 0);

/** Writes a table of scalar fields; `fields[i]` is field id i (undefined = absent). */
type Scalar = { kind: 'i8' | 'i32' | 'f32' | 'bool'; value: number | boolean } | { kind: 'offset'; value: number };
function scalarTable(b: Builder, fields: readonly (Scalar | undefined)[]): number {
  b.startObject(fields.length);
  fields.forEach((f, id) => {
    if (!f) return;
    switch (f.kind) {
      case 'i8':
        b.addFieldInt8(id, Number(f.value), Number(f.value) === 0 ? 1 : 0);
        break;
      case 'bool':
        b.addFieldInt8(id, f.value ? 1 : 0, f.value ? 0 : 1);
        break;
      case 'i32':
        b.addFieldInt32(id, Number(f.value), Number(f.value) === 0 ? 1 : 0);
        break;
      case 'f32':
        b.addFieldFloat32(id, Number(f.value), Number(f.value) === 0 ? 1 : 0);
        break;
      case 'offset':
        b.addFieldOffset(id, f.value, 0);
        break;
    }
  });
  return b.endObject();
}
const i8 = (value: number): Scalar => ({ kind: 'i8', value });
const i32 = (value: number): Scalar => ({ kind: 'i32', value });
const f32 = (value: number): Scalar => ({ kind: 'f32', value });
const bool = (value: boolean): Scalar => ({ kind: 'bool', value });

function options(type: number, fields: (b: Builder) => readonly (Scalar | undefined)[]): WriterOptions {
  return { type, write: (b) => scalarTable(b, fields(b)) };
}

function int32VectorOf(b: Builder, values: readonly number[]): number {
  b.startVector(4, values.length, 4);
  for (let i = values.length - 1; i >= 0; i--) b.addInt32(values[i]);
  return b.endVector();
}

/**
 * Typed builders of the common options tables. Every field is written explicitly (also
 * defaults), so a reader's default handling is not what a test exercises by accident.
 */
export const tfliteOptions = {
  /** An options table with no fields (PadOptions, TransposeOptions, ...). */
  empty(type: number): WriterOptions {
    return options(type, () => []);
  },
  conv2d(o: { padding?: 'SAME' | 'VALID'; strideW?: number; strideH?: number; activation?: WriterActivation; dilationW?: number; dilationH?: number } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.Conv2DOptions, () => [
      i8(padCode(o.padding)),
      i32(o.strideW ?? 1),
      i32(o.strideH ?? 1),
      i8(act(o.activation)),
      i32(o.dilationW ?? 1),
      i32(o.dilationH ?? 1),
    ]);
  },
  depthwiseConv2d(
    o: { padding?: 'SAME' | 'VALID'; strideW?: number; strideH?: number; depthMultiplier?: number; activation?: WriterActivation; dilationW?: number; dilationH?: number } = {},
  ): WriterOptions {
    return options(BUILTIN_OPTIONS.DepthwiseConv2DOptions, () => [
      i8(padCode(o.padding)),
      i32(o.strideW ?? 1),
      i32(o.strideH ?? 1),
      i32(o.depthMultiplier ?? 1),
      i8(act(o.activation)),
      i32(o.dilationW ?? 1),
      i32(o.dilationH ?? 1),
    ]);
  },
  pool2d(o: { padding?: 'SAME' | 'VALID'; strideW?: number; strideH?: number; filterW: number; filterH: number; activation?: WriterActivation }): WriterOptions {
    return options(BUILTIN_OPTIONS.Pool2DOptions, () => [
      i8(padCode(o.padding)),
      i32(o.strideW ?? 1),
      i32(o.strideH ?? 1),
      i32(o.filterW),
      i32(o.filterH),
      i8(act(o.activation)),
    ]);
  },
  fullyConnected(o: { activation?: WriterActivation; keepNumDims?: boolean; asymmetricQuantizeInputs?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.FullyConnectedOptions, () => [
      i8(act(o.activation)),
      i8(0),
      bool(o.keepNumDims ?? false),
      o.asymmetricQuantizeInputs === undefined ? undefined : bool(o.asymmetricQuantizeInputs),
    ]);
  },
  softmax(beta = 1): WriterOptions {
    return options(BUILTIN_OPTIONS.SoftmaxOptions, () => [f32(beta)]);
  },
  svdf(o: { rank: number; activation?: WriterActivation }): WriterOptions {
    return options(BUILTIN_OPTIONS.SVDFOptions, () => [i32(o.rank), i8(act(o.activation))]);
  },
  reshape(newShape?: readonly number[]): WriterOptions {
    return {
      type: BUILTIN_OPTIONS.ReshapeOptions,
      write: (b) => {
        const shape = newShape ? int32VectorOf(b, newShape) : 0;
        return scalarTable(b, [shape ? { kind: 'offset', value: shape } : undefined]);
      },
    };
  },
  add(activation?: WriterActivation, potScaleInt16?: boolean): WriterOptions {
    return options(BUILTIN_OPTIONS.AddOptions, () => [i8(act(activation)), potScaleInt16 === undefined ? undefined : bool(potScaleInt16)]);
  },
  sub(activation?: WriterActivation, potScaleInt16?: boolean): WriterOptions {
    return options(BUILTIN_OPTIONS.SubOptions, () => [i8(act(activation)), potScaleInt16 === undefined ? undefined : bool(potScaleInt16)]);
  },
  mul(activation?: WriterActivation): WriterOptions {
    return options(BUILTIN_OPTIONS.MulOptions, () => [i8(act(activation))]);
  },
  div(activation?: WriterActivation): WriterOptions {
    return options(BUILTIN_OPTIONS.DivOptions, () => [i8(act(activation))]);
  },
  concatenation(axis: number, activation?: WriterActivation): WriterOptions {
    return options(BUILTIN_OPTIONS.ConcatenationOptions, () => [i32(axis), i8(act(activation))]);
  },
  stridedSlice(o: { beginMask?: number; endMask?: number; ellipsisMask?: number; newAxisMask?: number; shrinkAxisMask?: number; offset?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.StridedSliceOptions, () => [
      i32(o.beginMask ?? 0),
      i32(o.endMask ?? 0),
      i32(o.ellipsisMask ?? 0),
      i32(o.newAxisMask ?? 0),
      i32(o.shrinkAxisMask ?? 0),
      bool(o.offset ?? false),
    ]);
  },
  split(numSplits: number): WriterOptions {
    return options(BUILTIN_OPTIONS.SplitOptions, () => [i32(numSplits)]);
  },
  splitV(numSplits: number): WriterOptions {
    return options(BUILTIN_OPTIONS.SplitVOptions, () => [i32(numSplits)]);
  },
  pack(valuesCount: number, axis: number): WriterOptions {
    return options(BUILTIN_OPTIONS.PackOptions, () => [i32(valuesCount), i32(axis)]);
  },
  unpack(num: number, axis: number): WriterOptions {
    return options(BUILTIN_OPTIONS.UnpackOptions, () => [i32(num), i32(axis)]);
  },
  squeeze(dims: readonly number[]): WriterOptions {
    return {
      type: BUILTIN_OPTIONS.SqueezeOptions,
      write: (b) => {
        const v = int32VectorOf(b, dims);
        return scalarTable(b, [{ kind: 'offset', value: v }]);
      },
    };
  },
  /** MIRROR_PAD mode: REFLECT (0) or SYMMETRIC (1). */
  mirrorPad(mode: 'REFLECT' | 'SYMMETRIC'): WriterOptions {
    return options(BUILTIN_OPTIONS.MirrorPadOptions, () => [i8(mode === 'SYMMETRIC' ? 1 : 0)]);
  },
  /** MEAN, SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_PROD. */
  reducer(keepDims: boolean): WriterOptions {
    return options(BUILTIN_OPTIONS.ReducerOptions, () => [bool(keepDims)]);
  },
  leakyRelu(alpha: number): WriterOptions {
    return options(BUILTIN_OPTIONS.LeakyReluOptions, () => [f32(alpha)]);
  },
  gather(axis: number, batchDims = 0): WriterOptions {
    return options(BUILTIN_OPTIONS.GatherOptions, () => [i32(axis), i32(batchDims)]);
  },
  transposeConv(o: { padding?: 'SAME' | 'VALID'; strideW?: number; strideH?: number; activation?: WriterActivation } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.TransposeConvOptions, () => [i8(padCode(o.padding)), i32(o.strideW ?? 1), i32(o.strideH ?? 1), i8(act(o.activation))]);
  },
  batchMatMul(o: { adjX?: boolean; adjY?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.BatchMatMulOptions, () => [bool(o.adjX ?? false), bool(o.adjY ?? false)]);
  },
  resizeBilinear(o: { alignCorners?: boolean; halfPixelCenters?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.ResizeBilinearOptions, () => [undefined, undefined, bool(o.alignCorners ?? false), bool(o.halfPixelCenters ?? false)]);
  },
  resizeNearestNeighbor(o: { alignCorners?: boolean; halfPixelCenters?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.ResizeNearestNeighborOptions, () => [bool(o.alignCorners ?? false), bool(o.halfPixelCenters ?? false)]);
  },
  depthToSpace(blockSize: number): WriterOptions {
    return options(BUILTIN_OPTIONS.DepthToSpaceOptions, () => [i32(blockSize)]);
  },
  spaceToDepth(blockSize: number): WriterOptions {
    return options(BUILTIN_OPTIONS.SpaceToDepthOptions, () => [i32(blockSize)]);
  },
  /** ARG_MAX / ARG_MIN output type (int32 or int64). */
  argMax(outputType: 'int32' | 'int64' = 'int32'): WriterOptions {
    return options(BUILTIN_OPTIONS.ArgMaxOptions, () => [i8(TYPE_CODES[outputType])]);
  },
  argMin(outputType: 'int32' | 'int64' = 'int32'): WriterOptions {
    return options(BUILTIN_OPTIONS.ArgMinOptions, () => [i8(TYPE_CODES[outputType])]);
  },
  cast(inType: WriterDType, outType: WriterDType): WriterOptions {
    return options(BUILTIN_OPTIONS.CastOptions, () => [i8(TYPE_CODES[inType]), i8(TYPE_CODES[outType])]);
  },
  /** SHAPE's output type (TFLite Micro writes int32 only). */
  shape(outType: 'int32' | 'int64' = 'int32'): WriterOptions {
    return options(BUILTIN_OPTIONS.ShapeOptions, () => [i8(TYPE_CODES[outType])]);
  },
  cumsum(o: { exclusive?: boolean; reverse?: boolean } = {}): WriterOptions {
    return options(BUILTIN_OPTIONS.CumsumOptions, () => [bool(o.exclusive ?? false), bool(o.reverse ?? false)]);
  },
  unidirectionalSequenceLstm(
    o: { activation?: WriterActivation; cellClip?: number; projClip?: number; timeMajor?: boolean; asymmetricQuantizeInputs?: boolean } = {},
  ): WriterOptions {
    return options(BUILTIN_OPTIONS.UnidirectionalSequenceLSTMOptions, () => [
      i8(act(o.activation ?? 'TANH')),
      f32(o.cellClip ?? 0),
      f32(o.projClip ?? 0),
      bool(o.timeMajor ?? false),
      bool(o.asymmetricQuantizeInputs ?? false),
    ]);
  },
  /** VAR_HANDLE: the resource variable `sharedName` of `container` (absent = none written). */
  varHandle(o: { sharedName: string; container?: string }): WriterOptions {
    return {
      type: BUILTIN_OPTIONS.VarHandleOptions,
      write: (b) => {
        const container = o.container !== undefined ? b.createString(o.container) : 0;
        const sharedName = b.createString(o.sharedName);
        return scalarTable(b, [container ? { kind: 'offset', value: container } : undefined, { kind: 'offset', value: sharedName }]);
      },
    };
  },
  /** CALL_ONCE of subgraph `initSubgraphIndex` (TFLite runs it on the first invocation only). */
  callOnce(initSubgraphIndex: number): WriterOptions {
    return options(BUILTIN_OPTIONS.CallOnceOptions, () => [i32(initSubgraphIndex)]);
  },
  /** WHILE: runs subgraph `body` on the loop values while subgraph `cond` returns true. */
  while(o: { cond: number; body: number }): WriterOptions {
    return options(BUILTIN_OPTIONS.WhileOptions, () => [i32(o.cond), i32(o.body)]);
  },
  /** IF: runs subgraph `then` when input 0 is true, else subgraph `else`, on the other inputs. */
  if(o: { then: number; else: number }): WriterOptions {
    return options(BUILTIN_OPTIONS.IfOptions, () => [i32(o.then), i32(o.else)]);
  },
};

/** One value of a custom operator's flexbuffer options map, typed as TFLite's converter writes it. */
export type FlexOption = { readonly int: number } | { readonly float: number } | { readonly bool: boolean };

/**
 * A custom operator's `custom_options` (WriterOperator.customOptions): a flexbuffer map of
 * ints, float32 floats and bools, as TFLite's converter writes them (e.g. the options of
 * TFLite_Detection_PostProcess).
 */
export function flexbufferOptions(entries: Readonly<Record<string, FlexOption>>): Uint8Array {
  const b = flexBuilder();
  b.startMap();
  for (const [key, value] of Object.entries(entries)) {
    b.addKey(key);
    if ('int' in value) b.addInt(value.int);
    else if ('float' in value) b.addFloat(Math.fround(value.float));
    else b.add(value.bool);
  }
  b.end();
  return b.finish();
}

const BUILTIN_CODES = new Map<string, number>();
for (let code = 0; code < 256; code++) {
  const name = builtinOperatorName(code);
  if (!name.startsWith('BUILTIN_')) BUILTIN_CODES.set(name, code);
}

/** The BuiltinOperator value of a name (`'CONV_2D'` → 3); throws on an unknown name. */
export function builtinOperatorCode(op: string | number): number {
  if (typeof op === 'number') return op;
  const code = BUILTIN_CODES.get(op);
  if (code === undefined) throw new ModelFormatError(`TFLite writer: unknown builtin operator ${JSON.stringify(op)}`, { op });
  return code;
}

function writerError(problem: string): ModelFormatError {
  return new ModelFormatError(`TFLite writer: ${problem}`, {});
}

/** Values in [-8, 7] packed two a byte, element 2i in the low nibble; an odd count leaves the last high nibble 0. */
function packInt4(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(values.length / 2));
  values.forEach((v, i) => {
    if (!Number.isInteger(v) || v < -8 || v > 7) throw writerError(`int4 value ${v} is outside [-8, 7]`);
    out[i >> 1] |= (v & 0xf) << ((i & 1) * 4);
  });
  return out;
}

/** The little-endian bytes of constant `data` for a tensor of `dtype` with `count` elements. */
export function encodeTensorData(data: WriterData, dtype: WriterDType, count: number, name: string): Uint8Array {
  const size = ELEMENT_BYTES[dtype];
  let bytes: Uint8Array;
  if (data instanceof Uint8Array) {
    bytes = data;
  } else if (ArrayBuffer.isView(data)) {
    bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  } else {
    // Typed-array constructors convert a whole list at once (little-endian hosts, as Node runs on).
    const values = data as readonly (number | bigint)[];
    const numbers = (): number[] => values.map(Number);
    let typed: ArrayBufferView;
    switch (dtype) {
      case 'float32':
        typed = Float32Array.from(numbers());
        break;
      case 'float64':
        typed = Float64Array.from(numbers());
        break;
      case 'int8':
        typed = Int8Array.from(numbers());
        break;
      case 'uint8':
        typed = Uint8Array.from(numbers());
        break;
      case 'bool':
        typed = Uint8Array.from(values, (v) => (v ? 1 : 0));
        break;
      case 'int16':
        typed = Int16Array.from(numbers());
        break;
      case 'uint16':
      case 'float16':
        typed = Uint16Array.from(numbers());
        break;
      case 'int32':
        typed = Int32Array.from(numbers());
        break;
      case 'uint32':
        typed = Uint32Array.from(numbers());
        break;
      case 'int64':
        typed = BigInt64Array.from(values, (v) => BigInt(v));
        break;
      case 'uint64':
        typed = BigUint64Array.from(values, (v) => BigInt(v));
        break;
      case 'resource':
        throw writerError(`tensor '${name}' is a resource handle and cannot hold constant data`);
      case 'int4':
        typed = packInt4(numbers());
        break;
    }
    bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
  }
  const needed = Math.ceil(count * size);
  if (bytes.length !== needed) {
    throw writerError(`tensor '${name}' has ${bytes.length} data bytes, its ${count} ${dtype} elements need ${needed}`);
  }
  return bytes;
}

interface OpCodeKey {
  readonly builtin: number;
  readonly custom?: string;
  readonly version: number;
}

/** One subgraph's tensors, operators and I/O, in execution order. */
export class TfliteSubgraphWriter {
  readonly tensors: WriterTensor[] = [];
  readonly operators: WriterOperator[] = [];
  readonly inputs: number[] = [];
  readonly outputs: number[] = [];

  constructor(
    readonly name: string,
    /** Position in the model's subgraph list (0 = the entry subgraph). */
    readonly index: number,
  ) {}

  get tensorCount(): number {
    return this.tensors.length;
  }

  /** Adds a tensor and returns its index. */
  addTensor(t: WriterTensor): number {
    if (t.shape.some((d) => !Number.isInteger(d) || d < 0)) throw writerError(`tensor '${t.name ?? ''}' has an invalid shape [${t.shape}]`);
    this.tensors.push(t);
    return this.tensors.length - 1;
  }

  /** Adds a tensor and lists it as a subgraph input. */
  addInput(t: WriterTensor): number {
    const i = this.addTensor(t);
    this.inputs.push(i);
    return i;
  }

  /** Adds a constant tensor (`data` required). */
  addConstant(t: WriterTensor & { data: WriterData }): number {
    return this.addTensor(t);
  }

  markInput(index: number): void {
    this.inputs.push(index);
  }

  markOutput(index: number): void {
    this.outputs.push(index);
  }

  /** Appends an operator (execution order = call order); returns its index. */
  addOperator(op: WriterOperator): number {
    for (const i of [...op.inputs, ...op.outputs, ...(op.intermediates ?? [])]) {
      if (i !== -1 && !(Number.isInteger(i) && i >= 0 && i < this.tensors.length)) {
        throw writerError(`operator #${this.operators.length} refers to tensor ${i} of ${this.tensors.length}`);
      }
    }
    builtinOperatorCode(op.op);
    this.operators.push(op);
    return this.operators.length - 1;
  }
}

/**
 * Builds one model: add tensors and operators in execution order, mark I/O, then `finish()`.
 * The writer's own methods build subgraph 0; `addSubgraph` adds more (a CALL_ONCE init
 * subgraph, ...), written in the order they were added.
 */
export class TfliteWriter {
  private readonly subgraphs: TfliteSubgraphWriter[];
  private readonly metadata: { name: string; data: Uint8Array }[] = [];
  private readonly signatureDefs: WriterSignatureDef[] = [];

  constructor(
    readonly description = 'uma-ts TfliteWriter',
    readonly subgraphName = 'main',
  ) {
    this.subgraphs = [new TfliteSubgraphWriter(subgraphName, 0)];
  }

  private get main(): TfliteSubgraphWriter {
    return this.subgraphs[0];
  }

  /** A new subgraph after the ones already added; its `index` is what CALL_ONCE names. */
  addSubgraph(name = `subgraph_${this.subgraphs.length}`): TfliteSubgraphWriter {
    const sg = new TfliteSubgraphWriter(name, this.subgraphs.length);
    this.subgraphs.push(sg);
    return sg;
  }

  get tensorCount(): number {
    return this.main.tensorCount;
  }

  /** Adds a tensor and returns its index. */
  addTensor(t: WriterTensor): number {
    return this.main.addTensor(t);
  }

  /** Adds a tensor and lists it as a subgraph input. */
  addInput(t: WriterTensor): number {
    return this.main.addInput(t);
  }

  /** Adds a constant tensor (`data` required). */
  addConstant(t: WriterTensor & { data: WriterData }): number {
    return this.main.addConstant(t);
  }

  markInput(index: number): void {
    this.main.markInput(index);
  }

  markOutput(index: number): void {
    this.main.markOutput(index);
  }

  /** Appends an operator (execution order = call order); returns its index. */
  addOperator(op: WriterOperator): number {
    return this.main.addOperator(op);
  }

  /** A `metadata` entry (its bytes in a buffer of their own, also listed in `metadata_buffer`), as the converter writes min_runtime_version. */
  addMetadata(name: string, data: Uint8Array): void {
    this.metadata.push({ name, data });
  }

  /** A `signature_defs` entry. */
  addSignatureDef(sig: WriterSignatureDef): void {
    this.signatureDefs.push(sig);
  }

  /** The finished `.tflite` bytes. */
  finish(): Uint8Array {
    const b = new Builder(1024);

    // Buffers: 0 is the empty sentinel, then one per constant tensor of every subgraph (a tensor with `bufferOf` shares one), then the metadata's.
    const bufferOffsets: number[] = [scalarTable(b, [])];
    const tensorBuffers: number[][] = this.subgraphs.map((sg) =>
      sg.tensors.reduce<number[]>((acc, t) => {
        acc.push(bufferOf(t, acc));
        return acc;
      }, []),
    );
    function bufferOf(t: WriterTensor, earlier: readonly number[]): number {
      if (t.bufferOf !== undefined) {
        if (!(earlier[t.bufferOf] > 0)) throw writerError(`tensor '${t.name ?? ''}' shares the buffer of tensor ${t.bufferOf}, which is not an earlier constant`);
        return earlier[t.bufferOf];
      }
      if (t.data === undefined) return 0;
      const count = t.shape.reduce((a, d) => a * d, 1);
      const bytes = encodeTensorData(t.data, t.dtype, count, t.name ?? '');
      const vec = alignedByteVector(b, bytes, 16);
      bufferOffsets.push(scalarTable(b, [{ kind: 'offset', value: vec }]));
      return bufferOffsets.length - 1;
    }
    const metadataBuffers = this.metadata.map((m) => {
      const vec = alignedByteVector(b, m.data, 16);
      bufferOffsets.push(scalarTable(b, [{ kind: 'offset', value: vec }]));
      return bufferOffsets.length - 1;
    });

    const codes: OpCodeKey[] = [];
    const subgraphOffsets = this.subgraphs.map((sg, s) => this.writeSubgraph(b, sg, tensorBuffers[s], codes));

    const codeOffsets = codes.map((c) => {
      const custom = c.custom !== undefined ? b.createString(c.custom) : 0;
      b.startObject(4);
      // Old readers see only the int8 field; 127 = PLACEHOLDER_FOR_GREATER_OP_CODES.
      b.addFieldInt8(0, Math.min(c.builtin, 127), -1);
      if (custom) b.addFieldOffset(1, custom, 0);
      b.addFieldInt32(2, c.version, -1);
      b.addFieldInt32(3, c.builtin, -1);
      return b.endObject();
    });

    const description = b.createString(this.description);
    const codesVec = offsetVector(b, codeOffsets);
    const subgraphsVec = offsetVector(b, subgraphOffsets);
    const buffersVec = offsetVector(b, bufferOffsets);
    const metadataBufferVec = metadataBuffers.length > 0 ? int32VectorOf(b, metadataBuffers) : 0;
    const metadataVec =
      this.metadata.length > 0
        ? offsetVector(
            b,
            this.metadata.map((m, k) => {
              const name = b.createString(m.name);
              b.startObject(2);
              b.addFieldOffset(0, name, 0);
              b.addFieldInt32(1, metadataBuffers[k], 0);
              return b.endObject();
            }),
          )
        : 0;
    const tensorMaps = (entries: Readonly<Record<string, number>>): number =>
      offsetVector(
        b,
        Object.entries(entries).map(([n, index]) => {
          const name = b.createString(n);
          b.startObject(2);
          b.addFieldOffset(0, name, 0);
          b.addFieldInt32(1, index, 0);
          return b.endObject();
        }),
      );
    const signaturesVec =
      this.signatureDefs.length > 0
        ? offsetVector(
            b,
            this.signatureDefs.map((sig) => {
              const inputs = tensorMaps(sig.inputs);
              const outputs = tensorMaps(sig.outputs);
              const key = b.createString(sig.key);
              b.startObject(5);
              b.addFieldOffset(0, inputs, 0);
              b.addFieldOffset(1, outputs, 0);
              b.addFieldOffset(2, key, 0);
              b.addFieldInt32(4, sig.subgraphIndex, 0);
              return b.endObject();
            }),
          )
        : 0;
    b.startObject(8);
    b.addFieldInt32(0, 3, -1);
    b.addFieldOffset(1, codesVec, 0);
    b.addFieldOffset(2, subgraphsVec, 0);
    b.addFieldOffset(3, description, 0);
    b.addFieldOffset(4, buffersVec, 0);
    if (metadataBufferVec) b.addFieldOffset(5, metadataBufferVec, 0);
    if (metadataVec) b.addFieldOffset(6, metadataVec, 0);
    if (signaturesVec) b.addFieldOffset(7, signaturesVec, 0);
    const model = b.endObject();
    b.finish(model, TFLITE_FILE_IDENTIFIER);
    return b.asUint8Array().slice();
  }

  /** One SubGraph table; `codes` collects the operator codes all subgraphs share. */
  private writeSubgraph(b: Builder, sg: TfliteSubgraphWriter, tensorBuffer: readonly number[], codes: OpCodeKey[]): number {
    const tensorOffsets = sg.tensors.map((t, i) => this.writeTensor(b, t, i, tensorBuffer[i]));

    const opcodeIndex = sg.operators.map((op) => {
      const key: OpCodeKey = { builtin: builtinOperatorCode(op.op), custom: op.customCode, version: op.version ?? 1 };
      let k = codes.findIndex((c) => c.builtin === key.builtin && c.custom === key.custom && c.version === key.version);
      if (k < 0) k = codes.push(key) - 1;
      return k;
    });

    const operatorOffsets = sg.operators.map((op, i) => {
      const inputs = int32VectorOf(b, op.inputs);
      const outputs = int32VectorOf(b, op.outputs);
      const intermediates = op.intermediates ? int32VectorOf(b, op.intermediates) : 0;
      const opts = op.options ? op.options.write(b) : 0;
      const custom = op.customOptions ? b.createByteVector(op.customOptions) : 0;
      b.startObject(9);
      b.addFieldInt32(0, opcodeIndex[i], -1);
      b.addFieldOffset(1, inputs, 0);
      b.addFieldOffset(2, outputs, 0);
      if (op.options) {
        b.addFieldInt8(3, op.options.type, -1);
        b.addFieldOffset(4, opts, 0);
      }
      if (custom) b.addFieldOffset(5, custom, 0);
      if (intermediates) b.addFieldOffset(8, intermediates, 0);
      return b.endObject();
    });

    const subgraphName = b.createString(sg.name);
    const tensorsVec = offsetVector(b, tensorOffsets);
    const inputsVec = int32VectorOf(b, sg.inputs);
    const outputsVec = int32VectorOf(b, sg.outputs);
    const operatorsVec = offsetVector(b, operatorOffsets);
    b.startObject(5);
    b.addFieldOffset(0, tensorsVec, 0);
    b.addFieldOffset(1, inputsVec, 0);
    b.addFieldOffset(2, outputsVec, 0);
    b.addFieldOffset(3, operatorsVec, 0);
    b.addFieldOffset(4, subgraphName, 0);
    return b.endObject();
  }

  private writeTensor(b: Builder, t: WriterTensor, index: number, buffer: number): number {
    const shape = int32VectorOf(b, t.shape);
    const signature = t.shapeSignature ? int32VectorOf(b, t.shapeSignature) : 0;
    const name = b.createString(t.name ?? `tensor_${index}`);
    const quant = t.quant ? writeQuantization(b, t.quant, t.name ?? `tensor_${index}`) : 0;
    b.startObject(8);
    b.addFieldOffset(0, shape, 0);
    b.addFieldInt8(1, TYPE_CODES[t.dtype], -1);
    b.addFieldInt32(2, buffer, -1);
    b.addFieldOffset(3, name, 0);
    if (quant) b.addFieldOffset(4, quant, 0);
    if (t.isVariable) b.addFieldInt8(5, 1, 0);
    if (signature) b.addFieldOffset(7, signature, 0);
    return b.endObject();
  }
}

/**
 * A byte vector whose data starts on an `alignment` boundary, copied in one block (as the
 * builder's own createByteVector, which only aligns to 1): byte-by-byte adds take seconds
 * for a model with megabytes of weights.
 */
function alignedByteVector(b: Builder, bytes: Uint8Array, alignment: number): number {
  b.startVector(1, bytes.length, alignment);
  const inner = b as unknown as { space: number; bb: { setPosition(p: number): void; bytes(): Uint8Array } };
  inner.space -= bytes.length;
  inner.bb.setPosition(inner.space);
  inner.bb.bytes().set(bytes, inner.space);
  return b.endVector();
}

function offsetVector(b: Builder, offsets: readonly number[]): number {
  b.startVector(4, offsets.length, 4);
  for (let i = offsets.length - 1; i >= 0; i--) b.addOffset(offsets[i]);
  return b.endVector();
}

function float32VectorOf(b: Builder, values: readonly number[]): number {
  b.startVector(4, values.length, 4);
  for (let i = values.length - 1; i >= 0; i--) b.addFloat32(values[i]);
  return b.endVector();
}

function writeQuantization(b: Builder, q: WriterQuantization, name: string): number {
  const zp = q.zeroPoint ?? q.scale.map(() => 0);
  if (zp.length !== q.scale.length) throw writerError(`tensor '${name}' has ${q.scale.length} scales but ${zp.length} zero points`);
  const min = q.min ? float32VectorOf(b, q.min) : 0;
  const max = q.max ? float32VectorOf(b, q.max) : 0;
  const scale = float32VectorOf(b, q.scale);
  b.startVector(8, zp.length, 8);
  for (let i = zp.length - 1; i >= 0; i--) b.addInt64(BigInt(zp[i]));
  const zeroPoint = b.endVector();
  b.startObject(7);
  if (min) b.addFieldOffset(0, min, 0);
  if (max) b.addFieldOffset(1, max, 0);
  b.addFieldOffset(2, scale, 0);
  b.addFieldOffset(3, zeroPoint, 0);
  b.addFieldInt32(6, q.axis ?? 0, -1);
  return b.endObject();
}

/** One-call form: the whole model as data. */
export interface WriterModel {
  readonly tensors: readonly WriterTensor[];
  readonly operators: readonly WriterOperator[];
  readonly inputs: readonly number[];
  readonly outputs: readonly number[];
  readonly description?: string;
}

export function writeTflite(model: WriterModel): Uint8Array {
  const w = new TfliteWriter(model.description);
  model.tensors.forEach((t) => w.addTensor(t));
  model.operators.forEach((op) => w.addOperator(op));
  model.inputs.forEach((i) => w.markInput(i));
  model.outputs.forEach((i) => w.markOutput(i));
  return w.finish();
}
