/**
 * TFLite's SAME/VALID padding resolved to explicit amounts, with the arithmetic of TFLite's
 * `ComputeOutSize` and `ComputePaddingHeightWidth` so lowered kernels match TFLite bit for bit
 * (the extra odd pixel of SAME padding goes to the bottom/right).
 */
export type PaddingMode = 'SAME' | 'VALID';

export interface WindowSpec {
  /** [height, width] of the input. */
  readonly input: readonly [number, number];
  /** [height, width] of the filter or pooling window. */
  readonly filter: readonly [number, number];
  readonly strides: readonly [number, number];
  readonly dilation: readonly [number, number];
}

export function effectiveFilterSize(filter: number, dilation: number): number {
  return (filter - 1) * dilation + 1;
}

/** Output extent along one axis, as TFLite computes it. */
export function outputSize(mode: PaddingMode, input: number, filter: number, stride: number, dilation: number): number {
  const effective = effectiveFilterSize(filter, dilation);
  if (mode === 'SAME') return Math.floor((input + stride - 1) / stride);
  return Math.floor((input + stride - effective) / stride);
}

/** Total padding along one axis: max((out - 1) * stride + dilated filter - in, 0). */
function totalPadding(mode: PaddingMode, input: number, filter: number, stride: number, dilation: number): number {
  const out = outputSize(mode, input, filter, stride, dilation);
  return Math.max((out - 1) * stride + effectiveFilterSize(filter, dilation) - input, 0);
}

/** Explicit padding `[top, left, bottom, right]`. */
export function resolvePadding(mode: PaddingMode, w: WindowSpec): [number, number, number, number] {
  const totalH = totalPadding(mode, w.input[0], w.filter[0], w.strides[0], w.dilation[0]);
  const totalW = totalPadding(mode, w.input[1], w.filter[1], w.strides[1], w.dilation[1]);
  const top = Math.floor(totalH / 2);
  const left = Math.floor(totalW / 2);
  return [top, left, totalH - top, totalW - left];
}
