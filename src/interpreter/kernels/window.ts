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
