/**
 * Graph IR -> TIR. Every host operator call of `main` becomes its own PrimFunc
 * (`tvmgen_<module>_fused_<op>[_<n>]`), every offloaded function (attr `Compiler`) one
 * PrimFunc named by its `global_symbol`, and `main` the AoT entry `__tvm_main__`: weights as
 * `constant_<n>` AllocateConsts, each intermediate tensor one `sid_<n>` Allocate (shared by
 * an in-place operator's output and the input it reuses), each call
 * `Evaluate(call_extern("<func>", vars...))` in topological order. Variable tensors (SVDF
 * state, resource variables) become `state_<n>` Allocates of `PERSISTENT_SCOPE`: static
 * arrays that keep what the owning operator (or an `updatesVariable` call such as
 * assign_variable, whose output is bound to the state) writes into them from one run to the next.
 */
import { Buffer as NodeBuffer } from 'buffer';
import { LoweringError } from '../errors';
import { inplaceAliases } from '../ir/graph/inplace';
import { aliasableReads } from '../ir/graph/variableReads';
import { isKnownOp, OPS, ORDERING_ROLE } from '../ir/graph/ops';
import { dtypeBytes } from '../ir/tir/dtype';
import { CallNode, ConstantNode, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION, TensorType, tensorElements } from '../ir/graph/types';
import { allocate, allocateConst, callExtern, evaluate, makeVar, primFunc, seq, tirModule } from '../ir/tir/builder';
import { ANN_FILL_BYTE, ANN_INITIAL_BYTES, AnnotationValue, ATTR_PARAM_TENSORS, Buffer, MAIN_PRIM_FUNC, PERSISTENT_SCOPE, PrimFunc, ScalarDType, Stmt, TirModule, Var } from '../ir/tir/nodes';
import { withOperatorRecords } from '../ir/tir/operators';
import { BodyLowering, scratchNames, StrategyLookup, TENSOR_ALIASES_ANNOTATION, TENSOR_ANNOTATION, tensorBuffer } from './bodyLowering';
import { NameSupply, sanitizeName } from './names';
import { HOST_TARGET, strategyBody } from './strategy';

export interface LowerOptions {
  /** The strategy of `op` (a primitive op or a composite name) on `target`. */
  readonly strategyFor: StrategyLookup;
  /**
   * In-place reuse in main (`inplaceAliases`, default on): a `view` op (reshape) whose input
   * dies there becomes the input's buffer under another name, with no call at all; an
   * `elementwise` op writes its output over such an input. Either way one `sid_<n>` holds
   * both tensors (annotation `uma.tensor_aliases` lists the later ones). A read_variable no
   * assignment overtakes (`aliasableReads`) reads the variable's buffer directly.
   */
  readonly inplace?: boolean;
  /** Prefix of generated function names: `tvmgen_<moduleName>_...` (default `default`). */
  readonly moduleName?: string;
}

/** A lowered callee and how main must call it. */
interface LoweredCall {
  readonly name: string;
  /** Main-side values to pass, in the callee's param order (outputs last). */
  readonly args: readonly CallArg[];
}

/** A lowered function and the constants of its own that callers pass after its arguments. */
interface LoweredFunction {
  readonly name: string;
  readonly constants: readonly ConstantNode[];
}

type CallArg = { readonly kind: 'value'; readonly name: string } | { readonly kind: 'constant'; readonly node: ConstantNode };

const handleVar = (name: string, type: TensorType): Var => makeVar(name, 'handle', type.dtype as ScalarDType);

export function lowerToTir(module: IRModule, options: LowerOptions): TirModule {
  return new ModuleLowering(module, options).run();
}

class ModuleLowering {
  private readonly functions: [string, PrimFunc][] = [];
  private readonly globalNames = new NameSupply();
  private readonly prefix: string;
  private readonly lowered = new Map<string, LoweredFunction>();

  constructor(
    private readonly module: IRModule,
    private readonly options: LowerOptions,
  ) {
    this.prefix = `tvmgen_${sanitizeName(options.moduleName ?? 'default')}`;
    this.globalNames.fresh(MAIN_PRIM_FUNC);
  }

  run(): TirModule {
    const main = this.module.functions.get(MAIN_FUNCTION);
    if (!main) throw new LoweringError(`module has no '${MAIN_FUNCTION}' function`, { file: this.module.source });
    const entry = this.lowerMain(main);
    return tirModule([...this.functions, [MAIN_PRIM_FUNC, entry]]);
  }

  // ------------------------------------------------------------------ AoT main

  private lowerMain(main: GraphFunction): PrimFunc {
    const nodes = new Map<string, GraphNode>(main.nodes.map((n) => [n.name, n]));
    const localNames = new NameSupply();
    const values = new Map<string, Var>();
    const params: Var[] = [];
    const bufferMap: [Var, Buffer][] = [];
    const bindParam = (name: string, type: TensorType): void => {
      const v = handleVar(localNames.fresh(sanitizeName(name)), type);
      params.push(v);
      bufferMap.push([v, tensorBuffer(v.name, type, v)]);
      values.set(name, v);
    };
    for (const p of main.params) bindParam(p, typeOfNode(main, nodes, p));
    for (const o of main.outputs) {
      const node = nodes.get(o);
      if (node?.kind !== 'call') throw new LoweringError(`main output '${o}' is not computed by an operator`, { func: MAIN_FUNCTION });
      if (values.has(o)) throw new LoweringError(`main output '${o}' is listed twice`, { func: MAIN_FUNCTION });
      bindParam(o, node.type);
    }

    const sids: { v: Var; type: TensorType; tensor: string; aliases: string[] }[] = [];
    const sidOf = new Map<number, (typeof sids)[number]>();
    const aliasOf = new Map((this.options.inplace === false ? [] : inplaceAliases(main)).map((a) => [a.tensor, a]));
    const constants = new Map<ConstantNode, Var>();
    const variables = new Map<ConstantNode, Var>();
    const constantVar = (node: ConstantNode): Var => {
      const table = node.variable ? variables : constants;
      let v = table.get(node);
      if (!v) {
        v = handleVar(`${node.variable ? 'state' : 'constant'}_${table.size}`, node.type);
        table.set(node, v);
      }
      return v;
    };
    // A read no assignment can overtake is the variable's own buffer: no copy runs.
    const readAliases = this.options.inplace === false ? new Set<string>() : aliasableReads(main);
    const calls: Stmt[] = [];
    for (const node of main.nodes) {
      if (node.kind !== 'call') continue;
      if (readAliases.has(node.name)) {
        const state = nodes.get(node.args[0]);
        if (state?.kind === 'constant' && state.variable) {
          values.set(node.name, constantVar(state));
          continue;
        }
      }
      const alias = aliasOf.get(node.name);
      const shared = alias !== undefined ? values.get(alias.input) : undefined;
      if (alias !== undefined && shared !== undefined && sidOf.has(shared.id)) {
        sidOf.get(shared.id)!.aliases.push(node.name);
        values.set(node.name, shared);
        // A view is the same bytes under another shape: nothing to run.
        if (alias.kind === 'view') continue;
      }
      const updated = updatedVariable(node, nodes);
      if (updated !== undefined) {
        if (values.has(node.name)) {
          throw new LoweringError(`${node.name} updates variable '${updated.name}' and cannot also be a model output`, { func: MAIN_FUNCTION, op: node.name });
        }
        // The call writes the variable's persistent buffer in place: that is its output.
        values.set(node.name, constantVar(updated));
      }
      const lowered = this.lowerMainCall(node, main, nodes);
      if (!values.has(node.name)) {
        const v = handleVar(`sid_${sids.length + 1}`, node.type);
        const sid = { v, type: node.type, tensor: node.name, aliases: [] };
        sids.push(sid);
        sidOf.set(v.id, sid);
        values.set(node.name, v);
      }
      const args = lowered.args.map((a) => {
        if (a.kind === 'constant') return constantVar(a.node);
        const v = values.get(a.name);
        if (!v) throw new LoweringError(`${node.name} uses '${a.name}' before it is computed`, { func: MAIN_FUNCTION, op: node.name });
        return v;
      });
      calls.push(evaluate(callExtern(lowered.name, args)));
    }

    let body = seq(calls);
    for (let i = sids.length - 1; i >= 0; i--) {
      const { v, type, tensor, aliases } = sids[i];
      const annotations = { [TENSOR_ANNOTATION]: tensor, ...(aliases.length > 0 ? { [TENSOR_ALIASES_ANNOTATION]: aliases } : {}) };
      body = allocate({ bufferVar: v, dtype: type.dtype as ScalarDType, extents: [tensorElements(type)], annotations, body });
    }
    for (const [node, v] of [...variables].reverse()) {
      body = allocate({
        bufferVar: v,
        dtype: node.type.dtype as ScalarDType,
        extents: [tensorElements(node.type)],
        storageScope: PERSISTENT_SCOPE,
        annotations: { [TENSOR_ANNOTATION]: node.name, ...initialStateAnnotation(node) },
        body,
      });
    }
    for (const [node, v] of [...constants].reverse()) {
      body = allocateConst({
        bufferVar: v,
        dtype: node.type.dtype as ScalarDType,
        extents: [tensorElements(node.type)],
        data: node.data,
        annotations: { [TENSOR_ANNOTATION]: node.name },
        body,
      });
    }
    return primFunc({
      params,
      bufferMap,
      body,
      // num_inputs tells I/O planning which leading params are inputs: a model output that is
      // also read (or never written) cannot be told apart otherwise.
      attrs: {
        global_symbol: MAIN_PRIM_FUNC,
        target: HOST_TARGET,
        'tir.noalias': true,
        runner_function: true,
        num_inputs: main.params.length,
        [ATTR_PARAM_TENSORS]: [...main.params, ...main.outputs],
      },
    });
  }

  private lowerMainCall(call: CallNode, main: GraphFunction, nodes: ReadonlyMap<string, GraphNode>): LoweredCall {
    const argValue = (name: string): CallArg => {
      const n = nodes.get(name);
      if (!n) throw new LoweringError(`${call.name} uses unknown value '${name}'`, { func: MAIN_FUNCTION, op: call.name });
      return n.kind === 'constant' ? { kind: 'constant', node: n } : { kind: 'value', name };
    };
    const out: CallArg = { kind: 'value', name: call.name };
    if (call.callee.kind === 'op') {
      const lowered = this.lowerHostOperator(call, main, nodes);
      return { name: lowered.name, args: [...lowered.argOrder.map((i) => argValue(call.args[i])), out] };
    }
    const fn = this.module.functions.get(call.callee.name);
    if (!fn) throw new LoweringError(`${call.name} calls unknown function '${call.callee.name}'`, { func: MAIN_FUNCTION, op: call.name });
    const lowered = this.lowerFunctionOnce(fn, call);
    const constants = lowered.constants.map((node): CallArg => ({ kind: 'constant', node }));
    return { name: lowered.name, args: [...call.args.map(argValue), ...constants, out] };
  }

  // ------------------------------------------------------------------ host operators

  /** One PrimFunc for one host operator: params inputs..., constants..., output. */
  private lowerHostOperator(call: CallNode, main: GraphFunction, nodes: ReadonlyMap<string, GraphNode>): { name: string; argOrder: number[] } {
    const op = (call.callee as { op: string }).op;
    if (!isKnownOp(op)) throw new LoweringError(`unknown operator '${op}' (${call.name})`, { op, target: HOST_TARGET, func: MAIN_FUNCTION });
    const strategy = this.options.strategyFor(HOST_TARGET, op);
    if (!strategy) throw new LoweringError(`no strategy for op '${op}' on target '${HOST_TARGET}' (${call.name})`, { op, target: HOST_TARGET, func: MAIN_FUNCTION });
    const argNodes = call.args.map((a) => nodes.get(a));
    const argTypes = call.args.map((a) => typeOfNode(main, nodes, a));
    const isConst = (i: number): boolean => argNodes[i]?.kind === 'constant';
    // An ordering-only argument carries no data, and an updated variable is the output itself.
    const spec = OPS[op];
    const passed = (i: number): boolean => spec.args[i] !== ORDERING_ROLE && i !== spec.updatesVariable;
    const indices = call.args.map((_, i) => i).filter(passed);
    const argOrder = [...indices.filter((i) => !isConst(i)), ...indices.filter(isConst)];
    const buffers: Buffer[] = new Array(call.args.length);
    argOrder.forEach((argIndex, k) => {
      buffers[argIndex] = tensorBuffer(`p${k}`, argTypes[argIndex]);
    });
    const out = tensorBuffer('out', call.type);
    const constants = new Map<number, ConstantNode>();
    argNodes.forEach((n, i) => {
      if (n?.kind === 'constant' && passed(i)) constants.set(i, n);
    });
    const body = strategyBody(strategy, { call, argTypes, args: buffers, constants, out, target: HOST_TARGET });
    const name = this.globalNames.fresh(`${this.prefix}_fused_${sanitizeName(op)}`);
    const params = [...argOrder.map((i) => buffers[i].data), out.data];
    const bufferMap = [...argOrder.map((i) => [buffers[i].data, buffers[i]] as const), [out.data, out] as const];
    const func = primFunc({ params, bufferMap, body, attrs: { global_symbol: name, 'tir.noalias': true, target: HOST_TARGET } });
    const record = { name: call.name, op, target: HOST_TARGET, inputs: indices.map((i) => buffers[i].data.name), outputs: [out.data.name], scratch: scratchNames(body) };
    this.functions.push([name, withOperatorRecords(func, [record])]);
    return { name, argOrder };
  }

  // ------------------------------------------------------------------ functions (offloaded, composites)

  /**
   * A function called from main: offloaded (`Compiler`) functions keep their global_symbol
   * and run on their target; other functions (host composites) are fused host PrimFuncs.
   * Params: the function's params, then its own constants, then its output.
   */
  private lowerFunctionOnce(fn: GraphFunction, call: CallNode): LoweredFunction {
    const cached = this.lowered.get(fn.name);
    if (cached) return cached;
    const compiler = fn.attrs.Compiler;
    const target = compiler ?? fn.attrs.target ?? HOST_TARGET;
    const name =
      compiler !== undefined
        ? this.globalNames.fresh(fn.attrs.global_symbol ?? fn.name)
        : this.globalNames.fresh(`${this.prefix}_fused_${sanitizeName(fn.attrs.Composite ?? fn.name)}`);
    if (fn.outputs.length !== 1) throw new LoweringError(`function '${fn.name}' returns ${fn.outputs.length} values; calls take one`, { func: fn.name, target });

    const localNames = new NameSupply();
    const nodesOf = new Map<string, GraphNode>(fn.nodes.map((n) => [n.name, n]));
    const params = fn.params.map((p) => {
      const type = typeOfNode(fn, nodesOf, p);
      return { buffer: tensorBuffer(localNames.fresh(sanitizeName(p)), type), type };
    });
    const constantParams = new Map<ConstantNode, Buffer>();
    const constantBuffer = (node: ConstantNode): Buffer => {
      let b = constantParams.get(node);
      if (!b) {
        b = tensorBuffer(localNames.fresh(sanitizeName(node.name)), node.type);
        constantParams.set(node, b);
      }
      return b;
    };
    const out = tensorBuffer(localNames.fresh(sanitizeName(fn.outputs[0])), call.type);
    const body = new BodyLowering(this.module, target, this.options.strategyFor, constantBuffer, localNames, name);
    body.lowerFunction(fn, params, new Map([[fn.outputs[0], out]]));

    const allParams = [...params.map((p) => p.buffer), ...constantParams.values(), out];
    const func = primFunc({
      params: allParams.map((b) => b.data),
      bufferMap: allParams.map((b) => [b.data, b] as const),
      body: body.body((stmts) => seq(stmts)),
      attrs: { global_symbol: name, 'tir.noalias': true, target },
    });
    this.functions.push([name, withOperatorRecords(func, body.records)]);
    const lowered: LoweredFunction = { name, constants: [...constantParams.keys()] };
    this.lowered.set(fn.name, lowered);
    return lowered;
  }
}

/** The variable a call of an `updatesVariable` op writes (its output), else undefined. */
function updatedVariable(call: CallNode, nodes: ReadonlyMap<string, GraphNode>): ConstantNode | undefined {
  if (call.callee.kind !== 'op') return undefined;
  const index = OPS[call.callee.op]?.updatesVariable;
  if (index === undefined) return undefined;
  const target = nodes.get(call.args[index] ?? '');
  if (target?.kind !== 'constant' || !target.variable) {
    throw new LoweringError(`${call.name}: argument ${index} of ${call.callee.op} must be a variable tensor`, { func: MAIN_FUNCTION, op: call.name });
  }
  return target;
}

/**
 * How a persistent array starts: one byte repeated (TFLite Micro's memset reset of a variable
 * tensor) as `uma.fill_byte` where that is what the data is, else the whole initial value
 * (a resource variable's CALL_ONCE init) as `uma.initial_bytes`.
 */
function initialStateAnnotation(node: ConstantNode): Record<string, AnnotationValue> {
  const first = node.data[0] ?? 0;
  const uniform = node.data.every((b) => b === first);
  if (uniform && first === 0) return {};
  if (uniform && dtypeBytes(node.type.dtype as ScalarDType) === 1) return { [ANN_FILL_BYTE]: first };
  return { [ANN_INITIAL_BYTES]: NodeBuffer.from(node.data.buffer, node.data.byteOffset, node.data.byteLength).toString('base64') };
}

function typeOfNode(fn: GraphFunction, nodes: ReadonlyMap<string, GraphNode>, name: string): TensorType {
  const n = nodes.get(name);
  if (!n) throw new LoweringError(`${fn.name}: unknown value '${name}'`, { func: fn.name });
  return n.type;
}
