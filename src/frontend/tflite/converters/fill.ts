/**
 * FILL → fill(value). The dims must be a constant equal to the output shape (TFLite Micro
 * checks that when they are constant); the value may be a constant or a run-time scalar.
 */
import { sameShape } from '../../../ir/graph/types';
import { Converter, formatError, inputType, requireDtype, unsupportedParameter } from './common';

const DIMS_BYTES: Readonly<Record<string, number>> = { int8: 1, int16: 2, int32: 4, int64: 8 };

function readDims(bytes: Uint8Array, dtype: string): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = DIMS_BYTES[dtype];
  return Array.from({ length: bytes.length / size }, (_, i) => {
    if (size === 1) return view.getInt8(i);
    if (size === 2) return view.getInt16(2 * i, true);
    if (size === 4) return view.getInt32(4 * i, true);
    return Number(view.getBigInt64(8 * i, true));
  });
}

export const fill: Converter = (site) => {
  const dims = inputType(site, 0, 'dims');
  const value = inputType(site, 1, 'value');
  requireDtype(site, value, ['float32', 'int8', 'int32'], 'value');
  requireDtype(site, dims, Object.keys(DIMS_BYTES), 'dims');
  if (value.shape.length !== 0) formatError(site, `value must be a scalar, got shape [${value.shape}]`);
  if (site.outputType.dtype !== value.dtype) formatError(site, `output dtype ${site.outputType.dtype} differs from the value's ${value.dtype}`);
  const bytes = site.constantInput(0);
  if (!bytes) unsupportedParameter(site, 'non-constant dims (input 0)');
  const shape = readDims(bytes, dims.dtype);
  const out = site.outputType.shape;
  if (dims.shape.length !== 1 || !sameShape(shape, out)) {
    formatError(site, `dims [${shape}] differ from the output shape [${out}]`);
  }
  return { op: 'fill', attrs: {}, argPositions: [1] };
};
