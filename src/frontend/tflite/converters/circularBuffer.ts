/**
 * CIRCULAR_BUFFER (TFLite Micro's custom operator, kernels/circular_buffer.cc) → one packed
 * `circular_buffer` call (the output buffer, then the ready flag) and its outputs sliced /
 * flagged out of it. Stateful: the output tensor, which TFLite Micro keeps as a variable tensor
 * shifted in place, and the period counter (`cycles_until_run`, in its persistent OpData) are one
 * int32 variable the importer adds: the counter starts at the period, the values at the output's
 * zero point (TFLite Micro's ResetVariableTensors).
 *
 * With two outputs (input, buffer, bool `valid`) the kernel writes the ready flag and always
 * succeeds. With one output it returns kTfLiteAbort when not ready, and TFLite Micro's graph
 * stops the invocation there (no later operator runs, Invoke reports the abort): uma-ts runs
 * every operator of an invocation, so that form is refused unless its period is 1 (never aborts).
 */
import { tensorElements } from '../../../ir/graph/types';
import { ConvertedOperator, Converter, formatError, inputType, OperatorSite, unsupportedParameter } from './common';
import { sliceCall } from './dataMovement';
import { signalOptions } from './signal/common';
import { CIRCULAR_BUFFER_COUNTER } from '../../../arith/circularBuffer';

export const CIRCULAR_BUFFER_CODE = 'CIRCULAR_BUFFER';

/** Output slot counts TFLite Micro's Prepare gives period 1 when cycles_max is not set (its two streaming models). */
const PERIOD_ONE_SLOTS: readonly number[] = [5, 13, 25];

/** cycles_max as TFLite Micro's Init reads it: element 0 of the options map as int32, 0 without options. */
function cyclesMaxOption(site: OperatorSite): number {
  const bytes = site.operator.customOptions;
  if (!bytes || bytes.length === 0) return 0;
  // The current kernel reads the map by position (FlexbufferWrapper, element 0), older ones by
  // key: only a map holding exactly cycles_max means the same to both.
  return signalOptions(site, ['cycles_max']).int('cycles_max');
}

/**
 * The period Prepare settles on: cycles_max when positive, else its guess from the output's
 * shape. One guess (an output [_, _, 2, 96] not of 5, 13 or 25 slots) depends on a counter
 * TFLite Micro keeps across every interpreter of the process, so it is refused.
 */
function period(site: OperatorSite, slotsDims: readonly number[]): number {
  const option = cyclesMaxOption(site);
  if (option > 0) return option;
  const [, slots, height, depth] = slotsDims;
  if (PERIOD_ONE_SLOTS.includes(slots)) return 1;
  if (height === 2 && depth === 96) {
    unsupportedParameter(
      site,
      `cycles_max ${option} with an output of shape [${slotsDims}] (TFLite Micro then picks the period by how many CIRCULAR_BUFFERs without cycles_max it has prepared in the whole process; give cycles_max)`,
    );
  }
  return 2;
}

export const circularBuffer: Converter = (site) => {
  if (site.inputTypes.length !== 1) formatError(site, `has ${site.inputTypes.length} inputs, expected 1`);
  const outputs = site.outputTypes.length;
  if (outputs !== 1 && outputs !== 2) formatError(site, `has ${outputs} outputs, expected 1 or 2`);
  const x = inputType(site, 0, 'input');
  const out = site.outputTypes[0];
  if (x.dtype !== out.dtype) formatError(site, `input type ${x.dtype} and output type ${out.dtype} differ`);
  if (x.dtype !== 'int8') unsupportedParameter(site, `type ${x.dtype} (TFLite Micro's CIRCULAR_BUFFER takes int8)`);
  // Prepare reads four dimensions of each without checking the rank: [batch, 1, height, depth] in, [batch, slots, height, depth] out.
  if (x.shape.length !== 4 || out.shape.length !== 4) formatError(site, `input [${x.shape}] and output [${out.shape}] must have 4 dimensions`);
  if (x.shape[0] !== out.shape[0] || x.shape[1] !== 1 || x.shape[2] !== out.shape[2] || x.shape[3] !== out.shape[3]) {
    formatError(site, `input [${x.shape}] must be [${out.shape[0]}, 1, ${out.shape[2]}, ${out.shape[3]}] for output [${out.shape}]`);
  }
  const slots = out.shape[1];
  // Eval's memmove of (slots - 1) * depth bytes: no slot is a negative length.
  if (slots < 1) unsupportedParameter(site, `output of ${slots} slots (shape [${out.shape}])`);
  if (outputs === 2) {
    const valid = site.outputTypes[1];
    if (valid.dtype !== 'bool' || tensorElements(valid) !== 1) formatError(site, `valid output [${valid.shape}] ${valid.dtype}, expected one bool`);
  }
  const cyclesMax = period(site, out.shape);
  if (outputs === 1 && cyclesMax !== 1) {
    unsupportedParameter(
      site,
      `period ${cyclesMax} with one output (TFLite Micro aborts the invocation, skipping every later operator, ${cyclesMax - 1} in ${cyclesMax} times; ` +
        'uma-ts always runs the whole graph: give the operator its bool valid output, which TFLite Micro writes instead of aborting)',
    );
  }
  // Eval shifts the first slots * (height * depth) values; a batch beyond the first stays as reset.
  const depth = out.shape[2] * out.shape[3];
  const values = tensorElements(out);
  const zeroPoint = out.quant && out.quant.zeroPoint.length > 0 ? out.quant.zeroPoint[0] : 0;
  const initial = new Int32Array(CIRCULAR_BUFFER_COUNTER + values).fill((zeroPoint << 24) >> 24);
  initial[0] = cyclesMax;
  const flag: ConvertedOperator = { op: 'signal_flag', attrs: { index: values }, argPositions: [] };
  return {
    op: 'circular_buffer',
    attrs: { num_slots: slots, depth, cycles_max: cyclesMax },
    argPositions: [0],
    state: { type: { shape: [CIRCULAR_BUFFER_COUNTER + values], dtype: 'int32' }, suffix: 'circular_buffer_state', initial: new Uint8Array(initial.buffer) },
    packed: { type: { shape: [values + 1], dtype: 'int8' } },
    perOutput: outputs === 2 ? [sliceCall([0], [1], [values]), flag] : [sliceCall([0], [1], [values])],
  };
};
