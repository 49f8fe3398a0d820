/**
 * BasicClassifier (TFLite Micro's custom operator, kernels/basic_classifier.cc: hotword models'
 * last step) → two `basic_classifier` calls, one per output: for each target i, the input's
 * value at target_indices[i] (the input read flat) and whether it reaches thresholds[i].
 *
 * TFLite Micro's Eval fails the invocation on a target index outside the input; uma-ts checks
 * the indices at import, so they must be constants (a computed one is refused).
 */
import { tensorElements } from '../../../ir/graph/types';
import { ConvertedOperator, Converter, formatError, unsupportedParameter } from './common';
import { input, output, requireCounts } from './signal/common';

export const BASIC_CLASSIFIER_CODE = 'BasicClassifier';

export const basicClassifier: Converter = (site) => {
  requireCounts(site, 3, 2);
  const x = input(site, 0, 'int32', '>=1', 'input');
  // Hotword models give a [1, N] input; Prepare takes one or two dimensions.
  if (x.shape.length > 2) formatError(site, `input of shape [${x.shape}], expected 1 or 2 dimensions`);
  const indices = input(site, 1, 'int32', 1, 'target_indices');
  const thresholds = input(site, 2, 'int32', 1, 'thresholds');
  const detected = output(site, 0, 'bool', 1, 'detected');
  const posteriors = output(site, 1, 'int32', 1, 'target_posteriors');
  const targets = indices.shape[0];
  if (thresholds.shape[0] !== targets || detected.shape[0] !== targets || posteriors.shape[0] !== targets) {
    formatError(site, `thresholds [${thresholds.shape}], detected [${detected.shape}] and target_posteriors [${posteriors.shape}] must hold the ${targets} targets`);
  }
  const bytes = site.constantInput(1);
  if (bytes === null) unsupportedParameter(site, 'target_indices computed at run time (uma-ts checks them at import, where TFLite Micro fails an invocation on one outside the input)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = tensorElements(x);
  for (let i = 0; i < targets; i++) {
    const index = view.getInt32(4 * i, true);
    if (index < 0 || index >= size) unsupportedParameter(site, `target index ${index} (#${i}) outside the input's ${size} values (TFLite Micro's Eval fails the invocation)`);
  }
  const call = (out: number): ConvertedOperator => ({ op: 'basic_classifier', attrs: { output: out }, argPositions: [0, 1, 2] });
  return { op: 'basic_classifier', attrs: {}, argPositions: [], perOutput: [call(0), call(1)] };
};
