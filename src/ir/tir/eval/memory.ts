/**
 * The evaluator's memory: every pointer is a region (a Uint8Array) plus a byte offset, and
 * values are stored little-endian exactly as the C the codegen emits would store them.
 * Scalars follow C on a 32-bit-int machine: integer dtypes wrap two's complement.
 */
import { dtypeBytes } from '../dtype';
import { ScalarDType } from '../nodes';
import { TirEvalError, TirOutOfBoundsError } from './errors';

export interface Pointer {
  readonly mem: Uint8Array;
  readonly byteOffset: number;
}

/** What an expression evaluates to: a number for scalars, a Pointer for handles. */
export type Value = number | Pointer;

export function isPointer(v: unknown): v is Pointer {
  return typeof v === 'object' && v !== null && (v as Pointer).mem instanceof Uint8Array;
}

export function pointerTo(mem: Uint8Array, byteOffset = 0): Pointer {
  return { mem, byteOffset };
}

// Module-level copies: inside jest's vm context every `Math.x` is a slow global lookup.
const { fround, trunc } = Math;

/**
 * Brings a number to the range of `dtype` as a C cast would (floats truncate toward zero
 * first). int64 (and uint64) is kept as an exact integer only up to 2^53, which covers the
 * accumulators the supported models need; the signal kernels' uint64 values are read by their
 * runtime-kernel twins straight from memory, as bigints.
 */
export function wrapTo(dtype: ScalarDType): (v: number) => number {
  switch (dtype) {
    case 'int8':
      return (v) => (v << 24) >> 24;
    case 'uint8':
      return (v) => v & 0xff;
    case 'int16':
      return (v) => (v << 16) >> 16;
    case 'int32':
      return (v) => v | 0;
    case 'uint32':
      return (v) => v >>> 0;
    case 'int64':
    case 'uint64':
      return (v) => (Number.isFinite(v) ? trunc(v) : 0);
    case 'bool':
      return (v) => (v !== 0 ? 1 : 0);
    case 'float32':
      return fround;
    case 'handle':
    case 'void':
      return (v) => v;
  }
}

export type Reader = (mem: Uint8Array, view: DataView, pos: number) => number;
export type Writer = (mem: Uint8Array, view: DataView, pos: number, v: number) => void;

export function readerFor(dtype: ScalarDType): Reader {
  switch (dtype) {
    case 'int8':
      return (mem, _view, pos) => (mem[pos] << 24) >> 24;
    case 'uint8':
      return (mem, _view, pos) => mem[pos];
    case 'bool':
      return (mem, _view, pos) => (mem[pos] !== 0 ? 1 : 0);
    case 'int16':
      return (_mem, view, pos) => view.getInt16(pos, true);
    case 'int32':
      return (_mem, view, pos) => view.getInt32(pos, true);
    case 'uint32':
      return (_mem, view, pos) => view.getUint32(pos, true);
    case 'int64':
      return (_mem, view, pos) => Number(view.getBigInt64(pos, true));
    case 'uint64':
      return (_mem, view, pos) => Number(view.getBigUint64(pos, true));
    case 'float32':
      return (_mem, view, pos) => view.getFloat32(pos, true);
    case 'handle':
    case 'void':
      throw new TirEvalError(`cannot load a value of dtype ${dtype} from memory`);
  }
}

export function writerFor(dtype: ScalarDType): Writer {
  switch (dtype) {
    case 'int8':
    case 'uint8':
      // Uint8Array assignment already reduces modulo 256, i.e. two's complement.
      return (mem, _view, pos, v) => {
        mem[pos] = v;
      };
    case 'bool':
      return (mem, _view, pos, v) => {
        mem[pos] = v !== 0 ? 1 : 0;
      };
    case 'int16':
      return (_mem, view, pos, v) => view.setInt16(pos, v, true);
    case 'int32':
      return (_mem, view, pos, v) => view.setInt32(pos, v, true);
    case 'uint32':
      return (_mem, view, pos, v) => view.setUint32(pos, v >>> 0, true);
    case 'int64':
      return (_mem, view, pos, v) => view.setBigInt64(pos, BigInt(trunc(v)), true);
    case 'uint64':
      return (_mem, view, pos, v) => view.setBigUint64(pos, BigInt.asUintN(64, BigInt(trunc(v))), true);
    case 'float32':
      return (_mem, view, pos, v) => view.setFloat32(pos, v, true);
    case 'handle':
    case 'void':
      throw new TirEvalError(`cannot store a value of dtype ${dtype} to memory`);
  }
}

const views = new WeakMap<Uint8Array, DataView>();

/** One DataView per region, so hot loops do not allocate. */
export function viewOf(mem: Uint8Array): DataView {
  let v = views.get(mem);
  if (v === undefined) {
    v = new DataView(mem.buffer, mem.byteOffset, mem.byteLength);
    views.set(mem, v);
  }
  return v;
}

/** Throws unless `[pos, pos + size)` lies inside `mem`. */
export function checkRange(mem: Uint8Array, pos: number, size: number, what: () => string, context: object): void {
  if (pos < 0 || pos + size > mem.length || !Number.isInteger(pos)) {
    throw new TirOutOfBoundsError(`${what()}: bytes [${pos}, ${pos + size}) outside a region of ${mem.length} bytes`, {
      ...context,
      byteOffset: pos,
      regionBytes: mem.length,
    });
  }
}

/** Element `index` of dtype `dtype` at `ptr` (for simulated extern kernels). */
export function loadElement(ptr: Pointer, dtype: ScalarDType, index = 0): number {
  const size = dtypeBytes(dtype);
  const pos = ptr.byteOffset + index * size;
  checkRange(ptr.mem, pos, size, () => `load of ${dtype} element ${index}`, { index });
  return readerFor(dtype)(ptr.mem, viewOf(ptr.mem), pos);
}

/** Stores element `index` of dtype `dtype` at `ptr`, wrapped to the dtype. */
export function storeElement(ptr: Pointer, dtype: ScalarDType, index: number, value: number): void {
  const size = dtypeBytes(dtype);
  const pos = ptr.byteOffset + index * size;
  checkRange(ptr.mem, pos, size, () => `store of ${dtype} element ${index}`, { index });
  writerFor(dtype)(ptr.mem, viewOf(ptr.mem), pos, wrapTo(dtype)(value));
}

/** `byteLength` bytes starting at `ptr`, sharing memory with the region. */
export function bytesAt(ptr: Pointer, byteLength: number): Uint8Array {
  checkRange(ptr.mem, ptr.byteOffset, byteLength, () => `view of ${byteLength} bytes`, {});
  return ptr.mem.subarray(ptr.byteOffset, ptr.byteOffset + byteLength);
}

export function offsetPointer(ptr: Pointer, bytes: number): Pointer {
  return { mem: ptr.mem, byteOffset: ptr.byteOffset + bytes };
}
