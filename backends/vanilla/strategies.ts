/**
 * How the vanilla target lowers its operators: with the host CPU's strategies (the loops
 * are correct code for any C target), plus, for int8 conv2d, a record on the convolution's
 * loop nest of everything `vanilla_conv2dnchw` needs. That record plays the part of the
 * block name TVM's template pass matches (`conv2d_nchw`): the TIR pass finds the nest by it
 * and swaps in the kernel call.
 */
import { convKernelParams, CPU_STRATEGIES, LoweringError, makeConv2dStrategy, nestBuffers, OperatorStrategy, OpLoweringInput, tir } from '../../src';
import { CONV2D_NEST_ANNOTATION, Conv2dCallParams } from './kernel';

function cpuStrategy(op: string): OperatorStrategy {
  const s = CPU_STRATEGIES.get(op);
  if (s === undefined) throw new LoweringError(`the host CPU has no strategy for '${op}'`, { op, target: 'vanilla' });
  return s;
}

/** The kernel's parameters for one int8 conv2d call, computed as TFLite Micro's Prepare does. */
export function conv2dCallParams(input: OpLoweringInput): Conv2dCallParams {
  const { args, out } = input;
  const { scalars, multipliers, shifts } = convKernelParams(input);
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

// One nest over a padded copy (not the host's border/interior nests): the kernel call
// replaces that single nest, and the copy becomes dead scratch the pass drops.
const cpuConv2d = makeConv2dStrategy({ padding: 'padded-scratch' });

/** CPU conv2d loops; int8 ones carry the kernel's parameters for VanillaConv2dPass. */
export const vanillaConv2dStrategy: OperatorStrategy = (input) => {
  const stmt = cpuConv2d(input);
  if (input.argTypes[0].dtype !== 'int8') return stmt;
  const params = conv2dCallParams(input);
  return annotateOutputNest(stmt, input.out, CONV2D_NEST_ANNOTATION, params as unknown as tir.AnnotationValue);
};

/** Dense runs as the CPU's loops on the vanilla target (TVM's template has no dense kernel). */
export const vanillaDenseStrategy: OperatorStrategy = cpuStrategy('dense');
