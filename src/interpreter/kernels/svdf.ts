/**
 * SVDF as TFLite Micro's reference kernels: one invocation starting from the state the
 * `state` argument holds; when that argument is a variable tensor of the session, the new
 * state is written back for the next invocation (a plain constant stays as is). The state is
 * [batch, filters * memory]: shifted left by one, the feature projection written into
 * each filter's newest slot, then contracted with weights_time, reduced over rank,
 * biased and activated (float) or requantized to int8 (integer path, int16/int8 state).
 */
import { multiplyByQuantizedMultiplier } from '../../arith/fixedpoint';
import { floatActivationRange, integerRange, svdfIntegerParams } from '../../arith/quant-params';
import { KernelContext } from '../kernel';
import { allocateTensorData, Tensor, TypedArray } from '../tensor';

interface SvdfShapes {
  readonly batches: number;
  readonly inputSize: number;
  readonly filters: number;
  readonly units: number;
  readonly memory: number;
  readonly rank: number;
}

/** Position of the state argument: last, after the optional bias. */
function stateIndex(ctx: KernelContext): number {
  return ctx.args.length === 4 ? 3 : 4;
}

function operands(ctx: KernelContext): { input: Tensor; wf: Tensor; wt: Tensor; bias?: Tensor; state: Tensor } {
  const input = ctx.input(0, 'input');
  const wf = ctx.input(1, 'weights_feature');
  const wt = ctx.input(2, 'weights_time');
  // Without a bias the state may follow weights_time directly.
  if (ctx.args.length === 4) return { input, wf, wt, state: ctx.input(3, 'state') };
  return { input, wf, wt, bias: ctx.optionalInput(3), state: ctx.input(4, 'state') };
}

function shapes(ctx: KernelContext, input: Tensor, wf: Tensor, wt: Tensor, state: Tensor): SvdfShapes {
  const rank = ctx.number('rank');
  if (input.type.shape.length !== 2 || wf.type.shape.length !== 2 || wt.type.shape.length !== 2) {
    throw ctx.fail('input, weights_feature and weights_time must be rank 2');
  }
  const [batches, inputSize] = input.type.shape;
  const [filters, wfIn] = wf.type.shape;
  const [wtFilters, memory] = wt.type.shape;
  if (wfIn !== inputSize || wtFilters !== filters || rank <= 0 || filters % rank !== 0) {
    throw ctx.fail(`inconsistent shapes: weights_feature [${wf.type.shape}], weights_time [${wt.type.shape}], rank ${rank}`);
  }
  if (state.data.length !== batches * filters * memory) {
    throw ctx.fail(`state has ${state.data.length} elements, expected ${batches * filters * memory}`);
  }
  return { batches, inputSize, filters, units: filters / rank, memory, rank };
}

/** The state after TFLite's left shift by one element (the C code shifts the flat buffer). */
function shiftedState<T extends Float32Array | Int16Array | Int8Array>(state: T): T {
  const s = state.slice() as T;
  s.copyWithin(0, 1);
  return s;
}

export function svdf(ctx: KernelContext): TypedArray {
  const { input, wf, wt, bias, state } = operands(ctx);
  const d = shapes(ctx, input, wf, wt, state);
  const out = allocateTensorData(ctx.outType);
  if (out.length !== d.batches * d.units) throw ctx.fail(`output must have ${d.batches} x ${d.units} elements`);
  return input.type.dtype === 'float32' ? svdfFloat(ctx, d, input, wf, wt, bias, state, out as Float32Array)
    : svdfInteger(ctx, d, input, wf, wt, bias, state, out);
}

function svdfFloat(
  ctx: KernelContext,
  d: SvdfShapes,
  input: Tensor,
  wf: Tensor,
  wt: Tensor,
  bias: Tensor | undefined,
  stateIn: Tensor,
  out: Float32Array,
): TypedArray {
  const f32 = Math.fround;
  const x = input.data as Float32Array;
  const wfd = wf.data as Float32Array;
  const wtd = wt.data as Float32Array;
  const b = bias?.data as Float32Array | undefined;
  const state = shiftedState(stateIn.data as Float32Array);
  for (let n = 0; n < d.batches; n++)
    for (let f = 0; f < d.filters; f++) {
      let dot = 0;
      for (let i = 0; i < d.inputSize; i++) dot = f32(dot + f32(wfd[f * d.inputSize + i] * x[n * d.inputSize + i]));
      state[(n * d.filters + f) * d.memory + d.memory - 1] = dot;
    }
  ctx.updateVariable(stateIndex(ctx), state);
  const scratch = new Float32Array(d.batches * d.filters);
  for (let n = 0; n < d.batches; n++)
    for (let f = 0; f < d.filters; f++) {
      let acc = 0;
      const sBase = (n * d.filters + f) * d.memory;
      for (let m = 0; m < d.memory; m++) acc = f32(acc + f32(wtd[f * d.memory + m] * state[sBase + m]));
      scratch[n * d.filters + f] = acc;
    }
  const act = floatActivationRange(ctx.string('activation', 'NONE'));
  for (let n = 0; n < d.batches; n++)
    for (let u = 0; u < d.units; u++) {
      let v = b ? b[u] : 0;
      for (let r = 0; r < d.rank; r++) v = f32(v + scratch[n * d.filters + u * d.rank + r]);
      out[n * d.units + u] = Math.min(Math.max(v, act.min), act.max);
    }
  return out;
}

function svdfInteger(
  ctx: KernelContext,
  d: SvdfShapes,
  input: Tensor,
  wf: Tensor,
  wt: Tensor,
  bias: Tensor | undefined,
  stateIn: Tensor,
  out: TypedArray,
): TypedArray {
  const stateType = stateIn.type.dtype;
  if (input.type.dtype !== 'int8' || wf.type.dtype !== 'int8' || ctx.outType.dtype !== 'int8') {
    throw ctx.unsupported(`dtypes input ${input.type.dtype} / weights_feature ${wf.type.dtype} / output ${ctx.outType.dtype}`);
  }
  if ((stateType !== 'int16' && stateType !== 'int8') || wt.type.dtype !== stateType) {
    throw ctx.unsupported(`state ${stateType} with weights_time ${wt.type.dtype}`);
  }
  const inQ = ctx.quant(input.type, 'input');
  const wfQ = ctx.quant(wf.type, 'weights_feature');
  const wtQ = ctx.quant(wt.type, 'weights_time');
  const stQ = ctx.quant(stateIn.type, 'state');
  const outQ = ctx.quant(ctx.outType, 'output');
  const p = svdfIntegerParams(inQ.scale, wfQ.scale, stQ.scale, wtQ.scale, outQ.scale);
  const stateRange = integerRange(stateType);
  const x = input.data as Int8Array;
  const wfd = wf.data as Int8Array;
  const wtd = wt.data as Int16Array | Int8Array;
  const b = bias?.data as Int32Array | undefined;
  const state = shiftedState(stateIn.data as Int16Array | Int8Array);
  for (let n = 0; n < d.batches; n++)
    for (let f = 0; f < d.filters; f++) {
      let dot = 0;
      for (let i = 0; i < d.inputSize; i++) {
        dot = (dot + wfd[f * d.inputSize + i] * (x[n * d.inputSize + i] - inQ.zeroPoint)) | 0;
      }
      dot = multiplyByQuantizedMultiplier(dot, p.scale1.multiplier, p.scale1.shift);
      // The state's zero point goes in before the clamp, as in TFLite Micro: clamping first
      // lets the sum leave the state's range and wrap when narrowed.
      dot = Math.min(Math.max(stQ.zeroPoint + dot, stateRange.min), stateRange.max);
      state[(n * d.filters + f) * d.memory + d.memory - 1] = dot;
    }
  ctx.updateVariable(stateIndex(ctx), state);
  const scratch = new Int32Array(d.batches * d.filters);
  for (let n = 0; n < d.batches; n++)
    for (let f = 0; f < d.filters; f++) {
      let acc = 0;
      const sBase = (n * d.filters + f) * d.memory;
      for (let m = 0; m < d.memory; m++) acc = (acc + wtd[f * d.memory + m] * (state[sBase + m] - stQ.zeroPoint)) | 0;
      scratch[n * d.filters + f] = acc;
    }
  const { min, max } = integerRange('int8');
  const o = out as Int8Array;
  for (let n = 0; n < d.batches; n++)
    for (let u = 0; u < d.units; u++) {
      let acc = b ? b[u] : 0;
      for (let r = 0; r < d.rank; r++) acc = (acc + scratch[n * d.filters + u * d.rank + r]) | 0;
      const v = multiplyByQuantizedMultiplier(acc, p.scale2.multiplier, p.scale2.shift) + outQ.zeroPoint;
      o[n * d.units + u] = Math.min(Math.max(v, min), max);
    }
  return out;
}
