/**
 * Source coordinates of TFLite's resize kernels, computed once at compile time (they depend
 * on sizes and flags only), in float exactly as the C++ forms them; shared by the
 * interpreter kernels and the CPU lowering (which bakes them into int32 tables).
 */
import { roundHalfAwayFromZero } from './fixedpoint';

const f32 = Math.fround;

/** TFLite `GetNearestNeighbor` for every output index along one axis. */
export function nearestNeighborIndices(inSize: number, outSize: number, alignCorners: boolean, halfPixelCenters: boolean): number[] {
  const scale = alignCorners && outSize > 1 ? f32(f32(inSize - 1) / f32(outSize - 1)) : f32(f32(inSize) / f32(outSize));
  const offset = halfPixelCenters ? 0.5 : 0;
  return Array.from({ length: outSize }, (_, i) => {
    const v = f32(f32(i + offset) * scale);
    let index = Math.min(alignCorners ? roundHalfAwayFromZero(v) : Math.floor(v), inSize - 1);
    if (halfPixelCenters) index = Math.max(0, index);
    return index;
  });
}

/** Per output row (or column) of a bilinear resize: the two source rows and the weights. */
export interface BilinearAxis {
  readonly lower: number[];
  readonly upper: number[];
  /** Float: input coordinate - lower, and 1 - that (float32). Integer: (input_y - 1024 * y0) in Q10. */
  readonly frac: number[];
  readonly oneMinus: number[];
}

/** TFLite `ComputeInterpolationValues` (float kernel) along one axis. */
export function bilinearFloatAxis(inSize: number, outSize: number, alignCorners: boolean, halfPixelCenters: boolean): BilinearAxis {
  const scale = alignCorners && outSize > 1 ? f32(f32(inSize - 1) / f32(outSize - 1)) : f32(f32(inSize) / f32(outSize));
  const axis: BilinearAxis = { lower: [], upper: [], frac: [], oneMinus: [] };
  for (let i = 0; i < outSize; i++) {
    const scaled = halfPixelCenters ? f32(f32(f32(i + 0.5) * scale) - 0.5) : f32(i * scale);
    const lower = Math.max(Math.trunc(Math.floor(scaled)), 0);
    axis.lower.push(lower);
    axis.upper.push(Math.min(Math.trunc(Math.ceil(scaled)), inSize - 1));
    const frac = f32(scaled - lower);
    axis.frac.push(frac);
    axis.oneMinus.push(f32(1 - frac));
  }
  return axis;
}

/** TFLite `ComputeInterpolationValuesInteger` (ResizeBilinearInteger, Q10 scales) along one axis. */
export function bilinearIntegerAxis(inSize: number, outSize: number, alignCorners: boolean, halfPixelCenters: boolean): BilinearAxis {
  const scale10 =
    alignCorners && outSize > 1
      ? Math.trunc((1024 * (inSize - 1) + Math.trunc((outSize - 1) / 2)) / (outSize - 1))
      : Math.trunc((1024 * inSize + Math.trunc(outSize / 2)) / outSize);
  const axis: BilinearAxis = { lower: [], upper: [], frac: [], oneMinus: [] };
  for (let i = 0; i < outSize; i++) {
    const scaled = halfPixelCenters ? i * scale10 + Math.trunc(scale10 / 2) - 512 : i * scale10;
    const lower = Math.max(Math.trunc(scaled / 1024), 0);
    axis.lower.push(lower);
    axis.upper.push(Math.min(Math.trunc((scaled + 1023) / 1024), inSize - 1));
    axis.frac.push(scaled - 1024 * lower);
    axis.oneMinus.push(1024 - (scaled - 1024 * lower));
  }
  return axis;
}

/** ResizeBilinearInteger's final rounding (TFLite Micro builds without TFLITE_SINGLE_ROUNDING). */
export function bilinearIntegerRound(sum20: number): number {
  return Math.trunc((sum20 + (sum20 > 0 ? 1 << 19 : -(1 << 19))) / (1 << 20));
}
