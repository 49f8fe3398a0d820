/**
 * How the vanilla target lowers its operators: with the host CPU's strategies (the loops
 * are correct code for any C target), plus, for int8 conv2d, a record on the convolution's
 * loop nest of everything `vanilla_conv2dnchw` needs. That record plays the part of the
 * block name TVM's template pass matches (`conv2d_nchw`): the TIR pass finds the nest by it
 * and swaps in the kernel call.
 */
import {
  CallNode,
  CPU_STRATEGIES,
  FusedActivation,
  LoweringError,
  nestBuffers,
  OperatorStrategy,
  OpLoweringInput,
  TensorType,
  quantParams,
  tir,
} from '../../src';
import { CONV2D_NEST_ANNOTATION, Conv2dCallParams, Conv2dScalars } from './kernel';

function cpuStrategy(op: string): OperatorStrategy {
  const s = CPU_STRATEGIES.get(op);
  if (s === undefined) throw new LoweringError(`the host CPU has no strategy for '${op}'`, { op, target: 'vanilla' });
  return s;
}

function fail(call: CallNode, message: string): never {
  throw new LoweringError(`vanilla conv2d ${call.name}: ${message}`, { op: call.name, target: 'vanilla' });
}

function pair(call: CallNode, key: string, fallback: readonly number[]): readonly number[] {
  const v = call.attrs[key] ?? fallback;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'number' || !Number.isInteger(x))) {
    fail(call, `attribute '${key}' must be a list of integers, got ${JSON.stringify(v)}`);
  }
  return v as readonly number[];
}

function quant(call: CallNode, t: TensorType, what: string): { scale: number; zeroPoint: number } {
  const q = t.quant;
  if (q === undefined || q.scale.length === 0) fail(call, `${what} has no quantization parameters`);
  return { scale: q.scale[0], zeroPoint: q.zeroPoint[0] ?? 0 };
}

/** The kernel's parameters for one int8 conv2d call, computed as TFLite Micro's Prepare does. */
export function conv2dCallParams(input: OpLoweringInput): Conv2dCallParams {
  const { call, args, out } = input;
  const [dataT, weightT] = input.argTypes;
  const [batches, inH, inW, inC] = dataT.shape;
  const [outC, kernelH, kernelW, filterC] = weightT.shape;
  const [, outH, outW] = call.type.shape;
  const [strideH, strideW] = pair(call, 'strides', [1, 1]);
  const [dilationH, dilationW] = pair(call, 'dilation', [1, 1]);
  const [padTop, padLeft] = pair(call, 'padding', [0, 0, 0, 0]);
  const inQ = quant(call, dataT, 'input');
  const outQ = quant(call, call.type, 'output');
  const filterScales = weightT.quant?.scale ?? [];
  if (filterScales.length !== 1 && filterScales.length !== outC) {
    fail(call, `weights carry ${filterScales.length} scales for ${outC} output channels`);
  }
  const activation = (call.attrs.activation ?? 'NONE') as FusedActivation;
  const range = quantParams.quantizedActivationRange(activation, call.type.dtype, outQ.scale, outQ.zeroPoint);
  const { multipliers, shifts } = quantParams.perChannelMultipliers(inQ.scale, filterScales, outQ.scale, outC);
  const scalars: Conv2dScalars = {
    batches,
    in_h: inH,
    in_w: inW,
    in_c: inC,
    out_h: outH,
    out_w: outW,
    out_c: outC,
    kernel_h: kernelH,
    kernel_w: kernelW,
    filter_c: filterC,
    stride_h: strideH,
    stride_w: strideW,
    dilation_h: dilationH,
    dilation_w: dilationW,
    pad_top: padTop,
    pad_left: padLeft,
    input_offset: -inQ.zeroPoint,
    output_offset: outQ.zeroPoint,
    act_min: range.min,
    act_max: range.max,
  };
  return {
    buffers: {
      input: args[0].data.id,
      weights: args[1].data.id,
      ...(args[2] !== undefined ? { bias: args[2].data.id } : {}),
      output: out.data.id,
    },
    scalars,
    multipliers: Array.from(multipliers),
    shifts: Array.from(shifts),
  };
}

/** Puts `params` on the outermost loop nest of `stmt` that writes `output` (the compute nest). */
export function annotateOutputNest(stmt: tir.Stmt, output: tir.Buffer, key: string, params: tir.AnnotationValue): tir.Stmt {
  let tagged = false;
  class Tagger extends tir.StmtExprMutator {
    override mutateFor(s: tir.For): tir.Stmt {
      if (tagged) return s;
      if (!nestBuffers(s).writes.some((b) => b.data.id === output.data.id)) return super.mutateFor(s);
      tagged = true;
      return { ...s, annotations: { ...s.annotations, [key]: params } };
    }
  }
  const out = new Tagger().mutateStmt(stmt);
  if (!tagged) throw new LoweringError(`no loop nest writes '${output.name}' in the lowered conv2d`, { buffer: output.name, target: 'vanilla' });
  return out;
}

const cpuConv2d = cpuStrategy('conv2d');

/** CPU conv2d loops; int8 ones carry the kernel's parameters for VanillaConv2dPass. */
export const vanillaConv2dStrategy: OperatorStrategy = (input) => {
  const stmt = cpuConv2d(input);
  if (input.argTypes[0].dtype !== 'int8') return stmt;
  const params = conv2dCallParams(input);
  return annotateOutputNest(stmt, input.out, CONV2D_NEST_ANNOTATION, params as unknown as tir.AnnotationValue);
};

/** Dense runs as the CPU's loops on the vanilla target (TVM's template has no dense kernel). */
export const vanillaDenseStrategy: OperatorStrategy = cpuStrategy('dense');
