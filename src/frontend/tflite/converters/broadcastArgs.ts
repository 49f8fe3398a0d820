/**
 * BROADCAST_ARGS → the broadcast of two 1-d int32/int64 shape vectors. In real models both are
 * constants or SHAPE outputs (static here): then the result is folded into a constant at import,
 * and shapes that do not broadcast are an error naming the operator and both tensors. Shapes
 * read at run time become a broadcast_args call (TFLite Micro's kernel, int32 and int64).
 */
import { broadcastShapeValues } from '../../../ir/graph/miscTypes';
import { Converter, formatError, inputType, OperatorSite, requireDtype } from './common';

function readDims(bytes: Uint8Array, dtype: string): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = dtype === 'int64' ? 8 : 4;
  // As the reference kernel's C `int`: an int64 dimension modulo 2^32.
  return Array.from({ length: bytes.length / size }, (_, i) => (size === 8 ? Number(BigInt.asIntN(32, view.getBigInt64(8 * i, true))) : view.getInt32(4 * i, true)));
}

function writeDims(values: readonly number[], dtype: string): Uint8Array {
  const size = dtype === 'int64' ? 8 : 4;
  const bytes = new Uint8Array(size * values.length);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => (size === 8 ? view.setBigInt64(8 * i, BigInt(v), true) : view.setInt32(4 * i, v, true)));
  return bytes;
}

/** The value of input `position` when known at import: a constant, or SHAPE's int32 dimensions. */
function known(site: OperatorSite, position: number, dtype: string): number[] | null {
  const bytes = site.knownInput?.(position) ?? site.constantInput(position);
  return bytes === null ? null : readDims(bytes, dtype);
}

export const broadcastArgs: Converter = (site) => {
  const s1 = inputType(site, 0, 'shape1');
  const s2 = inputType(site, 1, 'shape2');
  requireDtype(site, s1, ['int32', 'int64'], 'shape1');
  if (s2.dtype !== s1.dtype || site.outputType.dtype !== s1.dtype) {
    formatError(site, `shape1, shape2 and the output must have one dtype, got ${s1.dtype}, ${s2.dtype} and ${site.outputType.dtype}`);
  }
  if (s1.shape.length !== 1 || s2.shape.length !== 1) formatError(site, `the shapes must be 1-d, got [${s1.shape}] and [${s2.shape}]`);
  const length = Math.max(s1.shape[0], s2.shape[0]);
  const out = site.outputType.shape;
  if (out.length !== 1 || out[0] !== length) formatError(site, `output shape [${out}] differs from [${length}], the longer of the two shapes`);
  const left = known(site, 0, s1.dtype);
  const right = known(site, 1, s1.dtype);
  if (left === null || right === null) return { op: 'broadcast_args', attrs: {}, argPositions: [0, 1] };
  const { values, conflict } = broadcastShapeValues(left, right);
  if (conflict) {
    const [a, b] = site.inputNames ?? [];
    formatError(
      site,
      `shape1 '${a ?? 'input 0'}' [${left}] and shape2 '${b ?? 'input 1'}' [${right}] do not broadcast: output dimension ${conflict.index} is ${conflict.left} in one and ${conflict.right} in the other`,
    );
  }
  return { op: 'broadcast_args', attrs: {}, argPositions: [0, 1], folded: writeDims(values, s1.dtype) };
};
