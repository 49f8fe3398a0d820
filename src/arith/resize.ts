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
