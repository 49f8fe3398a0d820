/**
 * Lowers the calls of one graph function, in order, into statements of one PrimFunc: each
 * operator through the strategy of the PrimFunc's target, composites through their own
 * strategy when the target has one (else operator by operator), intermediates as
 * operator-internal Allocates. Used for offloaded functions and for host composites.
 */
import { LoweringError } from '../errors';
import { CallNode, ConstantNode, GraphFunction, IRModule, TensorType, tensorElements } from '../ir/graph/types';
import { allocate, makeBuffer, makeVar } from '../ir/tir/builder';
import { Buffer, ScalarDType, Stmt } from '../ir/tir/nodes';
import { OperatorRecord } from '../ir/tir/operators';
import { collectAllocates } from '../ir/tir/analysis';
import { NameSupply, sanitizeName } from './names';
import { OperatorStrategy, OpLoweringInput, strategyBody } from './strategy';
import { OPS } from '../ir/graph/ops';

export type StrategyLookup = (target: string, op: string) => OperatorStrategy | undefined;

export const TENSOR_ANNOTATION = 'uma.tensor';
/** On a main `sid_<n>` Allocate: the later tensors that share it in place (`inplaceAliases`). */
export const TENSOR_ALIASES_ANNOTATION = 'uma.tensor_aliases';

/** A value a graph node name stands for inside the PrimFunc being built. */
interface Bound {
  readonly buffer: Buffer;
  readonly type: TensorType;
  readonly constant?: ConstantNode;
}

export function tensorBuffer(name: string, type: TensorType, data = makeVar(name, 'handle', type.dtype as ScalarDType)): Buffer {
  return makeBuffer(name, type.dtype as ScalarDType, type.shape, data);
}

/** Allocate vars a strategy's statement introduced: the operator's scratch. */
export function scratchNames(stmt: Stmt): string[] {
  return collectAllocates(stmt)
    .filter((a) => a.storageScope !== 'local')
    .map((a) => a.bufferVar.name);
}

export class BodyLowering {
  readonly statements: Stmt[] = [];
  readonly records: OperatorRecord[] = [];
  /** Intermediates, in creation order, to be wrapped as Allocates around the body. */
  private readonly intermediates: { buffer: Buffer; tensor: string; extent: number }[] = [];

  constructor(
    private readonly module: IRModule,
    private readonly target: string,
    private readonly strategyFor: StrategyLookup,
    /** The PrimFunc param buffer of a constant the function uses (constants become params). */
    private readonly constantBuffer: (node: ConstantNode) => Buffer,
    private readonly names: NameSupply,
    private readonly funcName: string,
  ) {}

  /**
   * Lowers `fn` with its params bound to `args` and its outputs written to `outputs`;
   * `partOf`: the composite `fn`'s operators are lowered within.
   */
  lowerFunction(fn: GraphFunction, args: readonly Bound[], outputs: ReadonlyMap<string, Buffer>, partOf?: string): void {
    if (args.length !== fn.params.length) {
      throw new LoweringError(`${fn.name} takes ${fn.params.length} arguments, got ${args.length}`, { func: fn.name, target: this.target });
    }
    const env = new Map<string, Bound>();
    fn.params.forEach((p, i) => env.set(p, args[i]));
    for (const node of fn.nodes) {
      if (node.kind === 'constant') env.set(node.name, { buffer: this.constantBuffer(node), type: node.type, constant: node });
      if (node.kind !== 'call') continue;
      const out = outputs.get(node.name) ?? this.intermediate(node);
      const callArgs = node.args.map((a) => {
        const b = env.get(a);
        if (!b) throw new LoweringError(`${fn.name}: ${node.name} uses unknown value '${a}'`, { func: fn.name, op: node.name });
        return b;
      });
      this.lowerCall(node, callArgs, out, partOf);
      env.set(node.name, { buffer: out, type: node.type });
    }
    for (const o of fn.outputs) {
      if (!outputs.has(o) || fn.nodes.find((n) => n.name === o)?.kind !== 'call') {
        throw new LoweringError(`${fn.name}: output '${o}' is not computed by a call`, { func: fn.name, target: this.target });
      }
    }
  }

  /** The body wrapped in the Allocates of its intermediates (outermost = first created). */
  body(inner: (stmts: Stmt[]) => Stmt): Stmt {
    let stmt = inner(this.statements);
    for (let i = this.intermediates.length - 1; i >= 0; i--) {
      const { buffer, tensor, extent } = this.intermediates[i];
      stmt = allocate({ bufferVar: buffer.data, dtype: buffer.dtype, extents: [extent], annotations: { [TENSOR_ANNOTATION]: tensor }, body: stmt });
    }
    return stmt;
  }

  private intermediate(node: CallNode): Buffer {
    const buffer = tensorBuffer(this.names.fresh(sanitizeName(node.name)), node.type);
    this.intermediates.push({ buffer, tensor: node.name, extent: tensorElements(node.type) });
    return buffer;
  }

  private lowerCall(call: CallNode, args: readonly Bound[], out: Buffer, partOf: string | undefined): void {
    if (call.callee.kind === 'op') {
      const op = call.callee.op;
      if (OPS[op]?.updatesVariable !== undefined) {
        // Its output is a persistent buffer only main binds; inside a function it would write a temporary.
        throw new LoweringError(`${op} '${call.name}' updates a variable and must stay in main, not in ${this.funcName}`, { op, target: this.target, func: this.funcName });
      }
      const strategy = this.strategyFor(this.target, op);
      if (!strategy) {
        // Inside a composite the author usually registered the composite's strategy under
        // another name: say which composite came without one, and both names that would do.
        const composite =
          partOf === undefined ? '' : `, inside composite ${partOf}, which has no strategy either: register one for '${partOf}' or for '${op}'`;
        throw new LoweringError(`no strategy for op '${op}' on target '${this.target}' (${call.name} in ${this.funcName}${composite})`, {
          op,
          target: this.target,
          func: this.funcName,
        });
      }
      this.emit(strategy, { call, argTypes: args.map((a) => a.type), args: args.map((a) => a.buffer), constants: constantsOf(args), out, target: this.target }, op, { partOf });
      return;
    }
    const callee = this.module.functions.get(call.callee.name);
    if (!callee) throw new LoweringError(`${call.name} calls unknown function '${call.callee.name}'`, { func: this.funcName, op: call.callee.name });
    if (callee.attrs.Compiler !== undefined) {
      throw new LoweringError(`external function '${callee.name}' is called from inside another function (${this.funcName})`, {
        func: this.funcName,
        target: this.target,
      });
    }
    const compositeName = callee.attrs.Composite;
    const compositeStrategy = compositeName === undefined ? undefined : this.strategyFor(this.target, compositeName);
    if (compositeName !== undefined && compositeStrategy) {
      this.emit(compositeStrategy, this.compositeInput(call, callee, args, out), compositeName, { composite: compositeName });
      return;
    }
    if (callee.outputs.length !== 1) {
      throw new LoweringError(`function '${callee.name}' returns ${callee.outputs.length} values; calls take one`, { func: this.funcName });
    }
    const first = this.records.length;
    this.lowerFunction(callee, args, new Map([[callee.outputs[0], out]]), compositeName ?? partOf);
    if (compositeName !== undefined) this.records.push(this.compositeRecord(compositeName, call, callee, args, out, this.records.slice(first)));
  }

  /**
   * The record of a composite lowered operator by operator: its operands are those a
   * composite strategy would get (compositeInput: the call's args, then the composite's own
   * constants; its output), so a constraint on `input 1` of the composite means the same
   * operand however the target lowers it. Its scratch is its operators'.
   */
  private compositeRecord(name: string, call: CallNode, callee: GraphFunction, args: readonly Bound[], out: Buffer, parts: readonly OperatorRecord[]): OperatorRecord {
    return {
      name: call.name,
      op: name,
      composite: name,
      target: this.target,
      inputs: this.compositeInput(call, callee, args, out).args.map((b) => b.data.name),
      outputs: [out.data.name],
      scratch: parts.flatMap((r) => r.scratch),
    };
  }

  /**
   * A composite lowered as one operator: the call's args followed by the composite's own
   * constants, the attributes of its operators merged (first wins), and the body itself.
   */
  private compositeInput(call: CallNode, callee: GraphFunction, args: readonly Bound[], out: Buffer): OpLoweringInput {
    const inner = callee.nodes.filter((n): n is ConstantNode => n.kind === 'constant');
    const bound = [...args, ...inner.map((c) => ({ buffer: this.constantBuffer(c), type: c.type, constant: c }))];
    const attrs: Record<string, CallNode['attrs'][string]> = {};
    for (const n of callee.nodes) {
      if (n.kind !== 'call') continue;
      for (const [k, v] of Object.entries(n.attrs)) if (!(k in attrs)) attrs[k] = v;
    }
    const merged: CallNode = { ...call, args: [...call.args, ...inner.map((c) => c.name)], attrs };
    return {
      call: merged,
      argTypes: bound.map((b) => b.type),
      args: bound.map((b) => b.buffer),
      constants: constantsOf(bound),
      out,
      target: this.target,
      composite: callee,
    };
  }

  private emit(strategy: OperatorStrategy, input: OpLoweringInput, op: string, within: { composite?: string; partOf?: string }): void {
    const stmt = strategyBody(strategy, input);
    this.statements.push(stmt);
    this.records.push({
      name: input.call.name,
      op,
      ...(within.composite === undefined ? {} : { composite: within.composite }),
      ...(within.partOf === undefined ? {} : { partOf: within.partOf }),
      target: this.target,
      inputs: input.args.map((b) => b.data.name),
      outputs: [input.out.data.name],
      scratch: scratchNames(stmt),
    });
  }
}

function constantsOf(args: readonly Bound[]): Map<number, ConstantNode> {
  const m = new Map<number, ConstantNode>();
  args.forEach((a, i) => {
    if (a.constant) m.set(i, a.constant);
  });
  return m;
}
