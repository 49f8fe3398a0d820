/**
 * The elementwise builtins (binary with broadcasting, activations, unary math, CAST): each
 * keeps its data inputs as call arguments, reads its fused activation or slope, and rejects
 * a tensor type TFLite Micro has no kernel for, naming the operator, its index and the type.
 */
import { isPlainInt16Abs, QUANTIZED_UNARY_DTYPES, quantizedUnary } from '../../../arith/unaryQuantized';
import { DType } from '../../../ir/graph/types';
import { tflmDtypeRefusal } from './tflmKernels';
import { ArithmeticOptions, BuiltinOptionsType, LeakyReluOptions } from '../schema';
import { quantizedActivation, Converter, inputType, OperatorSite, options, requireAddRescale, requireBroadcastRank, requireRescaleQuantization, tensorQuant, unsupportedParameter } from './common';

/** TFLite Micro's kernel types per graph op (the output's; inputs share it except for cast). */
export const ELEMENTWISE_DTYPES: Readonly<Record<string, readonly DType[]>> = {
  add: ['float32', 'int8', 'int16', 'int32'],
  sub: ['float32', 'int8', 'int16', 'int32'],
  mul: ['float32', 'int8', 'int16', 'int32'],
  div: ['float32', 'int8', 'int32'],
  maximum: ['float32', 'int8', 'int16', 'int32', 'int64'],
  minimum: ['float32', 'int8', 'int16', 'int32', 'int64'],
  squared_difference: ['float32', 'int8', 'int16', 'int32'],
  prelu: ['float32', 'int8', 'int16'],
  relu: ['float32', 'int8', 'int16'],
  relu6: ['float32', 'int8', 'int16'],
  relu_n1_to_1: ['float32', 'int8', 'int16'],
  leaky_relu: ['float32', 'int8', 'int16'],
  hard_swish: ['float32', 'int8'],
  logistic: ['float32', 'int8', 'int16'],
  tanh: ['float32', 'int8', 'int16'],
  elu: ['float32', 'int8'],
  abs: ['float32', 'int8', 'int16', 'int32'],
  neg: ['float32', 'int32'],
  sqrt: ['float32'],
  rsqrt: ['float32', 'int8'],
  exp: ['float32'],
  log: ['float32'],
  cast: ['float32', 'int8', 'uint8', 'int16', 'int32', 'uint32', 'bool'],
  floor: ['float32'],
  ceil: ['float32'],
  round: ['float32'],
  sin: ['float32'],
  cos: ['float32'],
  square: ['float32'],
  floor_div: ['float32'],
  floor_mod: ['float32'],
};

function checkTypes(site: OperatorSite, op: string, inputs: number): void {
  const allowed = ELEMENTWISE_DTYPES[op];
  const types = [...Array.from({ length: inputs }, (_, i) => inputType(site, i, `input ${i}`)), site.outputType];
  types.forEach((t, i) => {
    if (!allowed.includes(t.dtype)) {
      const role = i === inputs ? 'output' : `input ${i}`;
      unsupportedParameter(site, `${role} type ${t.dtype} (supported: ${allowed.join(', ')})`, tflmDtypeRefusal(site, role, t.dtype));
    }
  });
}

/** A binary op with a fused activation in Mul/Sub/DivOptions. */
export const arithmetic =
  (op: 'sub' | 'mul' | 'div', optionsType: number): Converter =>
  (site) => {
    checkTypes(site, op, 2);
    requireRescaleQuantization(site, 2);
    if (op === 'sub') requireAddRescale(site);
    // TFLM's MUL Prepare (mul_common.cc) requires every int16 zero point to be 0.
    if (op === 'mul') checkInt16ZeroPoints(site);
    // TFLM's int32 DIV (plain integer division) requires unquantized inputs.
    if (op === 'div' && site.outputType.dtype === 'int32') {
      [0, 1].forEach((i) => {
        if (inputType(site, i, `input ${i}`).quant !== undefined) unsupportedParameter(site, `quantized int32 input ${i} (TFLite Micro's int32 DIV takes unquantized tensors)`);
      });
    }
    const opts = options(site, optionsType, ArithmeticOptions);
    return { op, attrs: { activation: quantizedActivation(site, opts?.fusedActivation ?? 0) }, argPositions: [0, 1] };
  };

/** A binary op without options (maximum, minimum, squared_difference, prelu, floor_div, floor_mod). */
export const binary =
  (op: string): Converter =>
  (site) => {
    if (op === 'prelu') checkPreluTypes(site);
    else checkTypes(site, op, 2);
    if (op === 'squared_difference' || op === 'prelu') requireRescaleQuantization(site, 2);
    if (op === 'squared_difference') checkInt16ZeroPoints(site);
    // TFLM's FLOOR_DIV/FLOOR_MOD broadcast through BroadcastBinaryFunction4DSlow: 4 axes at most.
    if (op === 'floor_div' || op === 'floor_mod') requireBroadcastRank(site, [inputType(site, 0, 'input 0'), inputType(site, 1, 'input 1')], 4);
    return { op, attrs: {}, argPositions: [0, 1] };
  };

/** TFLM's PRELU: input, alpha and output share a type, except int16 input/output with an int8 alpha. */
function checkPreluTypes(site: OperatorSite): void {
  const allowed = ELEMENTWISE_DTYPES.prelu;
  const out = site.outputType.dtype;
  if (!allowed.includes(out)) unsupportedParameter(site, `output type ${out} (supported: ${allowed.join(', ')})`);
  const input = inputType(site, 0, 'input').dtype;
  if (input !== out) unsupportedParameter(site, `input type ${input} with output type ${out}`);
  const alpha = inputType(site, 1, 'alpha').dtype;
  const wanted = out === 'int16' ? 'int8' : out;
  if (alpha !== wanted) unsupportedParameter(site, `alpha type ${alpha} with ${out} input (needs ${wanted})`);
}

/** TFLM's int16 SQUARED_DIFFERENCE and MUL Prepare require every zero point to be 0. */
function checkInt16ZeroPoints(site: OperatorSite): void {
  if (site.outputType.dtype !== 'int16') return;
  const types = [inputType(site, 0, 'input 0'), inputType(site, 1, 'input 1'), site.outputType];
  types.forEach((t, i) => {
    const zp = t.quant?.zeroPoint[0] ?? 0;
    if (zp !== 0) unsupportedParameter(site, `int16 ${i === 2 ? 'output' : `input ${i}`} zero point ${zp} (must be 0)`);
  });
}

/**
 * A quantized unary op whose tensors' quantization TFLite Micro's Prepare would reject
 * (e.g. an int8 LOGISTIC output whose zero point is not -128) is reported here, so inspect lists it.
 */
function checkQuantization(site: OperatorSite, op: string, alpha = 0): void {
  const input = inputType(site, 0, 'input');
  const output = site.outputType;
  if (!QUANTIZED_UNARY_DTYPES[op]?.includes(output.dtype)) return;
  if (isPlainInt16Abs(op, input)) return;
  const fn = quantizedUnary(op, output.dtype, tensorQuant(site, input, 'input'), tensorQuant(site, output, 'output'), alpha);
  if (typeof fn === 'string') unsupportedParameter(site, `quantization: ${fn}`);
}

/** A unary op without options. */
export const unary =
  (op: string): Converter =>
  (site) => {
    checkTypes(site, op, 1);
    checkQuantization(site, op);
    return { op, attrs: {}, argPositions: [0] };
  };

export const leakyRelu: Converter = (site) => {
  checkTypes(site, 'leaky_relu', 1);
  const opts = options(site, BuiltinOptionsType.LeakyReluOptions, LeakyReluOptions);
  const alpha = opts?.alpha ?? 0;
  checkQuantization(site, 'leaky_relu', alpha);
  return { op: 'leaky_relu', attrs: { alpha }, argPositions: [0] };
};
