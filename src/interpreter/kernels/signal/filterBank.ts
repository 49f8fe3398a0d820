/** SignalFilterBank as TFLite Micro (uint64 sums; channel 0 is scratch and dropped). */
import { filterBank } from '../../../arith/signal';
import { KernelContext } from '../../kernel';
import { TypedArray } from '../../tensor';
import { typedInput } from './common';

export function signalFilterBank(ctx: KernelContext): TypedArray {
  const input = typedInput<Uint32Array>(ctx, 0, 'uint32', 'input');
  const [weights, unweights, frequencyStarts, weightStarts, widths] = ['weights', 'unweights', 'channel_frequency_starts', 'channel_weight_starts', 'channel_widths'].map((role, k) =>
    typedInput<Int16Array>(ctx, k + 1, 'int16', role),
  );
  const channels = ctx.number('num_channels');
  if ([frequencyStarts, weightStarts, widths].some((t) => t.length < channels + 1)) throw ctx.fail(`channel tables shorter than num_channels + 1 = ${channels + 1}`);
  for (let i = 0; i <= channels; i++) {
    if (widths[i] < 0 || frequencyStarts[i] < 0 || weightStarts[i] < 0 || frequencyStarts[i] + widths[i] > input.length || weightStarts[i] + widths[i] > Math.min(weights.length, unweights.length)) {
      throw ctx.fail(`channel ${i} reads past its input or weights`);
    }
  }
  const out = new BigUint64Array(channels);
  filterBank(input, { weights, unweights, frequencyStarts, weightStarts, widths }, channels, out);
  return out;
}
