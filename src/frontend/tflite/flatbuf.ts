/**
 * Bounds-checked access to a FlatBuffer through the `flatbuffers` package's ByteBuffer.
 *
 * The package's readers never check bounds: reading past the end of a truncated file
 * silently yields `undefined`-derived garbage. Every table, vector and string is therefore
 * validated here before the package's `__offset`/`__indirect`/`__vector`/`__string` are
 * used on it, so a corrupt file fails with a ModelFormatError naming the file and offset.
 */
import { ByteBuffer } from 'flatbuffers';
import { ModelFormatError } from '../../errors';

const SIZEOF_UOFFSET = 4;
const FILE_IDENTIFIER_LENGTH = 4;

/** The one shape of every corrupt-file message: file, byte offset, then the problem. */
export function modelFormatError(source: string, offset: number, problem: string): ModelFormatError {
  return new ModelFormatError(`corrupt TFLite file ${source} at byte offset ${offset}: ${problem}`, {
    file: source,
    offset,
  });
}

/** The model bytes plus where they came from, shared by every table view. */
export class CheckedBuffer {
  readonly bb: ByteBuffer;
  readonly length: number;

  constructor(
    readonly bytes: Uint8Array,
    readonly source: string,
  ) {
    this.bb = new ByteBuffer(bytes);
    this.length = bytes.length;
  }

  fail(offset: number, problem: string): never {
    throw modelFormatError(this.source, offset, problem);
  }

  /** Fails unless [offset, offset + size) lies inside the buffer. */
  requireRange(offset: number, size: number, what: string): void {
    if (!Number.isInteger(offset) || offset < 0 || size < 0 || offset + size > this.length) {
      this.fail(offset, `${what} (${size} bytes) lies outside the ${this.length}-byte file`);
    }
  }

  /** Checks the file identifier and returns the position of the root table. */
  rootTablePosition(identifier: string): number {
    this.requireRange(0, SIZEOF_UOFFSET + FILE_IDENTIFIER_LENGTH, 'root offset and file identifier');
    if (!this.bb.__has_identifier(identifier)) {
      const found = new TextDecoder('latin1').decode(this.bytes.subarray(4, 8));
      this.fail(4, `file identifier is ${JSON.stringify(found)}, expected ${JSON.stringify(identifier)}`);
    }
    return this.bb.readUint32(0);
  }

  /**
   * The position the offset stored at `ref` points to. The `flatbuffers` package adds it as a
   * signed number; an offset of 2^31 or more (always past the end of a file under 2 GB) would
   * then be reported at a negative byte offset, so it is reported where it is stored instead.
   */
  indirect(ref: number, what: string): number {
    const target = this.bb.__indirect(ref);
    if (target < 0) this.fail(ref, `${what} would start at byte ${ref + this.bb.readUint32(ref)}, outside the ${this.length}-byte file`);
    return target;
  }

  /** Validates the table header and vtable at `pos`; returns the table's inline size. */
  validateTable(pos: number, what: string): number {
    this.requireRange(pos, SIZEOF_UOFFSET, `${what} table`);
    const vtable = pos - this.bb.readInt32(pos);
    // Reported where the bad reference is stored: the vtable position itself may be negative.
    if (vtable < 0 || vtable + 4 > this.length) {
      this.fail(pos, `${what} table's vtable would start at byte ${vtable}, outside the ${this.length}-byte file`);
    }
    const vtableSize = this.bb.readUint16(vtable);
    const tableSize = this.bb.readUint16(vtable + 2);
    if (vtableSize < 4 || vtableSize % 2 !== 0) this.fail(vtable, `vtable of ${what} has invalid size ${vtableSize}`);
    this.requireRange(vtable, vtableSize, `vtable of ${what}`);
    if (tableSize < SIZEOF_UOFFSET) this.fail(vtable, `${what} table has invalid size ${tableSize}`);
    this.requireRange(pos, tableSize, `${what} table`);
    return tableSize;
  }
}

/** A vector's element area, validated to lie inside the buffer. */
export interface VectorSpan {
  readonly start: number;
  readonly length: number;
}

/**
 * Base of the schema accessor classes: one validated table. Field ids are the schema's
 * field order (a union occupies two ids: its type, then its value).
 */
export abstract class CheckedTable {
  private readonly size: number;

  constructor(
    protected readonly buf: CheckedBuffer,
    readonly pos: number,
    readonly what: string,
  ) {
    this.size = buf.validateTable(pos, what);
  }

  /** Offset of field `id` inside the table, or 0 when absent; checks it fits the table. */
  protected field(id: number, byteSize: number): number {
    const o = this.buf.bb.__offset(this.pos, 4 + 2 * id);
    if (o !== 0 && (o < SIZEOF_UOFFSET || o + byteSize > this.size)) {
      this.buf.fail(this.pos + o, `field ${id} of ${this.what} lies outside its table`);
    }
    return o;
  }

  protected int8(id: number, fallback: number): number {
    const o = this.field(id, 1);
    return o ? this.buf.bb.readInt8(this.pos + o) : fallback;
  }

  protected uint8(id: number, fallback: number): number {
    const o = this.field(id, 1);
    return o ? this.buf.bb.readUint8(this.pos + o) : fallback;
  }

  protected bool(id: number, fallback: boolean): boolean {
    const o = this.field(id, 1);
    return o ? this.buf.bb.readUint8(this.pos + o) !== 0 : fallback;
  }

  protected int32(id: number, fallback: number): number {
    const o = this.field(id, 4);
    return o ? this.buf.bb.readInt32(this.pos + o) : fallback;
  }

  protected uint32(id: number, fallback: number): number {
    const o = this.field(id, 4);
    return o ? this.buf.bb.readUint32(this.pos + o) : fallback;
  }

  protected float32(id: number, fallback: number): number {
    const o = this.field(id, 4);
    return o ? this.buf.bb.readFloat32(this.pos + o) : fallback;
  }

  protected uint64(id: number, fallback: bigint): bigint {
    const o = this.field(id, 8);
    return o ? this.buf.bb.readUint64(this.pos + o) : fallback;
  }

  /** Position of the referenced object, checked to be inside the buffer; null if absent. */
  private reference(id: number, what: string): number | null {
    const o = this.field(id, SIZEOF_UOFFSET);
    if (!o) return null;
    const target = this.buf.indirect(this.pos + o, what);
    this.buf.requireRange(target, SIZEOF_UOFFSET, what);
    return target;
  }

  /** The sub-table in field `id`, or null when absent. */
  protected table<T>(id: number, what: string, make: (buf: CheckedBuffer, pos: number, what: string) => T): T | null {
    const target = this.reference(id, `${what} reference`);
    return target === null ? null : make(this.buf, target, what);
  }

  /** The vector in field `id` with elements of `elementSize` bytes; null when absent. */
  protected vector(id: number, elementSize: number, what: string): VectorSpan | null {
    const o = this.field(id, SIZEOF_UOFFSET);
    if (!o) return null;
    const ref = this.pos + o;
    const header = this.buf.indirect(ref, `length of ${what}`);
    this.buf.requireRange(header, SIZEOF_UOFFSET, `length of ${what}`);
    const length = this.buf.bb.__vector_len(ref);
    if (length < 0) this.buf.fail(header, `${what} has negative length ${length}`);
    const start = this.buf.bb.__vector(ref);
    this.buf.requireRange(start, length * elementSize, `${what} of ${length} elements`);
    return { start, length };
  }

  protected int32Vector(id: number, what: string): number[] {
    const v = this.vector(id, 4, what);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.buf.bb.readInt32(v.start + 4 * i));
  }

  protected float32Vector(id: number, what: string): number[] {
    const v = this.vector(id, 4, what);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.buf.bb.readFloat32(v.start + 4 * i));
  }

  protected int64Vector(id: number, what: string): bigint[] {
    const v = this.vector(id, 8, what);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.buf.bb.readInt64(v.start + 8 * i));
  }

  protected boolVector(id: number, what: string): boolean[] {
    const v = this.vector(id, 1, what);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.buf.bb.readUint8(v.start + i) !== 0);
  }

  /** A view (no copy) of a `[ubyte]` field; null when absent. */
  protected byteVector(id: number, what: string): Uint8Array | null {
    const v = this.vector(id, 1, what);
    return v ? this.buf.bytes.subarray(v.start, v.start + v.length) : null;
  }

  /** The tables of a `[Table]` field, each validated. */
  protected tableVector<T>(
    id: number,
    what: string,
    make: (buf: CheckedBuffer, pos: number, what: string) => T,
  ): T[] {
    const v = this.vector(id, SIZEOF_UOFFSET, `${what} vector`);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => {
      const elementPos = v.start + SIZEOF_UOFFSET * i;
      const target = this.buf.indirect(elementPos, `${what} #${i}`);
      this.buf.requireRange(target, SIZEOF_UOFFSET, `${what} #${i}`);
      return make(this.buf, target, `${what} #${i}`);
    });
  }

  protected string(id: number, what: string): string | null {
    const o = this.field(id, SIZEOF_UOFFSET);
    if (!o) return null;
    // Validates the length prefix and bytes, then lets the package decode them.
    this.vector(id, 1, what);
    // A damaged offset can land a name on binary data; its control characters (newlines
    // included) would split the one-line errors that quote names, so each becomes '?'.
    return (this.buf.bb.__string(this.pos + o) as string).replace(/[\u0000-\u001f\u007f]/g, '?');
  }
}
