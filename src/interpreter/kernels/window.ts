/** Sliding-window geometry shared by convolution and pooling kernels (NHWC). */
import { KernelContext } from '../kernel';

export interface WindowGeometry {
  readonly strideH: number;
  readonly strideW: number;
  readonly dilationH: number;
  readonly dilationW: number;
  /** TFLite only uses the leading pads; trailing ones follow from the output size. */
  readonly padTop: number;
  readonly padLeft: number;
}

export function windowGeometry(ctx: KernelContext): WindowGeometry {
  const [strideH, strideW] = ctx.numbers('strides', [1, 1]);
  const [dilationH, dilationW] = ctx.numbers('dilation', [1, 1]);
  const padding = ctx.numbers('padding', [0, 0, 0, 0]);
  if (padding.length !== 4) throw ctx.fail(`padding must be [top, left, bottom, right], got ${JSON.stringify(padding)}`);
  return { strideH, strideW, dilationH, dilationW, padTop: padding[0], padLeft: padding[1] };
}

/** [N, H, W, C] of a rank-4 shape. */
export function nhwc(ctx: KernelContext, shape: readonly number[], role: string): [number, number, number, number] {
  if (shape.length !== 4) throw ctx.fail(`${role} must be rank 4 (NHWC), got shape [${shape.join(', ')}]`);
  return [shape[0], shape[1], shape[2], shape[3]];
}

/** The extents a window walk needs: batches, input and output rows and columns, kernel rows and columns. */
export interface WindowExtents {
  readonly batches: number;
  readonly inH: number;
  readonly inW: number;
  readonly outH: number;
  readonly outW: number;
  readonly kH: number;
  readonly kW: number;
}

/**
 * The taps of one output pixel's window that fall inside the input, in (ky, kx) order: the
 * flat input pixel (n, iy, ix) and the kernel tap ky * kW + kx of each. TFLite's kernels skip
 * the others (for int8, the same as padding with the input zero point).
 */
export interface WindowTaps {
  count: number;
  readonly pixel: Int32Array;
  readonly tap: Int32Array;
}

/** Calls `visit` for every output pixel (n, oy, ox) in order, with its window's taps. */
export function forEachWindow(g: WindowGeometry, e: WindowExtents, visit: (n: number, oy: number, ox: number, taps: WindowTaps) => void): void {
  const taps: WindowTaps = { count: 0, pixel: new Int32Array(e.kH * e.kW), tap: new Int32Array(e.kH * e.kW) };
  for (let n = 0; n < e.batches; n++)
    for (let oy = 0; oy < e.outH; oy++) {
      const iy0 = oy * g.strideH - g.padTop;
      for (let ox = 0; ox < e.outW; ox++) {
        const ix0 = ox * g.strideW - g.padLeft;
        taps.count = 0;
        for (let ky = 0; ky < e.kH; ky++) {
          const iy = iy0 + g.dilationH * ky;
          if (iy < 0 || iy >= e.inH) continue;
          for (let kx = 0; kx < e.kW; kx++) {
            const ix = ix0 + g.dilationW * kx;
            if (ix < 0 || ix >= e.inW) continue;
            taps.pixel[taps.count] = (n * e.inH + iy) * e.inW + ix;
            taps.tap[taps.count] = ky * e.kW + kx;
            taps.count++;
          }
        }
        visit(n, oy, ox, taps);
      }
    }
}
