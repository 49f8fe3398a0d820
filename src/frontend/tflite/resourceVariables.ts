/**
 * TFLite resource variables, as TFLite Micro runs them (micro_resource_variable.cc and the
 * VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE / CALL_ONCE kernels):
 *
 * - a resource is keyed by VAR_HANDLE's `container` and `shared_name` (a handle without a
 *   container matches any container of that name); each becomes one variable ConstantNode
 *   of main, its persistent state;
 * - CALL_ONCE's init subgraph runs on the first invocation, before anything reads a
 *   variable: uma-ts evaluates it at import (it may only assign values computed from
 *   constants, through operators the interpreter folds) and the values it assigns are the
 *   states' initial data;
 * - a variable that init never assigns starts as TFLite Micro allocates it at its first
 *   ASSIGN_VARIABLE's Prepare: memset to the assigned tensor's zero point (cast to int8), else 0;
 * - READ_VARIABLE becomes `read_variable(state, after?)`, ASSIGN_VARIABLE
 *   `assign_variable(state, value, after?)` (a call with no tensor of its own); `after` is the
 *   previous access of the same variable, so every dataflow order keeps TFLite's order.
 */
import { UmaError, UnsupportedOperatorError } from '../../errors';
import { interpret } from '../../interpreter/interpret';
import { CallNode, ConstantNode, GraphFunction, TensorType, tensorBytes } from '../../ir/graph/types';
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { modelFormatError } from './flatbuf';
import { BuiltinOptionsType, CallOnceOptions, Operator, OperatorCode, VarHandleOptions } from './schema';
import { initEvaluationWork, largestInitTensorBytes } from './initWork';
import { FreshNames, FunctionBuilder, SubgraphReader } from './subgraphBuilder';

/**
 * Work (initWork.ts) an init subgraph may take to be evaluated at import: about 2-3 s of the
 * interpreter. A bigger initializer is refused, not run for minutes.
 */
const MAX_INIT_WORK = 2 ** 30;
/** And the largest tensor it may compute (fuzzed: a BROADCAST_TO to 2^31-1 floats, 8 GiB). */
const MAX_INIT_TENSOR_BYTES = 2 ** 28;

export const RESOURCE_VARIABLE_BUILTINS: ReadonlySet<number> = new Set([
  BuiltinOperatorCode.VAR_HANDLE,
  BuiltinOperatorCode.READ_VARIABLE,
  BuiltinOperatorCode.ASSIGN_VARIABLE,
  BuiltinOperatorCode.CALL_ONCE,
]);

/** Imports one ordinary operator of a subgraph (the importer's converter path). */
export type ImportOperator = (r: SubgraphReader, b: FunctionBuilder, op: Operator, index: number) => void;

interface Resource {
  readonly container: string | null;
  readonly sharedName: string;
  type?: TensorType;
  initial?: Uint8Array;
  /** The state node in main, made at the first access. */
  node?: ConstantNode;
  /** Name of the last read or assignment of it in main. */
  last?: string;
}

const sameType = (a: TensorType, b: TensorType): boolean =>
  a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/**
 * TFLite Micro keeps a variable as bytes (Read and Assign memcpy `variable.bytes`), so an
 * access through a tensor of the same dtype and element count but another shape works there:
 * it is the variable reshaped. Another dtype (a bitcast) is refused.
 */
const sameElements = (a: TensorType, b: TensorType): boolean =>
  a.dtype === b.dtype && a.shape.reduce((n, d) => n * d, 1) === b.shape.reduce((n, d) => n * d, 1);

const fmt = (t: TensorType): string => `${t.dtype} [${t.shape.join(', ')}]`;

/** The resource variables of one model and their accesses in main (subgraph 0). */
export class ResourceVariables {
  private readonly resources: Resource[] = [];
  /** Main's VAR_HANDLE outputs. */
  private readonly handles = new Map<number, Resource>();
  /** Problems the prepare pass found, reported at their operator. */
  private readonly failures = new Map<number, UnsupportedOperatorError>();
  /** Each init subgraph's assigned values, by subgraph index, once evaluated. */
  private readonly initValues = new Map<number, Uint8Array[]>();

  constructor(
    private readonly r: SubgraphReader,
    private readonly b: FunctionBuilder,
    private readonly codes: readonly OperatorCode[],
    private readonly importOther: ImportOperator,
    private readonly names = new FreshNames(r.names),
  ) {
  }

  private builtin(op: Operator): number {
    const code = this.codes[op.opcodeIndex];
    return code ? code.effectiveBuiltinCode : -1;
  }

  private get source(): string {
    return this.r.source;
  }

  /**
   * Before main's operators are imported: resolves every handle, runs CALL_ONCE init
   * subgraphs and gives each variable its type and initial value.
   */
  prepare(): void {
    const operators = this.r.subgraph.operators;
    const accesses = operators.map((op) => this.builtin(op)).map((c) => c === BuiltinOperatorCode.READ_VARIABLE || c === BuiltinOperatorCode.ASSIGN_VARIABLE);
    const firstAccess = accesses.indexOf(true);
    operators.forEach((op, i) => {
      try {
        switch (this.builtin(op)) {
          case BuiltinOperatorCode.VAR_HANDLE:
            this.handles.set(this.onlyOutput(this.r, op, `VAR_HANDLE at operator #${i}`), this.resourceOf(op, i, 'VAR_HANDLE', 'main'));
            break;
          case BuiltinOperatorCode.CALL_ONCE:
            if (firstAccess >= 0 && firstAccess < i) {
              this.unsupported(`CALL_ONCE at operator #${i} runs after operator #${firstAccess} accesses a variable`);
            }
            this.runInit(op, i);
            break;
          case BuiltinOperatorCode.ASSIGN_VARIABLE: {
            const resource = this.handleOf(this.handles, op, i, 'ASSIGN_VARIABLE', 'main');
            if (resource.type === undefined) {
              const valueIndex = this.valueInput(this.r, op, `ASSIGN_VARIABLE at operator #${i}`);
              const type = this.r.type(valueIndex, `input of ASSIGN_VARIABLE at operator #${i}`);
              // TFLite Micro's Allocate: memset to the zero point cast to int8, else 0.
              const fill = type.quant ? type.quant.zeroPoint[0] & 0xff : 0;
              resource.type = type;
              resource.initial = new Uint8Array(tensorBytes(type)).fill(fill);
            }
            break;
          }
        }
      } catch (e) {
        if (!(e instanceof UnsupportedOperatorError)) throw e;
        this.failures.set(i, e);
      }
    });
  }

  /** Imports one VAR_HANDLE / READ_VARIABLE / ASSIGN_VARIABLE / CALL_ONCE of main. */
  importOperator(builtin: number, op: Operator, index: number): void {
    const failure = this.failures.get(index);
    if (failure) throw failure;
    const name = builtinOperatorName(builtin);
    const where = `${name} at operator #${index}`;
    if (builtin === BuiltinOperatorCode.READ_VARIABLE) {
      if (op.inputs.length !== 1) throw modelFormatError(this.source, op.pos, `${where} has ${op.inputs.length} inputs, expected 1`);
      const resource = this.handleOf(this.handles, op, index, name, 'main');
      const output = this.onlyOutput(this.r, op, where);
      const type = this.r.type(output, `output of ${where}`);
      const state = this.stateOf(resource, where, type);
      const reshaped = !sameType(state.type, type);
      const call: CallNode = {
        kind: 'call',
        name: reshaped ? this.fresh(`${this.r.names[output]}_read`) : this.r.names[output],
        callee: { kind: 'op', op: 'read_variable' },
        args: [state.name, ...(resource.last !== undefined ? [resource.last] : [])],
        attrs: {},
        type: reshaped ? { ...type, shape: [...state.type.shape] } : type,
      };
      if (reshaped) {
        this.b.addNode(call);
        this.b.define(output, { kind: 'call', name: this.r.names[output], callee: { kind: 'op', op: 'reshape' }, args: [call.name], attrs: {}, type }, where);
      } else {
        this.b.define(output, call, where);
      }
      resource.last = call.name;
    } else if (builtin === BuiltinOperatorCode.ASSIGN_VARIABLE) {
      if (op.outputs.length !== 0) throw modelFormatError(this.source, op.pos, `${where} has ${op.outputs.length} outputs, expected none`);
      const resource = this.handleOf(this.handles, op, index, name, 'main');
      const value = this.valueInput(this.r, op, where);
      const type = this.r.type(value, `input of ${where}`);
      const state = this.stateOf(resource, where, type);
      this.b.require(value, where);
      let valueName = this.r.names[value];
      if (!sameType(state.type, type)) {
        const reshape: CallNode = { kind: 'call', name: this.fresh(`${valueName}_as_${state.name}`), callee: { kind: 'op', op: 'reshape' }, args: [valueName], attrs: {}, type: { ...type, shape: [...state.type.shape] } };
        this.b.addNode(reshape);
        valueName = reshape.name;
      }
      const call: CallNode = {
        kind: 'call',
        name: this.fresh(`${state.name}_assign`),
        callee: { kind: 'op', op: 'assign_variable' },
        args: [state.name, valueName, ...(resource.last !== undefined ? [resource.last] : [])],
        attrs: {},
        type: state.type,
      };
      this.b.addNode(call);
      resource.last = call.name;
    }
    // VAR_HANDLE and CALL_ONCE did their work in `prepare`.
  }

  private unsupported(message: string): never {
    throw new UnsupportedOperatorError(`unsupported ${message} in ${this.source}`, { file: this.source });
  }

  private fresh(base: string): string {
    return this.names.fresh(base);
  }

  /** The operator's one output tensor of `reader`'s subgraph (range-checked). */
  private onlyOutput(reader: SubgraphReader, op: Operator, where: string): number {
    if (op.outputs.length !== 1) throw modelFormatError(this.source, op.pos, `${where} has ${op.outputs.length} outputs, expected 1`);
    reader.tensor(op.outputs[0], where, op.pos);
    return op.outputs[0];
  }

  /** ASSIGN_VARIABLE's value tensor of `reader`'s subgraph (range-checked). */
  private valueInput(reader: SubgraphReader, op: Operator, where: string): number {
    if (op.inputs.length !== 2) throw modelFormatError(this.source, op.pos, `${where} needs 2 inputs (resource, value), got ${op.inputs.length}`);
    reader.tensor(op.inputs[1], where, op.pos);
    return op.inputs[1];
  }

  /** The resource a VAR_HANDLE names, found as TFLite Micro's FindId does or created. */
  private resourceOf(op: Operator, index: number, name: string, subgraph: string): Resource {
    if (op.builtinOptionsType !== BuiltinOptionsType.VarHandleOptions) {
      throw modelFormatError(this.source, op.pos, `${name} at operator #${index} of ${subgraph} has no VarHandleOptions`);
    }
    const options = op.builtinOptions(VarHandleOptions);
    const sharedName = options?.sharedName;
    if (!sharedName) throw modelFormatError(this.source, op.pos, `${name} at operator #${index} of ${subgraph} has no shared_name`);
    const container = options?.container ?? null;
    const found = this.resources.find((v) => (container === null || container === v.container) && v.sharedName === sharedName);
    if (found) return found;
    const created: Resource = { container, sharedName };
    this.resources.push(created);
    return created;
  }

  private handleOf(handles: ReadonlyMap<number, Resource>, op: Operator, index: number, name: string, subgraph: string): Resource {
    const handle = op.inputs[0];
    const resource = handle === undefined ? undefined : handles.get(handle);
    if (!resource) {
      throw modelFormatError(this.source, op.pos, `${name} at operator #${index} of ${subgraph}: input 0 (tensor ${handle}) is not the output of a VAR_HANDLE`);
    }
    return resource;
  }

  /** The variable's state node, added to main before its first access. */
  private stateOf(resource: Resource, where: string, accessType: TensorType): ConstantNode {
    const { type, initial } = resource;
    if (type === undefined || initial === undefined) {
      this.unsupported(`${where}: variable '${resource.sharedName}' is never assigned (TFLite Micro has no buffer for it)`);
    }
    if (!sameElements(type, accessType)) {
      this.unsupported(`${where}: ${fmt(accessType)} does not match variable '${resource.sharedName}' of ${fmt(type)} (an access needs its dtype and element count)`);
    }
    if (!resource.node) {
      resource.node = { kind: 'constant', name: this.fresh(resource.sharedName), type, data: initial, variable: true };
      this.b.addNode(resource.node);
    }
    return resource.node;
  }

  /** Evaluates CALL_ONCE's init subgraph: the values it assigns become initial states. */
  private runInit(op: Operator, callIndex: number): void {
    if (op.builtinOptionsType !== BuiltinOptionsType.CallOnceOptions) {
      throw modelFormatError(this.source, op.pos, `CALL_ONCE at operator #${callIndex} has no CallOnceOptions`);
    }
    const sgIndex = op.builtinOptions(CallOnceOptions)?.initSubgraphIndex ?? 0;
    const subgraphs = this.r.model.subgraphs;
    if (sgIndex < 1 || sgIndex >= subgraphs.length) {
      throw modelFormatError(this.source, op.pos, `CALL_ONCE at operator #${callIndex} names init subgraph ${sgIndex} of ${subgraphs.length}`);
    }
    const where = `init subgraph ${sgIndex} (CALL_ONCE at operator #${callIndex})`;
    const ir = new SubgraphReader(this.r.model, subgraphs[sgIndex], this.r.bytes);
    const ib = new FunctionBuilder(ir);
    if (ir.subgraph.inputs.length > 0) this.unsupported(`${where}: it has inputs; an init subgraph may only assign constants to variables`);
    const handles = new Map<number, Resource>();
    const assigned: { resource: Resource; value: string; type: TensorType }[] = [];
    ir.subgraph.operators.forEach((initOp, j) => {
      const builtin = this.builtin(initOp);
      const name = builtin < 0 ? 'unknown operator' : builtin === BuiltinOperatorCode.CUSTOM ? 'custom operator' : builtinOperatorName(builtin);
      const at = `${name} at operator #${j} of ${where}`;
      if (builtin === BuiltinOperatorCode.VAR_HANDLE) {
        handles.set(this.onlyOutput(ir, initOp, at), this.resourceOf(initOp, j, name, where));
      } else if (builtin === BuiltinOperatorCode.ASSIGN_VARIABLE) {
        const resource = this.handleOf(handles, initOp, j, name, where);
        const value = this.valueInput(ir, initOp, at);
        ib.require(value, at);
        assigned.push({ resource, value: ir.names[value], type: ir.type(value, `input of ${at}`) });
      } else if (builtin === BuiltinOperatorCode.READ_VARIABLE || builtin === BuiltinOperatorCode.CALL_ONCE || builtin < 0) {
        this.unsupported(`${at}: an init subgraph may only assign values computed from constants to variables`);
      } else {
        try {
          this.importOther(ir, ib, initOp, j);
        } catch (e) {
          if (!(e instanceof UnsupportedOperatorError)) throw e;
          this.unsupported(`${at}: an init subgraph may only assign values computed from constants to variables (${e.message})`);
        }
      }
    });
    const init: GraphFunction = { name: `init_subgraph_${sgIndex}`, params: [], nodes: ib.nodes, outputs: assigned.map((a) => a.value), attrs: {} };
    // A subgraph several CALL_ONCE operators name assigns the same values each time (it reads
    // constants only): evaluated once (fuzzed: twelve calls of one costly initializer).
    const known = this.initValues.get(sgIndex);
    if (known !== undefined) {
      this.assignInitial(assigned, known, where);
      return;
    }
    const largest = largestInitTensorBytes(init);
    if (largest > MAX_INIT_TENSOR_BYTES) {
      this.unsupported(`${where}: it computes a tensor of ${largest} bytes; uma-ts evaluates initializers at import with tensors up to 256 MiB`);
    }
    const work = initEvaluationWork(init);
    if (work > MAX_INIT_WORK) {
      this.unsupported(
        `${where}: evaluating it at import would take about ${work.toExponential(1)} element operations, more than uma-ts spends on an initializer (2^30, a few seconds)`,
      );
    }
    let values: Uint8Array[];
    try {
      values = interpret({ functions: new Map([[init.name, init]]), source: this.source }, [], init.name);
    } catch (e) {
      if (!(e instanceof UmaError)) throw e;
      this.unsupported(`${where}: cannot evaluate it at import: ${e.message}`);
    }
    this.initValues.set(sgIndex, values);
    this.assignInitial(assigned, values, where);
  }

  /** The values an init subgraph assigned become its variables' initial states. */
  private assignInitial(assigned: readonly { resource: Resource; type: TensorType }[], values: readonly Uint8Array[], where: string): void {
    assigned.forEach(({ resource, type }, k) => {
      if (resource.type !== undefined && !sameElements(resource.type, type)) {
        this.unsupported(`${where}: assigns ${fmt(type)} to variable '${resource.sharedName}' of ${fmt(resource.type)}`);
      }
      // A variable main's first assignment gave another shape keeps it (same bytes either way).
      if (resource.type === undefined || sameType(resource.type, type)) resource.type = type;
      resource.initial = values[k];
    });
  }
}
