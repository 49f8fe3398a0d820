/**
 * TFLite tensors → graph-IR tensor types, unique node names and constant bytes.
 */
import { quantizationProblem } from '../../config/numbers';
import { ModelFormatError, UnsupportedOperatorError } from '../../errors';
import { DType, Quantization, TensorType, tensorBytes } from '../../ir/graph/types';
import { float16BytesToFloat32 } from '../../arith/float16';
import { packedInt4Bytes, unpackInt4 } from '../../arith/int4';
import { modelFormatError } from './flatbuf';
import { Buffer as TfliteBuffer, Tensor, TensorTypeCode } from './schema';

const DTYPES: ReadonlyMap<number, DType> = new Map<number, DType>([
  [TensorTypeCode.FLOAT32, 'float32'],
  [TensorTypeCode.INT32, 'int32'],
  [TensorTypeCode.UINT8, 'uint8'],
  [TensorTypeCode.INT64, 'int64'],
  [TensorTypeCode.UINT32, 'uint32'],
  [TensorTypeCode.UINT64, 'uint64'],
  [TensorTypeCode.BOOL, 'bool'],
  [TensorTypeCode.INT16, 'int16'],
  [TensorTypeCode.INT8, 'int8'],
]);

function tensorTypeName(code: number): string {
  const entry = Object.entries(TensorTypeCode).find(([, v]) => v === code);
  return entry ? entry[0] : `code ${code}`;
}

function describe(tensor: Tensor, index: number): string {
  return `tensor #${index} '${tensor.name}'`;
}

function quantization(
  tensor: Tensor,
  index: number,
  shape: readonly number[],
  dtype: DType,
  source: string,
  user: string,
): Quantization | undefined {
  const q = tensor.quantization;
  if (!q) return undefined;
  if (q.detailsType !== 0) {
    throw new UnsupportedOperatorError(`unsupported custom quantization on ${describe(tensor, index)} in ${source}`, {
      file: source,
    });
  }
  const scale = q.scale;
  if (scale.length === 0) return undefined;
  const storedZeroPoint = q.zeroPoint;
  if (storedZeroPoint.length !== 0 && storedZeroPoint.length !== scale.length) {
    throw modelFormatError(source, q.pos, `${describe(tensor, index)} has ${scale.length} scales but ${storedZeroPoint.length} zero points`);
  }
  const problem = quantizationProblem({ dtype, scale, zeroPoint: storedZeroPoint });
  if (problem !== undefined) {
    throw new ModelFormatError(`${source}: invalid quantization of ${describe(tensor, index)} (${dtype}, ${user}): ${problem}`, {
      file: source,
      offset: q.pos,
      op: user,
      tensor: tensor.name,
    });
  }
  // Exact now: every zero point is inside its type's range.
  const zeroPoint = storedZeroPoint.length === 0 ? scale.map(() => 0) : storedZeroPoint.map(Number);
  let axis = q.quantizedDimension;
  // Older converters copied the filter's quantized_dimension (3) onto 1-d per-channel
  // biases (person_detect does); the only axis such a tensor has is 0.
  if (shape.length === 1 && shape[0] === scale.length) axis = 0;
  if (scale.length > 1 && !(axis >= 0 && axis < shape.length && shape[axis] === scale.length)) {
    throw modelFormatError(
      source,
      q.pos,
      `${describe(tensor, index)} has ${scale.length} per-channel scales on axis ${axis} of shape ${shapeText(shape)}`,
    );
  }
  return { scale, zeroPoint, axis };
}

/** Largest element count of a tensor: 2^31-1, the int32 index range. */
export const MAX_TENSOR_ELEMENTS = 2 ** 31 - 1;

/**
 * A shape for an error message. A damaged file can give a tensor thousands of dimensions (any
 * vector the shape offset lands on): past 8 only the first 6 are named, so the error stays one
 * readable line.
 */
export function shapeText(shape: readonly number[]): string {
  return shape.length <= 8 ? `[${shape}]` : `[${shape.slice(0, 6)}, ... (${shape.length} dimensions)]`;
}

/** `user` says who uses the tensor (`input of CONV_2D at operator #3`), for error messages. */
export function tensorType(tensor: Tensor, index: number, source: string, user = 'in the model'): TensorType {
  const dtype = DTYPES.get(tensor.type);
  if (!dtype) {
    throw new UnsupportedOperatorError(
      `unsupported tensor type ${tensorTypeName(tensor.type)} of ${describe(tensor, index)} in ${source}`,
      { file: source },
    );
  }
  if (tensor.hasSparsity) {
    throw new UnsupportedOperatorError(`unsupported sparse ${describe(tensor, index)} in ${source}`, { file: source });
  }
  const shape = tensor.shape;
  if (shape.some((d) => d < 0)) {
    throw modelFormatError(source, tensor.pos, `${describe(tensor, index)} has a negative dimension in ${shapeText(shape)}`);
  }
  // Generated C (as TFLite Micro) indexes tensors with int32: more elements would overflow the
  // index arithmetic and address the wrong bytes.
  const elements = shape.includes(0) ? 0 : shape.reduce((n, d) => n * d, 1);
  if (elements > MAX_TENSOR_ELEMENTS) {
    throw modelFormatError(
      source,
      tensor.pos,
      `${describe(tensor, index)} has shape ${shapeText(shape)}, more than 2^31-1 elements: tensors are indexed with 32-bit integers`,
    );
  }
  const quant = quantization(tensor, index, shape, dtype, source, user);
  return quant ? { shape, dtype, quant } : { shape, dtype };
}

/**
 * One node name per tensor: the TFLite name when it is unique and non-empty, otherwise
 * `<name>_<index>` / `tensor_<index>`, so graph-IR names stay unique per function.
 */
export function uniqueTensorNames(tensors: readonly Tensor[]): string[] {
  const taken = new Set<string>();
  return tensors.map((t, i) => {
    const base = t.name === '' ? `tensor_${i}` : t.name;
    let name = taken.has(base) ? `${base}_${i}` : base;
    for (let k = 1; taken.has(name); k++) name = `${base}_${i}_${k}`;
    taken.add(name);
    return name;
  });
}

/**
 * The constant bytes of a tensor (a copy), or null when its buffer holds no data. Data
 * stored after the FlatBuffer (models over 2 GB: `offset`/`size` set) is read from the file.
 */
export function constantData(
  tensor: Tensor,
  index: number,
  type: TensorType,
  buffers: readonly TfliteBuffer[],
  file: Uint8Array,
  source: string,
): Uint8Array | null {
  const stored = storedBytes(tensor, index, buffers, file, source);
  if (!stored) return null;
  const expected = tensorBytes(type);
  if (stored.data.length !== expected) {
    throw modelFormatError(
      source,
      stored.pos,
      `${describe(tensor, index)} has ${stored.data.length} data bytes, its type [${type.shape}] ${type.dtype} needs ${expected}`,
    );
  }
  return stored.data.slice();
}

/** The bytes a tensor's buffer holds (not copied) and where the buffer is; null when none. */
function storedBytes(
  tensor: Tensor,
  index: number,
  buffers: readonly TfliteBuffer[],
  file: Uint8Array,
  source: string,
): { data: Uint8Array; pos: number } | null {
  const bufferIndex = tensor.buffer;
  if (bufferIndex === 0) return null;
  if (bufferIndex >= buffers.length) {
    throw modelFormatError(source, tensor.pos, `${describe(tensor, index)} refers to buffer ${bufferIndex} of ${buffers.length}`);
  }
  const buffer = buffers[bufferIndex];
  let data = buffer.data;
  if ((!data || data.length === 0) && buffer.externalOffset > 1n) {
    // Compared as the uint64s they are: as numbers, past 2^53 they were rounded in the message.
    const { externalOffset, externalSize } = buffer;
    if (externalOffset + externalSize > BigInt(file.length)) {
      const where = externalOffset <= BigInt(file.length) ? Number(externalOffset) : buffer.pos;
      throw modelFormatError(source, where, `buffer ${bufferIndex} (${externalSize} bytes at byte ${externalOffset}) lies outside the ${file.length}-byte file`);
    }
    const start = Number(externalOffset);
    data = file.subarray(start, start + Number(externalSize));
  }
  if (!data || data.length === 0) return null;
  return { data, pos: buffer.pos };
}

/**
 * The stored bytes of a constant in a packed type uma-ts widens at import (float16, int4),
 * with its element count, checked against the bytes `packedBytes(elements)` that type takes;
 * null when the tensor has no data.
 */
function packedConstant(
  tensor: Tensor,
  index: number,
  buffers: readonly TfliteBuffer[],
  file: Uint8Array,
  source: string,
  typeName: string,
  packedBytes: (elements: number) => number,
): { data: Uint8Array; elements: number } | null {
  const stored = storedBytes(tensor, index, buffers, file, source);
  if (!stored) return null;
  const shape = tensor.shape;
  if (shape.some((d) => d < 0)) {
    throw modelFormatError(source, tensor.pos, `${describe(tensor, index)} has a negative dimension in ${shapeText(shape)}`);
  }
  const elements = shape.reduce((n, d) => n * d, 1);
  const needed = packedBytes(elements);
  if (stored.data.length !== needed) {
    throw modelFormatError(source, stored.pos, `${describe(tensor, index)} has ${stored.data.length} data bytes, its type ${shapeText(shape)} ${typeName} needs ${needed}`);
  }
  return { data: stored.data, elements };
}

/**
 * A constant float16 tensor widened to float32 (exact), or null when the tensor is not a
 * float16 constant. uma-ts has no float16 type: such a tensor is only ever the input of a
 * DEQUANTIZE, which the importer folds into this constant.
 */
export function float16ConstantAsFloat32(
  tensor: Tensor,
  index: number,
  buffers: readonly TfliteBuffer[],
  file: Uint8Array,
  source: string,
): { type: TensorType; data: Uint8Array } | null {
  if (tensor.type !== TensorTypeCode.FLOAT16 || tensor.hasSparsity) return null;
  const stored = packedConstant(tensor, index, buffers, file, source, 'float16', (n) => 2 * n);
  if (!stored) return null;
  return { type: { shape: [...tensor.shape], dtype: 'float32' }, data: float16BytesToFloat32(stored.data) };
}

/**
 * A constant packed int4 tensor widened to the int8 tensor it stands for (exact, the values
 * TFLite Micro unpacks before its int8 kernels run), with the tensor's quantization; null when
 * the tensor is not an int4 constant. Only the weights of int8 CONV_2D, DEPTHWISE_CONV_2D and
 * FULLY_CONNECTED may be int4 (TFLite Micro); the importer checks the consumer.
 */
export function int4ConstantAsInt8(
  tensor: Tensor,
  index: number,
  buffers: readonly TfliteBuffer[],
  file: Uint8Array,
  source: string,
  user: string,
): { type: TensorType; data: Uint8Array } | null {
  if (tensor.type !== TensorTypeCode.INT4 || tensor.hasSparsity) return null;
  const stored = packedConstant(tensor, index, buffers, file, source, 'int4', packedInt4Bytes);
  if (!stored) return null;
  const shape = tensor.shape;
  const quant = quantization(tensor, index, shape, 'int8', source, user);
  const type: TensorType = quant ? { shape: [...shape], dtype: 'int8', quant } : { shape: [...shape], dtype: 'int8' };
  const values = unpackInt4(stored.data, stored.elements);
  return { type, data: new Uint8Array(values.buffer) };
}
