/** Byte positions of each quantized tensor's scales and zero points in a .tflite file. */
import { RawTflite } from './rawTflite';

export interface QuantSlots {
  readonly name: string;
  /** TFLite TensorType code. */
  readonly type: number;
  /** Positions of the float32 scales and of the int64 zero points. */
  readonly scale: number[];
  readonly zeroPoint: number[];
}

export function quantSlots(bytes: Uint8Array): QuantSlots[] {
  const raw = new RawTflite(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const vector = (table: number, id: number): { start: number; length: number } | undefined => {
    const p = raw.fieldPos(table, id);
    if (!p) return undefined;
    const header = p + dv.getUint32(p, true);
    return { start: header + 4, length: dv.getUint32(header, true) };
  };
  const slots: QuantSlots[] = [];
  for (const t of raw.tensors()) {
    if (!raw.fieldPos(t, 4)) continue;
    const q = raw.table(t, 4);
    const scale = vector(q, 2);
    const zp = vector(q, 3);
    if (!scale || scale.length === 0 || !zp || zp.length === 0) continue;
    const nameVec = vector(t, 3)!;
    slots.push({
      name: Buffer.from(bytes.subarray(nameVec.start, nameVec.start + nameVec.length)).toString('utf8'),
      type: raw.int8(t, 1, 0),
      scale: Array.from({ length: scale.length }, (_, i) => scale.start + 4 * i),
      zeroPoint: Array.from({ length: zp.length }, (_, i) => zp.start + 8 * i),
    });
  }
  return slots;
}
