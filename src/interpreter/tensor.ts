/**
 * Runtime tensor values of the interpreter: a type plus a typed array over its elements.
 * Bytes cross the API boundary little-endian; inside, kernels work on typed arrays.
 */
import { DType, TensorType, tensorBytes, tensorElements } from '../ir/graph/types';

export type TypedArray = Int8Array | Uint8Array | Int16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array;

export interface Tensor {
  readonly type: TensorType;
  readonly data: TypedArray;
}

/** A fresh zeroed typed array holding `count` elements of `dtype`. */
export function allocateElements(dtype: DType, count: number): TypedArray {
  switch (dtype) {
    case 'int8':
      return new Int8Array(count);
    case 'uint8':
    case 'bool':
      return new Uint8Array(count);
    case 'int16':
      return new Int16Array(count);
    case 'int32':
      return new Int32Array(count);
    case 'uint32':
      return new Uint32Array(count);
    case 'int64':
      return new BigInt64Array(count);
    case 'uint64':
      return new BigUint64Array(count);
    case 'float32':
      return new Float32Array(count);
  }
}

export function allocateTensorData(type: TensorType): TypedArray {
  return allocateElements(type.dtype, tensorElements(type));
}

/** Decodes little-endian bytes (copied, so alignment and aliasing never matter). */
export function tensorFromBytes(type: TensorType, bytes: Uint8Array): Tensor {
  const data = allocateTensorData(type);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = data.length;
  switch (type.dtype) {
    case 'int8':
      (data as Int8Array).set(new Int8Array(bytes.buffer, bytes.byteOffset, n));
      break;
    case 'uint8':
    case 'bool':
      (data as Uint8Array).set(bytes.subarray(0, n));
      break;
    case 'int16':
      for (let i = 0; i < n; i++) (data as Int16Array)[i] = view.getInt16(2 * i, true);
      break;
    case 'int32':
      for (let i = 0; i < n; i++) (data as Int32Array)[i] = view.getInt32(4 * i, true);
      break;
    case 'uint32':
      for (let i = 0; i < n; i++) (data as Uint32Array)[i] = view.getUint32(4 * i, true);
      break;
    case 'int64':
      for (let i = 0; i < n; i++) (data as BigInt64Array)[i] = view.getBigInt64(8 * i, true);
      break;
    case 'uint64':
      for (let i = 0; i < n; i++) (data as BigUint64Array)[i] = view.getBigUint64(8 * i, true);
      break;
    case 'float32':
      for (let i = 0; i < n; i++) (data as Float32Array)[i] = view.getFloat32(4 * i, true);
      break;
  }
  return { type, data };
}

/** Encodes a tensor as little-endian bytes. */
export function tensorToBytes(t: Tensor): Uint8Array {
  const out = new Uint8Array(tensorBytes(t.type));
  const view = new DataView(out.buffer);
  const d = t.data;
  const n = d.length;
  switch (t.type.dtype) {
    case 'int8':
      out.set(new Uint8Array(d.buffer, d.byteOffset, n));
      break;
    case 'uint8':
    case 'bool':
      out.set(d as Uint8Array);
      break;
    case 'int16':
      for (let i = 0; i < n; i++) view.setInt16(2 * i, (d as Int16Array)[i], true);
      break;
    case 'int32':
      for (let i = 0; i < n; i++) view.setInt32(4 * i, (d as Int32Array)[i], true);
      break;
    case 'uint32':
      for (let i = 0; i < n; i++) view.setUint32(4 * i, (d as Uint32Array)[i], true);
      break;
    case 'int64':
      for (let i = 0; i < n; i++) view.setBigInt64(8 * i, (d as BigInt64Array)[i], true);
      break;
    case 'uint64':
      for (let i = 0; i < n; i++) view.setBigUint64(8 * i, (d as BigUint64Array)[i], true);
      break;
    case 'float32':
      for (let i = 0; i < n; i++) view.setFloat32(4 * i, (d as Float32Array)[i], true);
      break;
  }
  return out;
}
