/**
 * VanillaConv2dPass (TIR phase 1): replaces each int8 conv2d loop nest of the vanilla
 * target's PrimFuncs with `tir.call_extern("vanilla_conv2dnchw", ...)`, as TVM's template
 * pass does, then drops the scratch only those loops used (padded copy, accumulator, tables).
 * The requantization tables the kernel reads become AllocateConsts around the call.
 */
import {
  forEachTargetFunction,
  LoweringError,
  PassContext,
  readOperatorRecords,
  replaceLoopNestWithCallExtern,
  tir,
  TirPass,
  withOperatorRecords,
} from '../../src';
import { removeDeadScratch } from './deadScratch';
import { CONV2D_NEST_ANNOTATION, CONV2D_SCALAR_PARAMS, Conv2dCallParams, VANILLA_CONV2D } from './kernel';

/** Handle vars of the function by id: params, buffer data vars, allocations. */
function varsById(func: tir.PrimFunc): Map<number, tir.Var> {
  const byId = new Map<number, tir.Var>();
  class Vars extends tir.StmtExprVisitor {
    override visitVar(v: tir.Var): void {
      if (!byId.has(v.id)) byId.set(v.id, v);
    }
  }
  new Vars().visitPrimFunc(func);
  return byId;
}

function int32Bytes(values: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setInt32(i * 4, v, true));
  return bytes;
}

function isCallParams(v: unknown): v is Conv2dCallParams {
  const p = v as Conv2dCallParams | undefined;
  return typeof p === 'object' && p !== null && typeof p.buffers === 'object' && typeof p.scalars === 'object' && Array.isArray(p.multipliers);
}

/** The call (wrapped in the constant tables it reads) that computes one annotated nest. */
function kernelCall(params: Conv2dCallParams, vars: ReadonlyMap<number, tir.Var>, funcName: string, nestName: string): tir.Stmt {
  const resolve = (role: string, id: number): tir.Var => {
    const v = vars.get(id);
    if (v === undefined) {
      throw new LoweringError(`vanilla conv2d in ${funcName}: the ${role} buffer (var id ${id}) is not in scope of loop '${nestName}'`, {
        func: funcName,
        target: 'vanilla',
      });
    }
    return v;
  };
  const output = resolve('output', params.buffers.output);
  const prefix = `vanilla_${output.name}`;
  const outC = params.scalars.out_c;
  const table = (name: string, values: readonly number[]): tir.Var => {
    if (values.length !== outC) {
      throw new LoweringError(`vanilla conv2d in ${funcName}: ${values.length} ${name} values for ${outC} output channels`, { func: funcName, target: 'vanilla' });
    }
    return tir.makeVar(`${prefix}_${name}`, 'handle', 'int32');
  };
  const mult = table('multiplier', params.multipliers);
  const shift = table('shift', params.shifts);
  // A conv2d without bias gets a zero bias so the kernel has a single signature.
  const zeroBias = params.buffers.bias === undefined ? tir.makeVar(`${prefix}_zero_bias`, 'handle', 'int32') : undefined;
  const bias = zeroBias ?? resolve('bias', params.buffers.bias as number);
  const call = tir.callExtern(VANILLA_CONV2D, [
    resolve('input', params.buffers.input),
    resolve('weights', params.buffers.weights),
    bias,
    output,
    mult,
    shift,
    ...CONV2D_SCALAR_PARAMS.map((p) => tir.intImm(params.scalars[p])),
  ]);
  let stmt: tir.Stmt = tir.evaluate(call);
  if (zeroBias !== undefined) {
    stmt = tir.allocateConst({ bufferVar: zeroBias, dtype: 'int32', extents: [outC], data: new Uint8Array(outC * 4), body: stmt });
  }
  stmt = tir.allocateConst({ bufferVar: shift, dtype: 'int32', extents: [outC], data: int32Bytes(params.shifts), body: stmt });
  return tir.allocateConst({ bufferVar: mult, dtype: 'int32', extents: [outC], data: int32Bytes(params.multipliers), body: stmt });
}

/** One PrimFunc with every annotated conv2d nest replaced; unchanged when there is none. */
export function replaceConv2dNests(func: tir.PrimFunc, funcName: string): tir.PrimFunc {
  const vars = varsById(func);
  const replaced = replaceLoopNestWithCallExtern(
    func,
    (nest) => {
      const p = nest.annotations[CONV2D_NEST_ANNOTATION];
      return isCallParams(p) ? p : undefined;
    },
    (nest, params) => kernelCall(params, vars, funcName, nest.loopVar.name),
  );
  return replaced === func ? func : withoutStaleScratch(removeDeadScratch(replaced));
}

/** Operator records list scratch by name; drop the names whose allocations were removed. */
function withoutStaleScratch(func: tir.PrimFunc): tir.PrimFunc {
  const records = readOperatorRecords(func);
  if (records.length === 0) return func;
  const allocated = new Set(tir.collectAllocates(func.body).map((a) => a.bufferVar.name));
  return withOperatorRecords(
    func,
    records.map((r) => ({ ...r, scratch: r.scratch.filter((n) => allocated.has(n)) })),
  );
}

export const vanillaConv2dPass: TirPass = {
  name: 'VanillaConv2dPass',
  phase: 1,
  run(module: tir.TirModule, ctx: PassContext): tir.TirModule {
    return forEachTargetFunction(module, ctx.target, (func, name) => replaceConv2dNests(func, name));
  },
};
