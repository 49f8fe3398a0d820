/**
 * The output stage of a 16x8 kernel's int64 accumulator (conv2d, depthwise_conv2d, dense,
 * transpose_conv2d, the integer LSTM's input gates): the product sum plus the channel's bias, requantized by the 64-bit
 * MultiplyByQuantizedMultiplier. The products of int16 activations and int8 weights sum far
 * below 2^53, so the kernels keep that sum in a double; an int64 bias can reach 2^63, where a
 * double rounds (INT64_MAX - 1000 is 2^63) and where adding the sum passes the int64 range.
 * The add then wraps modulo 2^64, as the generated C's (and TFLite's in practice), on bigints.
 */
import { multiplyByQuantizedMultiplier64 } from './fixedpoint';

const TWO_POW_53 = 2 ** 53;

/** Requantizes channel `channel`'s product sum `sum` (an exact integer, |sum| < 2^53) plus its bias. */
export type Int64BiasRequantize = (sum: number, channel: number, multiplier: number, shift: number) => number;

export function int64BiasRequantize(bias: BigInt64Array | ArrayLike<number> | undefined): Int64BiasRequantize {
  if (!bias) return (sum, _channel, multiplier, shift) => multiplyByQuantizedMultiplier64(sum, multiplier, shift);
  const exact = bias instanceof BigInt64Array ? bias : BigInt64Array.from(bias, (v) => BigInt(v));
  const near = Float64Array.from(exact, (v) => Number(v));
  return (sum, channel, multiplier, shift) => {
    const b = near[channel];
    // Both terms are integers: their double sum is exact below 2^53, and a bias of 2^53 or
    // more rounds to at least 2^53, so it never takes this path.
    if (Math.abs(sum) + Math.abs(b) < TWO_POW_53) return multiplyByQuantizedMultiplier64(sum + b, multiplier, shift);
    return multiplyByQuantizedMultiplier64(BigInt.asIntN(64, BigInt(sum) + exact[channel]), multiplier, shift);
  };
}
