/**
 * Accessors for the subset of the TFLite schema (`tensorflow/lite/schema/schema.fbs`,
 * file identifier `TFL3`) the importer reads. Field ids follow the schema's declaration
 * order; a union field takes two ids (`<name>_type`, then `<name>`).
 */
import { ModelFormatError } from '../../errors';
import { CheckedBuffer, CheckedTable } from './flatbuf';

export const TFLITE_FILE_IDENTIFIER = 'TFL3';
/** The schema version TFLite and TFLite Micro read (TFLITE_SCHEMA_VERSION); they refuse any other. */
export const TFLITE_SCHEMA_VERSION = 3;

/** `enum TensorType : byte`. */
export const TensorTypeCode = {
  FLOAT32: 0,
  FLOAT16: 1,
  INT32: 2,
  UINT8: 3,
  INT64: 4,
  STRING: 5,
  BOOL: 6,
  INT16: 7,
  COMPLEX64: 8,
  INT8: 9,
  FLOAT64: 10,
  COMPLEX128: 11,
  UINT64: 12,
  RESOURCE: 13,
  VARIANT: 14,
  UINT32: 15,
  UINT16: 16,
  INT4: 17,
  BFLOAT16: 18,
} as const;

/** `enum Padding : byte`. */
export const PaddingCode = { SAME: 0, VALID: 1 } as const;

/** `enum ActivationFunctionType : byte`, by value. */
export const ACTIVATION_NAMES = ['NONE', 'RELU', 'RELU_N1_TO_1', 'RELU6', 'TANH', 'SIGN_BIT'] as const;

/** Indices of the `BuiltinOptions` union members the importer reads and the writer writes (0 is NONE), in the schema's order. */
export const BuiltinOptionsType = {
  NONE: 0,
  Conv2DOptions: 1,
  DepthwiseConv2DOptions: 2,
  Pool2DOptions: 5,
  SVDFOptions: 6,
  FullyConnectedOptions: 8,
  SoftmaxOptions: 9,
  ConcatenationOptions: 10,
  AddOptions: 11,
  L2NormOptions: 12,
  ResizeBilinearOptions: 15,
  ReshapeOptions: 17,
  SpaceToDepthOptions: 19,
  MulOptions: 21,
  PadOptions: 22,
  GatherOptions: 23,
  BatchToSpaceNDOptions: 24,
  SpaceToBatchNDOptions: 25,
  TransposeOptions: 26,
  ReducerOptions: 27,
  SubOptions: 28,
  DivOptions: 29,
  SqueezeOptions: 30,
  StridedSliceOptions: 32,
  ExpOptions: 33,
  SplitOptions: 35,
  LogSoftmaxOptions: 36,
  CastOptions: 37,
  DequantizeOptions: 38,
  MaximumMinimumOptions: 39,
  ArgMaxOptions: 40,
  NegOptions: 42,
  PadV2Options: 43,
  SliceOptions: 48,
  TransposeConvOptions: 49,
  ExpandDimsOptions: 52,
  ArgMinOptions: 57,
  PackOptions: 59,
  UnpackOptions: 64,
  UnidirectionalSequenceLSTMOptions: 71,
  ResizeNearestNeighborOptions: 74,
  LeakyReluOptions: 75,
  SquaredDifferenceOptions: 76,
  MirrorPadOptions: 77,
  AbsOptions: 78,
  SplitVOptions: 79,
  QuantizeOptions: 89,
  HardSwishOptions: 91,
  IfOptions: 92,
  WhileOptions: 93,
  DepthToSpaceOptions: 94,
  BatchMatMulOptions: 101,
  BroadcastToOptions: 104,
  ShapeOptions: 55,
  ZerosLikeOptions: 67,
  FillOptions: 68,
  ReverseV2Options: 81,
  GatherNdOptions: 83,
  CumsumOptions: 102,
  CallOnceOptions: 103,
  VarHandleOptions: 111,
  ReadVariableOptions: 112,
  AssignVariableOptions: 113,
} as const;

type Make<T> = (buf: CheckedBuffer, pos: number, what: string) => T;
const make =
  <T>(ctor: new (buf: CheckedBuffer, pos: number, what: string) => T): Make<T> =>
  (buf, pos, what) =>
    new ctor(buf, pos, what);

export class OperatorCode extends CheckedTable {
  get deprecatedBuiltinCode(): number {
    return this.int8(0, 0);
  }
  get customCode(): string | null {
    return this.string(1, `custom_code of ${this.what}`);
  }
  get version(): number {
    return this.int32(2, 1);
  }
  get builtinCode(): number {
    return this.int32(3, 0);
  }
  /**
   * The operator's BuiltinOperator value. Old writers fill only the int8 field, new ones
   * only the int32 field (leaving the other 0 or the placeholder 127), so the larger wins.
   */
  get effectiveBuiltinCode(): number {
    return Math.max(this.deprecatedBuiltinCode, this.builtinCode);
  }
}

export class QuantizationParameters extends CheckedTable {
  get min(): number[] {
    return this.float32Vector(0, `min of ${this.what}`);
  }
  get max(): number[] {
    return this.float32Vector(1, `max of ${this.what}`);
  }
  get scale(): number[] {
    return this.float32Vector(2, `scale of ${this.what}`);
  }
  get zeroPoint(): bigint[] {
    return this.int64Vector(3, `zero_point of ${this.what}`);
  }
  get detailsType(): number {
    return this.uint8(4, 0);
  }
  get quantizedDimension(): number {
    return this.int32(6, 0);
  }
}

export class Tensor extends CheckedTable {
  get shape(): number[] {
    return this.int32Vector(0, `shape of ${this.what}`);
  }
  get type(): number {
    return this.int8(1, TensorTypeCode.FLOAT32);
  }
  get buffer(): number {
    return this.uint32(2, 0);
  }
  get name(): string {
    return this.string(3, `name of ${this.what}`) ?? '';
  }
  get quantization(): QuantizationParameters | null {
    return this.table(4, `quantization of ${this.what}`, make(QuantizationParameters));
  }
  get isVariable(): boolean {
    return this.bool(5, false);
  }
  /** True when the tensor is sparse (field `sparsity`), which the importer rejects. */
  get hasSparsity(): boolean {
    return this.field(6, 4) !== 0;
  }
}

export class Operator extends CheckedTable {
  get opcodeIndex(): number {
    return this.uint32(0, 0);
  }
  get inputs(): number[] {
    return this.int32Vector(1, `inputs of ${this.what}`);
  }
  get outputs(): number[] {
    return this.int32Vector(2, `outputs of ${this.what}`);
  }
  get builtinOptionsType(): number {
    return this.uint8(3, BuiltinOptionsType.NONE);
  }
  /** The options table read as `ctor`; the caller checks `builtinOptionsType` first. */
  builtinOptions<T>(ctor: new (buf: CheckedBuffer, pos: number, what: string) => T): T | null {
    return this.table(4, `builtin_options of ${this.what}`, make(ctor));
  }
  get intermediates(): number[] {
    return this.int32Vector(8, `intermediates of ${this.what}`);
  }
  /** A custom operator's options (`custom_options`, a flexbuffer for every known one); null when absent. */
  get customOptions(): Uint8Array | null {
    return this.byteVector(5, `custom_options of ${this.what}`);
  }
  /** `custom_options_format` (`CustomOptionsFormat`: 0 = FLEXBUFFERS, the only value). */
  get customOptionsFormat(): number {
    return this.int8(6, 0);
  }
}

export class SubGraph extends CheckedTable {
  get tensors(): Tensor[] {
    return this.tableVector(0, `tensor of ${this.what}`, make(Tensor));
  }
  get inputs(): number[] {
    return this.int32Vector(1, `inputs of ${this.what}`);
  }
  get outputs(): number[] {
    return this.int32Vector(2, `outputs of ${this.what}`);
  }
  get operators(): Operator[] {
    return this.tableVector(3, `operator`, make(Operator));
  }
  get name(): string {
    return this.string(4, `name of ${this.what}`) ?? '';
  }
}

export class Buffer extends CheckedTable {
  /** The buffer's bytes as a view into the file, or null when the buffer is empty. */
  get data(): Uint8Array | null {
    return this.byteVector(0, `data of ${this.what}`);
  }
  /** Offset of data stored after the FlatBuffer (models over 2 GB); 0 when unused. */
  get externalOffset(): bigint {
    return this.uint64(1, 0n);
  }
  get externalSize(): bigint {
    return this.uint64(2, 0n);
  }
}

/** A SignatureDef's name → tensor entry (`TensorMap`). */
export class TensorMap extends CheckedTable {
  get name(): string {
    return this.string(0, `name of ${this.what}`) ?? '';
  }
  get tensorIndex(): number {
    return this.uint32(1, 0);
  }
}

/** One `signature_defs` entry: a key, its subgraph and that subgraph's input/output tensors by name. */
export class SignatureDef extends CheckedTable {
  get inputs(): TensorMap[] {
    return this.tableVector(0, `${this.what} input`, make(TensorMap));
  }
  get outputs(): TensorMap[] {
    return this.tableVector(1, `${this.what} output`, make(TensorMap));
  }
  get signatureKey(): string | null {
    return this.string(2, `signature_key of ${this.what}`);
  }
  get subgraphIndex(): number {
    return this.uint32(4, 0);
  }
}

export class Model extends CheckedTable {
  /** Opens the root table, checking the `TFL3` identifier and every offset used. */
  static open(bytes: Uint8Array, source: string): Model {
    const buf = new CheckedBuffer(bytes, source);
    const root = buf.rootTablePosition(TFLITE_FILE_IDENTIFIER);
    const model = new Model(buf, root, 'model');
    if (model.version !== TFLITE_SCHEMA_VERSION) {
      throw new ModelFormatError(
        `${source}: TFLite schema version ${model.version}; TFLite and TFLite Micro read only version ${TFLITE_SCHEMA_VERSION}`,
        { file: source },
      );
    }
    return model;
  }

  get source(): string {
    return this.buf.source;
  }
  get version(): number {
    return this.uint32(0, 0);
  }
  get operatorCodes(): OperatorCode[] {
    return this.tableVector(1, 'operator_code', make(OperatorCode));
  }
  get subgraphs(): SubGraph[] {
    return this.tableVector(2, 'subgraph', make(SubGraph));
  }
  get description(): string {
    return this.string(3, 'model description') ?? '';
  }
  /**
   * Read once and kept: every constant the importer reads looks its buffer up here, and the
   * whole vector read again each time made importing n constants n^2 (5,000 distinct
   * constants: 10 s of a compile). The file's bytes do not change under a Model.
   */
  get buffers(): readonly Buffer[] {
    return (this.buffersRead ??= this.tableVector(4, 'buffer', make(Buffer)));
  }
  private buffersRead?: readonly Buffer[];
  get signatureDefs(): SignatureDef[] {
    return this.tableVector(7, 'signature def', make(SignatureDef));
  }
}

// Builtin options tables.

export class Conv2DOptions extends CheckedTable {
  get padding(): number {
    return this.int8(0, PaddingCode.SAME);
  }
  get strideW(): number {
    return this.int32(1, 0);
  }
  get strideH(): number {
    return this.int32(2, 0);
  }
  get fusedActivation(): number {
    return this.int8(3, 0);
  }
  get dilationW(): number {
    return this.int32(4, 1);
  }
  get dilationH(): number {
    return this.int32(5, 1);
  }
}

export class DepthwiseConv2DOptions extends CheckedTable {
  get padding(): number {
    return this.int8(0, PaddingCode.SAME);
  }
  get strideW(): number {
    return this.int32(1, 0);
  }
  get strideH(): number {
    return this.int32(2, 0);
  }
  get depthMultiplier(): number {
    return this.int32(3, 0);
  }
  get fusedActivation(): number {
    return this.int8(4, 0);
  }
  get dilationW(): number {
    return this.int32(5, 1);
  }
  get dilationH(): number {
    return this.int32(6, 1);
  }
}

export class Pool2DOptions extends CheckedTable {
  get padding(): number {
    return this.int8(0, PaddingCode.SAME);
  }
  get strideW(): number {
    return this.int32(1, 0);
  }
  get strideH(): number {
    return this.int32(2, 0);
  }
  get filterWidth(): number {
    return this.int32(3, 0);
  }
  get filterHeight(): number {
    return this.int32(4, 0);
  }
  get fusedActivation(): number {
    return this.int8(5, 0);
  }
}

export class FullyConnectedOptions extends CheckedTable {
  get fusedActivation(): number {
    return this.int8(0, 0);
  }
  /** 0 = DEFAULT, 1 = SHUFFLED4x16INT8. */
  get weightsFormat(): number {
    return this.int8(1, 0);
  }
  get keepNumDims(): boolean {
    return this.bool(2, false);
  }
}

export class AddOptions extends CheckedTable {
  get fusedActivation(): number {
    return this.int8(0, 0);
  }
}

export class SoftmaxOptions extends CheckedTable {
  get beta(): number {
    return this.float32(0, 0);
  }
}

export class ReshapeOptions extends CheckedTable {
  get newShape(): number[] {
    return this.int32Vector(0, `new_shape of ${this.what}`);
  }
}

export class UnidirectionalSequenceLSTMOptions extends CheckedTable {
  get fusedActivation(): number {
    return this.int8(0, 0);
  }
  get cellClip(): number {
    return this.float32(1, 0);
  }
  get projClip(): number {
    return this.float32(2, 0);
  }
  get timeMajor(): boolean {
    return this.bool(3, false);
  }
  get asymmetricQuantizeInputs(): boolean {
    return this.bool(4, false);
  }
  get diagonalRecurrentTensors(): boolean {
    return this.bool(5, false);
  }
}

export class SVDFOptions extends CheckedTable {
  get rank(): number {
    return this.int32(0, 0);
  }
  get fusedActivation(): number {
    return this.int8(1, 0);
  }
}

// Data movement options (ops-writer).

export class ConcatenationOptions extends CheckedTable {
  get axis(): number {
    return this.int32(0, 0);
  }
  get fusedActivation(): number {
    return this.int8(1, 0);
  }
}

export class StridedSliceOptions extends CheckedTable {
  get beginMask(): number {
    return this.int32(0, 0);
  }
  get endMask(): number {
    return this.int32(1, 0);
  }
  get ellipsisMask(): number {
    return this.int32(2, 0);
  }
  get newAxisMask(): number {
    return this.int32(3, 0);
  }
  get shrinkAxisMask(): number {
    return this.int32(4, 0);
  }
  /** `end` counts from `begin` (end = begin + end). */
  get offset(): boolean {
    return this.bool(5, false);
  }
}

export class SplitOptions extends CheckedTable {
  get numSplits(): number {
    return this.int32(0, 0);
  }
}

export class SplitVOptions extends CheckedTable {
  get numSplits(): number {
    return this.int32(0, 0);
  }
}

export class PackOptions extends CheckedTable {
  get valuesCount(): number {
    return this.int32(0, 0);
  }
  get axis(): number {
    return this.int32(1, 0);
  }
}

export class UnpackOptions extends CheckedTable {
  get num(): number {
    return this.int32(0, 0);
  }
  get axis(): number {
    return this.int32(1, 0);
  }
}

export class SqueezeOptions extends CheckedTable {
  get squeezeDims(): number[] {
    return this.int32Vector(0, `squeeze_dims of ${this.what}`);
  }
}

/** MirrorPadMode: REFLECT = 0, SYMMETRIC = 1. */
export class MirrorPadOptions extends CheckedTable {
  get mode(): number {
    return this.int8(0, 0);
  }
}

/** Options tables without fields (their presence is all a writer records). */
export class PadOptions extends CheckedTable {}
export class PadV2Options extends CheckedTable {}
export class TransposeOptions extends CheckedTable {}
export class SliceOptions extends CheckedTable {}
export class ReducerOptions extends CheckedTable {
  get keepDims(): boolean {
    return this.bool(0, false);
  }
}

export class TransposeConvOptions extends CheckedTable {
  get padding(): number {
    return this.int8(0, PaddingCode.SAME);
  }
  get strideW(): number {
    return this.int32(1, 0);
  }
  get strideH(): number {
    return this.int32(2, 0);
  }
  get fusedActivation(): number {
    return this.int8(3, 0);
  }
}

export class BatchMatMulOptions extends CheckedTable {
  get adjX(): boolean {
    return this.bool(0, false);
  }
  get adjY(): boolean {
    return this.bool(1, false);
  }
}

/** DepthToSpaceOptions and SpaceToDepthOptions: one field, block_size. */
export class BlockSizeOptions extends CheckedTable {
  get blockSize(): number {
    return this.int32(0, 0);
  }
}

export class GatherOptions extends CheckedTable {
  get axis(): number {
    return this.int32(0, 0);
  }
  get batchDims(): number {
    return this.int32(1, 0);
  }
}

export class ResizeNearestNeighborOptions extends CheckedTable {
  get alignCorners(): boolean {
    return this.bool(0, false);
  }
  get halfPixelCenters(): boolean {
    return this.bool(1, false);
  }
}

export class ResizeBilinearOptions extends CheckedTable {
  get alignCorners(): boolean {
    return this.bool(2, false);
  }
  get halfPixelCenters(): boolean {
    return this.bool(3, false);
  }
}

export class L2NormOptions extends CheckedTable {
  get fusedActivation(): number {
    return this.int8(0, 0);
  }
}

/** MulOptions, SubOptions, DivOptions: field 0 is the fused activation (SubOptions' pot_scale_int16 is not read). */
export class ArithmeticOptions extends CheckedTable {
  get fusedActivation(): number {
    return this.int8(0, 0);
  }
}

export class LeakyReluOptions extends CheckedTable {
  get alpha(): number {
    return this.float32(0, 0);
  }
}

export class ShapeOptions extends CheckedTable {
  /** `out_type`: a TensorType code (INT32 when absent). */
  get outType(): number {
    return this.int8(0, TensorTypeCode.INT32);
  }
}

export class CumsumOptions extends CheckedTable {
  get exclusive(): boolean {
    return this.bool(0, false);
  }
  get reverse(): boolean {
    return this.bool(1, false);
  }
}

export class CallOnceOptions extends CheckedTable {
  get initSubgraphIndex(): number {
    return this.int32(0, 0);
  }
}

/** IF: the subgraph run when the condition is true, and when it is false. */
export class IfOptions extends CheckedTable {
  get thenSubgraphIndex(): number {
    return this.int32(0, 0);
  }
  get elseSubgraphIndex(): number {
    return this.int32(1, 0);
  }
}

/** WHILE: the condition subgraph (one bool output) and the body subgraph (the next loop values). */
export class WhileOptions extends CheckedTable {
  get condSubgraphIndex(): number {
    return this.int32(0, 0);
  }
  get bodySubgraphIndex(): number {
    return this.int32(1, 0);
  }
}

export class VarHandleOptions extends CheckedTable {
  /** Null when the file leaves it out (TFLite Micro then matches any container). */
  get container(): string | null {
    return this.string(0, `container of ${this.what}`);
  }
  get sharedName(): string | null {
    return this.string(1, `shared_name of ${this.what}`);
  }
}
