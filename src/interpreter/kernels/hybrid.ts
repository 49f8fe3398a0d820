/**
 * What the hybrid (float32 activations, int8 weights) branches of conv2d, depthwise_conv2d
 * and dense share: the filter scales and the input quantized row by row (src/arith/hybrid.ts).
 */
import { HYBRID_RECIPE, HybridOp, HybridRecipe, hybridFilterScales, QuantizedRows, quantizeRowsAsymmetric } from '../../arith/hybrid';
import { floatActivationRange } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { Tensor } from '../tensor';

export interface HybridOperands {
  readonly filterScales: readonly number[];
  readonly rows: QuantizedRows;
  readonly weight: Int8Array;
  readonly bias?: Float32Array;
  readonly act: { min: number; max: number };
  /** LiteRT's row quantization and output stage for this operator. */
  readonly recipe: HybridRecipe;
}

export function hybridOperands(
  ctx: KernelContext,
  op: HybridOp,
  input: Tensor,
  weight: Tensor,
  bias: Tensor | undefined,
  channels: number,
  rowLength: number,
): HybridOperands {
  if (weight.type.dtype !== 'int8') throw ctx.unsupported(`hybrid ${op} weight dtype ${weight.type.dtype} (int8 only)`);
  if (bias && bias.type.dtype !== 'float32') throw ctx.unsupported(`hybrid ${op} bias dtype ${bias.type.dtype} (float32 only)`);
  const scales = hybridFilterScales(op, weight.type.quant, channels);
  if ('problem' in scales) throw ctx.unsupported(`hybrid ${op}: ${scales.problem}`);
  const x = input.data as Float32Array;
  const recipe = HYBRID_RECIPE[op];
  const rows = quantizeRowsAsymmetric(x, rowLength === 0 ? 0 : x.length / rowLength, rowLength, undefined, recipe);
  return {
    filterScales: scales.scales,
    rows,
    weight: weight.data as Int8Array,
    bias: bias?.data as Float32Array | undefined,
    act: floatActivationRange(ctx.string('activation', 'NONE')),
    recipe,
  };
}
