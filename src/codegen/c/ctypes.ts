/**
 * C spellings of TIR dtypes and literals. Everything here is pure text formatting shared by
 * the expression emitter, the interface header and the entry file.
 */
import { CodegenError } from '../../errors';
import { dtypeBytes } from '../../ir/tir/dtype';
import { ScalarDType } from '../../ir/tir/nodes';

const C_TYPES: Readonly<Record<ScalarDType, string>> = {
  int8: 'int8_t',
  uint8: 'uint8_t',
  int16: 'int16_t',
  int32: 'int32_t',
  int64: 'int64_t',
  uint32: 'uint32_t',
  uint64: 'uint64_t',
  float32: 'float',
  bool: 'bool',
  handle: 'void*',
  void: 'void',
};

export function cType(dtype: ScalarDType): string {
  return C_TYPES[dtype];
}

/** Element type of a data pointer; `handle`/`void` elements make no sense in C arrays. */
export function cElemType(dtype: ScalarDType, where: string): string {
  if (dtype === 'handle' || dtype === 'void') {
    throw new CodegenError(`buffer element type ${dtype} cannot be stored in memory`, { buffer: where });
  }
  return C_TYPES[dtype];
}

export function isIntDType(dtype: ScalarDType): boolean {
  return dtype === 'int8' || dtype === 'uint8' || dtype === 'int16' || dtype === 'int32' || dtype === 'uint32' || dtype === 'int64' || dtype === 'uint64';
}

/** Integer types narrower than `int`: C promotes them, so TIR results must be wrapped back. */
export function isNarrowInt(dtype: ScalarDType): boolean {
  return dtype === 'int8' || dtype === 'uint8' || dtype === 'int16';
}

const INT_RANGES: Partial<Record<ScalarDType, readonly [number, number]>> = {
  int8: [-128, 127],
  uint8: [0, 255],
  int16: [-32768, 32767],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
};

/** Integer literal of `dtype`; the value is wrapped into range as a TIR IntImm would be. */
export function intLiteral(value: number, dtype: ScalarDType): string {
  if (!Number.isInteger(value)) {
    throw new CodegenError(`integer literal ${value} is not an integer`);
  }
  switch (dtype) {
    case 'bool':
      return value !== 0 ? '1' : '0';
    case 'float32':
      return floatLiteral(value);
    case 'handle':
      if (value !== 0) throw new CodegenError(`handle literal ${value} is not a null pointer`);
      return 'NULL';
    case 'int64':
      return `INT64_C(${value})`;
    case 'uint64':
      return `UINT64_C(${value < 0 ? BigInt.asUintN(64, BigInt(value)) : value})`;
    default: {
      const range = INT_RANGES[dtype];
      let v = value;
      if (range !== undefined) {
        const span = range[1] - range[0] + 1;
        v = ((((v - range[0]) % span) + span) % span) + range[0];
      }
      if (v === -2147483648) return '(-2147483647 - 1)';
      if (dtype === 'uint32') return `${v}u`;
      return v < 0 ? `(${v})` : `${v}`;
    }
  }
}

/** A float32 literal that round-trips exactly (9 significant digits). */
export function floatLiteral(value: number): string {
  if (Number.isNaN(value)) return '(0.0f / 0.0f)';
  if (value === Infinity) return '(1.0f / 0.0f)';
  if (value === -Infinity) return '(-1.0f / 0.0f)';
  const f = Math.fround(value);
  if (Object.is(f, -0)) return '(-0.0f)';
  let text = f.toPrecision(9);
  if (!/[.e]/.test(text)) text += '.0';
  text = text.replace(/^(-?\d+)e/, '$1.0e');
  text += 'f';
  return f < 0 ? `(${text})` : text;
}

/** A C string literal (for StringImm arguments of extern calls). */
export function stringLiteral(value: string): string {
  let out = '"';
  for (const ch of Buffer.from(value, 'utf8')) {
    if (ch === 0x22 || ch === 0x5c) out += `\\${String.fromCharCode(ch)}`;
    else if (ch >= 0x20 && ch < 0x7f && ch !== 0x3f) out += String.fromCharCode(ch);
    else out += `\\${ch.toString(8).padStart(3, '0')}`;
  }
  return `${out}"`;
}

/**
 * The elements of little-endian `data` as C initialiser values of `dtype`, 16 a line.
 */
export function arrayInitializer(data: Uint8Array, dtype: ScalarDType, where: string): string {
  const size = dtypeBytes(dtype);
  if (size === 0 || dtype === 'handle') {
    throw new CodegenError(`constant of type ${dtype} cannot be emitted`, { buffer: where });
  }
  if (data.length % size !== 0) {
    throw new CodegenError(`constant data of ${data.length} bytes is not a whole number of ${dtype}`, {
      buffer: where,
    });
  }
  const count = data.length / size;
  if (count > MAX_ARRAY_INITIALIZER_ELEMENTS) {
    throw new CodegenError(
      `${where}: ${count} ${dtype} elements are too many to write as one C initializer (at most ${MAX_ARRAY_INITIALIZER_ELEMENTS}, 2^26): ` +
        'the generated source would pass the size of text uma-ts can build',
      { buffer: where },
    );
  }
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // Sixteen literals a line, built a line at a time: an array of every literal took gigabytes.
  const lines: string[] = [];
  const row: string[] = [];
  for (let off = 0; off < data.length; off += size) {
    row.push(readLiteral(view, off, dtype));
    if (row.length === 16) {
      lines.push(`  ${row.join(', ')}`);
      row.length = 0;
    }
  }
  if (row.length > 0 || lines.length === 0) lines.push(`  ${row.length > 0 ? row.join(', ') : '0'}`);
  return `{\n${lines.join(',\n')}\n}`;
}

/**
 * Elements one array initializer may hold, 2^26 (64 MiB of uint8 constants): a uint8 pool of
 * 128 MB crashed V8 ("Fatal JavaScript invalid size error") building its literals, and past
 * about 99M literals their text passes V8's longest string.
 */
export const MAX_ARRAY_INITIALIZER_ELEMENTS = 2 ** 26;

function readLiteral(view: DataView, off: number, dtype: ScalarDType): string {
  switch (dtype) {
    case 'int8':
      return intLiteral(view.getInt8(off), 'int8');
    case 'uint8':
      return `${view.getUint8(off)}`;
    case 'bool':
      return view.getUint8(off) !== 0 ? '1' : '0';
    case 'int16':
      return intLiteral(view.getInt16(off, true), 'int16');
    case 'int32':
      return intLiteral(view.getInt32(off, true), 'int32');
    case 'int64': {
      const v = view.getBigInt64(off, true);
      return v === -(2n ** 63n) ? '(-INT64_C(9223372036854775807) - 1)' : `INT64_C(${v})`;
    }
    case 'uint32':
      return `${view.getUint32(off, true)}u`;
    case 'uint64':
      return `UINT64_C(${view.getBigUint64(off, true)})`;
    case 'float32':
      return floatLiteral(view.getFloat32(off, true));
    default:
      throw new CodegenError(`constant of type ${dtype} cannot be emitted`);
  }
}
