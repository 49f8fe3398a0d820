/**
 * RESIZE_NEAREST_NEIGHBOR, RESIZE_BILINEAR → resize_*: the size input must be constant and
 * agree with the output tensor (the new size is the output type).
 */
import { BuiltinOptionsType, ResizeBilinearOptions, ResizeNearestNeighborOptions } from '../schema';
import { Converter, formatError, inputType, options, unsupportedParameter, requireDtype } from './common';
import { constantInts } from './constants';

const resize =
  (op: 'resize_nearest_neighbor' | 'resize_bilinear', dtypes: readonly string[]): Converter =>
  (site) => {
    const input = inputType(site, 0, 'input');
    requireDtype(site, input, dtypes, 'input');
    if (input.shape.length !== 4) unsupportedParameter(site, `rank-${input.shape.length} input (only 4-d NHWC)`);
    if (site.outputType.dtype !== input.dtype) unsupportedParameter(site, `output dtype ${site.outputType.dtype}`);
    const size = constantInts(site, 1, 'size');
    const out = site.outputType.shape;
    if (size.length !== 2 || out.length !== 4 || out[1] !== size[0] || out[2] !== size[1]) {
      formatError(site, `size [${size}] differs from the output tensor's shape [${out}]`);
    }
    const opts =
      op === 'resize_bilinear'
        ? options(site, BuiltinOptionsType.ResizeBilinearOptions, ResizeBilinearOptions)
        : options(site, BuiltinOptionsType.ResizeNearestNeighborOptions, ResizeNearestNeighborOptions);
    const align = opts?.alignCorners ?? false;
    const half = opts?.halfPixelCenters ?? false;
    if (align && half) unsupportedParameter(site, 'align_corners together with half_pixel_centers');
    return { op, attrs: { align_corners: align, half_pixel_centers: half }, argPositions: [0] };
  };

export const resizeNearestNeighbor = resize('resize_nearest_neighbor', ['float32', 'int8', 'int16']);
export const resizeBilinear = resize('resize_bilinear', ['float32', 'int8']);
