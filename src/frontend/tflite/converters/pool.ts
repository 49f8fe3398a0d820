/** AVERAGE_POOL_2D → avg_pool2d, MAX_POOL_2D → max_pool2d (float32, int8, int16 as TFLite Micro). */
import { resolvePadding } from '../padding';
import { BuiltinOptionsType, Pool2DOptions } from '../schema';
import { quantizedActivation, Converter, inputType, positive, requireDtype, requiredOptions, spatial, tensorQuant, unsupportedParameter } from './common';
import { paddingMode } from './window';

export function pool(op: string): Converter {
  return (site) => {
    const opts = requiredOptions(site, BuiltinOptionsType.Pool2DOptions, Pool2DOptions);
    const input = inputType(site, 0, 'input');
    requireDtype(site, input, ['float32', 'int8', 'int16'], 'input');
    if (site.outputType.dtype !== input.dtype) unsupportedParameter(site, `output dtype ${site.outputType.dtype} for a ${input.dtype} input`);
    if (input.dtype !== 'float32') tensorQuant(site, site.outputType, 'output');
    const poolSize = positive(site, 'pool size', [opts.filterHeight, opts.filterWidth]);
    const strides = positive(site, 'strides', [opts.strideH, opts.strideW]);
    const padding = resolvePadding(paddingMode(site, opts.padding), {
      input: spatial(site, inputType(site, 0, 'input'), 'input'),
      filter: poolSize,
      strides,
      dilation: [1, 1],
    });
    return {
      op,
      attrs: { pool_size: poolSize, strides, padding, activation: quantizedActivation(site, opts.fusedActivation) },
      argPositions: [0],
    };
  };
}
