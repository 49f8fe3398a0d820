/**
 * A deliberately separate, minimal TFLite reader for tests: plain DataView reads of the
 * FlatBuffer layout, no shared code with src/frontend/tflite. Tests compare the importer's
 * result against what this second reader sees in the same file.
 */
export class RawTflite {
  private readonly dv: DataView;

  constructor(readonly bytes: Uint8Array) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private u32(o: number): number {
    return this.dv.getUint32(o, true);
  }

  /** Absolute position of field `id` of the table at `table`, or 0 when absent. */
  fieldPos(table: number, id: number): number {
    const vtable = table - this.dv.getInt32(table, true);
    const vtableSize = this.dv.getUint16(vtable, true);
    const slot = 4 + 2 * id;
    if (slot >= vtableSize) return 0;
    const off = this.dv.getUint16(vtable + slot, true);
    return off === 0 ? 0 : table + off;
  }

  private deref(pos: number): number {
    return pos + this.u32(pos);
  }

  private vector(table: number, id: number): { start: number; length: number } | null {
    const p = this.fieldPos(table, id);
    if (!p) return null;
    const header = this.deref(p);
    return { start: header + 4, length: this.u32(header) };
  }

  /** The sub-table referenced by field `id`. */
  table(table: number, id: number): number {
    return this.deref(this.fieldPos(table, id));
  }

  tables(table: number, id: number): number[] {
    const v = this.vector(table, id);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.deref(v.start + 4 * i));
  }

  ints(table: number, id: number): number[] {
    const v = this.vector(table, id);
    if (!v) return [];
    return Array.from({ length: v.length }, (_, i) => this.dv.getInt32(v.start + 4 * i, true));
  }

  int32(table: number, id: number, fallback: number): number {
    const p = this.fieldPos(table, id);
    return p ? this.dv.getInt32(p, true) : fallback;
  }

  int8(table: number, id: number, fallback: number): number {
    const p = this.fieldPos(table, id);
    return p ? this.dv.getInt8(p) : fallback;
  }

  byteLength(table: number, id: number): number {
    return this.vector(table, id)?.length ?? 0;
  }

  get root(): number {
    return this.u32(0);
  }

  get operatorCodes(): number[] {
    return this.tables(this.root, 1);
  }

  get subgraph0(): number {
    return this.tables(this.root, 2)[0];
  }

  get buffers(): number[] {
    return this.tables(this.root, 4);
  }

  /** BuiltinOperator value of each operator of subgraph 0, in order. */
  operatorBuiltins(): number[] {
    const codes = this.operatorCodes.map((c) => Math.max(this.int8(c, 0, 0), this.int32(c, 3, 0)));
    return this.tables(this.subgraph0, 3).map((op) => codes[this.int32(op, 0, 0)]);
  }

  operators(): number[] {
    return this.tables(this.subgraph0, 3);
  }

  tensors(): number[] {
    return this.tables(this.subgraph0, 0);
  }
}
