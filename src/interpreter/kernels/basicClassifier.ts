/** BasicClassifier as TFLite Micro's kernel: one output per call (`output` 0: detected, 1: target_posteriors). */
import { KernelContext } from '../kernel';
import { TypedArray } from '../tensor';
import { typedInput } from './signal/common';

export function basicClassifier(ctx: KernelContext): TypedArray {
  const input = typedInput<Int32Array>(ctx, 0, 'int32', 'input');
  const indices = typedInput<Int32Array>(ctx, 1, 'int32', 'target_indices');
  const thresholds = typedInput<Int32Array>(ctx, 2, 'int32', 'thresholds');
  const detected = ctx.number('output') === 0;
  const out = detected ? new Uint8Array(indices.length) : new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const index = indices[i];
    // TFLite Micro's Eval returns an error here; the importer only admits constant indices in range.
    if (index < 0 || index >= input.length) throw ctx.fail(`target index ${index} outside the input's ${input.length} values`);
    out[i] = detected ? (input[index] >= thresholds[i] ? 1 : 0) : input[index];
  }
  return out;
}
