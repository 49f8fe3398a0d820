/**
 * TFLite control flow (WHILE, IF; TFLite Micro's while.cc / if.cc) inlined into main at import.
 * uma-ts plans memory statically and generates straight-line C, so a loop must be unrolled:
 *
 * - WHILE: its loop values start as the operator's inputs; the cond subgraph is evaluated at
 *   import on them (the interpreter, as CALL_ONCE's initializer) and, while it is true, the
 *   body subgraph's operators are inlined once more with fresh tensor names, its outputs the
 *   next loop values. A body output computed from constants only (the counter) is folded to a
 *   constant at once, so the next cond evaluation and later operators (a GATHER by the
 *   counter) see it. A cond that reads a run-time value cannot be unrolled and is refused.
 * - IF: a condition known at import inlines the branch it picks; a run-time condition inlines
 *   both (they are pure: no state, no resource variable) and each output is a `select`.
 *
 * Constants of a subgraph are added once per operator site and shared by its copies. Nodes a
 * copy computed that no output needs (the counter chain once folded) are removed, after their
 * types were checked: TFLite prepares every operator, whether its result is read or not.
 * TFLite Micro prepares every subgraph, so code that never runs is checked too: the branch
 * a known condition does not take, and the body of a loop that runs 0 times, are inlined once
 * into a scratch node list on the values they would get, checked, and dropped (once per
 * subgraph, as TFLite Micro prepares each once). The unrolled
 * size is capped (MAX_INLINED_OPERATORS) so a loop of a million steps is refused, not built.
 * Subgraph indices, counts and recursion were checked before import (subgraphCalls.ts).
 */
import { SELECT_DTYPES } from '../../arith/comparison';
import { ModelFormatError, TypeInferenceError, UmaError, UnsupportedOperatorError } from '../../errors';
import { interpret } from '../../interpreter/interpret';
import { checkFunctionTypes } from '../../ir/graph/typeInference';
import { CallNode, GraphFunction, GraphNode, TensorType, tensorBytes, tensorElements } from '../../ir/graph/types';
import { modelFormatError } from './flatbuf';
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { initEvaluationWork, largestInitTensorBytes } from './initWork';
import { ImportOperator, RESOURCE_VARIABLE_BUILTINS } from './resourceVariables';
import { Model, Operator, OperatorCode, SubGraph } from './schema';
import { subgraphCallsOf } from './subgraphCalls';
import { STATEFUL_SIGNAL_CODES } from './converters/signal';
import { CIRCULAR_BUFFER_CODE } from './converters/circularBuffer';
import { FreshNames, FunctionBuilder, SubgraphReader } from './subgraphBuilder';

export const CONTROL_FLOW_BUILTINS: ReadonlySet<number> = new Set([BuiltinOperatorCode.WHILE, BuiltinOperatorCode.IF]);

/**
 * Operators inlined by all control flow of one model (an iteration counts at least one, so an
 * empty body that never ends is caught too). What the importer accepts must compile in
 * reasonable time: the traversals of the AoT main (one nested Allocate per intermediate
 * tensor) loop over that nest rather than recurse (tir/scope.ts), so its depth is no limit.
 * The time is: planning grew with the square of the distinct constants (every constant
 * conflicts with every other) while it listed those pairs; it keeps them as one clique now
 * (usmp/compactConflicts.ts; identical constants, such as the body's tables repeated per
 * iteration, are planned once anyway). Measured while it listed them: a 6-operator int8 RNN
 * body unrolled to 8192 operators compiled to C in about 6 s of CPU (vanilla backend), to 16384
 * in about 14 s.
 */
export const MAX_INLINED_OPERATORS = 8192;
/**
 * Element operations (initWork.ts) spent evaluating conds and folding loop values at import, in
 * all: a few seconds of the interpreter (its element-wise kernels take 15-30 ns an operation;
 * 2^30 took 15-30 s to refuse a cond reading a 64 MiB value).
 */
const MAX_FOLD_WORK = 2 ** 28;
/** The largest tensor such an evaluation may compute (the interpreter holds several copies of it). */
const MAX_FOLD_TENSOR_BYTES = 2 ** 26;
/**
 * The largest tensor computed to fold a value nothing at import needs (a loop value the cond
 * does not read, a branch's argument): a bigger one is left to run time, as any value computed
 * from the model's inputs is. Folding a 256 MiB value every iteration of a loop that only
 * counts took 30 s and 2 GB before the work cap refused it; the unroll needs only the counter.
 * Shapes, axes and counters are far smaller.
 */
const EAGER_FOLD_BYTES = 2 ** 20;
/** Bytes folded by a WHILE's iterations after which it drops the values no loop value needs any more. */
const PRUNE_FOLDED_BYTES = 2 ** 26;
/** Control flow nested deeper is refused (each level is a few stack frames of the importer). */
export const MAX_CONTROL_FLOW_NESTING = 16;

/** A loop value (or a branch output): the node holding it, and its bytes when known at import. */
interface Value {
  readonly name: string;
  readonly known: Uint8Array | null;
}

const fmt = (t: TensorType): string => `${t.dtype} [${t.shape.join(', ')}]`;
const sameType = (a: TensorType, b: TensorType): boolean => a.dtype === b.dtype && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape[i]);

/** The same node, or the same bytes known at import. */
function sameValue(a: Value, b: Value): boolean {
  if (a.name === b.name) return true;
  return a.known !== null && b.known !== null && a.known.length === b.known.length && a.known.every((x, i) => x === b.known![i]);
}

/** Name → node of a node list that grows (and is sometimes pruned) while control flow is inlined. */
class NodeIndex {
  private readonly positions = new Map<string, number>();
  private seen = 0;

  constructor(private readonly nodes: GraphNode[]) {}

  get(name: string): GraphNode | undefined {
    for (; this.seen < this.nodes.length; this.seen++) this.positions.set(this.nodes[this.seen].name, this.seen);
    const at = this.positions.get(name);
    return at === undefined ? undefined : this.nodes[at];
  }

  replace(node: GraphNode): void {
    this.get(node.name);
    this.nodes[this.positions.get(node.name)!] = node;
  }

  /**
   * Before the nodes from position `start` on are removed or moved: their positions are
   * forgotten and rebuilt on the next lookup; the ones before `start` stay. (Clearing them all
   * made every WHILE/IF in a long main rebuild the whole index: quadratic, seconds for a few
   * hundred nested operators.)
   */
  forgetFrom(start: number): void {
    for (let i = start; i < this.seen; i++) this.positions.delete(this.nodes[i].name);
    this.seen = Math.min(this.seen, start);
  }
}

/** The control flow of one model being imported: budgets, fresh names, the subgraphs read so far. */
export class ControlFlow {
  private inlined = 0;
  private work = 0;
  /** Bytes of the values folded at import so far (fold), for inlineWhile's pruning. */
  private foldedBytes = 0;
  private depth = 0;
  private readonly readers = new Map<number, SubgraphReader>();
  private subgraphs?: readonly SubGraph[];
  /** Constant tensors per subgraph, keyed by its table's position in the file. */
  private readonly constants = new Map<number, Set<number>>();
  private readonly indices = new WeakMap<GraphNode[], NodeIndex>();
  /** Per subgraph (its table's position in the file): the tensors something reads (readTensors). */
  private readonly reads = new Map<number, ReadonlySet<number>>();
  /** Per node list: whether a node's value is computed from read-only constants only. */
  private readonly statics = new WeakMap<GraphNode[], Map<string, boolean>>();
  /** Subgraphs (their table's position in the file) imported at least once, run or only checked. */
  private readonly imported = new Set<number>();
  /** Above 0 while code that never runs is checked (checkUnrun): its WHILE/IF are checked, not run. */
  private checking = 0;
  /** Per subgraph (its table's position in the file): its operators, parsed once (operatorsOf). */
  private readonly operatorLists = new Map<number, readonly Operator[]>();

  constructor(
    private readonly model: Model,
    private readonly bytes: Uint8Array,
    private readonly codes: readonly OperatorCode[],
    private readonly names: FreshNames,
    private readonly importOther: ImportOperator,
  ) {}

  private get source(): string {
    return this.model.source;
  }

  /** Inlines one WHILE or IF of the subgraph `r` is reading into `b`'s node list. */
  importOperator(r: SubgraphReader, b: FunctionBuilder, builtin: number, op: Operator, index: number): void {
    const at = `${builtinOperatorName(builtin)} at operator #${index}`;
    // Every refusal names the operator and the subgraphs it runs.
    const where = `${at} (${subgraphCallsOf(op, builtin, at, this.source)
      .map((c) => `${c.role} subgraph ${c.subgraph}`)
      .join(', ')})`;
    if (this.depth >= MAX_CONTROL_FLOW_NESTING) {
      this.refuse(op, where, `control flow nested more than ${MAX_CONTROL_FLOW_NESTING} deep`);
    }
    this.depth++;
    try {
      if (builtin === BuiltinOperatorCode.WHILE) this.inlineWhile(r, b, op, where);
      else this.inlineIf(r, b, op, where);
    } finally {
      this.depth--;
    }
  }

  private inlineWhile(r: SubgraphReader, b: FunctionBuilder, op: Operator, where: string): void {
    const [condCall, bodyCall] = subgraphCallsOf(op, BuiltinOperatorCode.WHILE, where, this.source);
    const cond = this.reader(condCall.subgraph);
    const body = this.reader(bodyCall.subgraph);
    const condLabel = `cond subgraph ${condCall.subgraph}`;
    const bodyLabel = `body subgraph ${bodyCall.subgraph}`;
    this.refuseState(op, where, cond, condLabel);
    this.refuseState(op, where, body, bodyLabel);
    op.inputs.forEach((t, k) => {
      const type = this.tensorType(r, t, op, where, `input ${k}`);
      const check = (sub: SubgraphReader, tensor: number, what: string): void => {
        const other = this.tensorType(sub, tensor, op, where, what);
        if (!sameType(type, other)) this.refuse(op, where, `loop value ${k} is ${fmt(type)} but ${what} is ${fmt(other)}; uma-ts needs one static shape and dtype per loop value`);
      };
      check(cond, cond.subgraph.inputs[k], `input ${k} of ${condLabel}`);
      check(body, body.subgraph.inputs[k], `input ${k} of ${bodyLabel}`);
      check(body, body.subgraph.outputs[k], `output ${k} of ${bodyLabel}`);
      check(r, op.outputs[k], `output ${k}`);
    });
    const condOut = this.tensorType(cond, cond.subgraph.outputs[0], op, where, `the output of ${condLabel}`);
    if (condOut.dtype !== 'bool' || tensorElements(condOut) !== 1) {
      this.refuse(op, where, `${condLabel} returns ${fmt(condOut)}; TFLite needs a bool with one element`);
    }

    const values = this.operands(r, b, op.inputs, op, where);
    const start = b.nodes.length;
    const site = this.siteName(r, op, where);
    if (this.checking > 0) {
      // Inside code that never runs: its cond and body are checked once each, not unrolled (a
      // trip count known only at run time, or of millions, is no reason to refuse what never runs).
      this.checkUnrun(cond, values, `${site}/cond`, `${condLabel} (not run)`, op, where);
      this.checkUnrun(body, values, `${site}/0`, `${bodyLabel} (not run)`, op, where);
      this.defineOutputs(r, b, op, where, start, (_k, name, type) => ({ kind: 'var', name, type }));
      return;
    }
    const shared = new Map<number, string>();
    let current = values;
    let foldedAtPrune = this.foldedBytes;
    let iteration = 0;
    for (; this.condition(cond, current, b.nodes, op, where, condLabel); iteration++) {
      const label = `${bodyLabel}, iteration ${iteration}`;
      this.spend(Math.max(1, this.operatorsOf(body).length), op, where, `${label}`);
      const next = this.inline(body, current, b.nodes, `${site}/${iteration}`, shared, site, op, where, label);
      // The cond saw these values and said true: unchanged, it says so forever (TFLite would hang).
      if (next.every((v, k) => sameValue(v, current[k]))) this.refuse(op, where, `${label} leaves every loop value as it was while ${condLabel} is true: the loop never ends`);
      current = next;
      // Every iteration's folded loop values stay in the node list until defineOutputs prunes
      // it: a loop over big tensors known at import (a FILL, updated each iteration) held all
      // their copies, 4 GB before the work cap refused it. Past PRUNE_FOLDED_BYTES folded since
      // the last time, what the current values do not need goes now.
      if (this.foldedBytes - foldedAtPrune > PRUNE_FOLDED_BYTES) {
        this.prune(b.nodes, start, b.nodes.length, current.map((v) => v.name));
        foldedAtPrune = this.foldedBytes;
      }
    }
    const loopValues = current;
    this.defineOutputs(r, b, op, where, start, (k, name, type) => this.valueNode(loopValues[k], name, type));
    if (iteration === 0) this.checkUnrun(body, values, `${site}/0`, `${bodyLabel} (0 iterations)`, op, where);
  }

  private inlineIf(r: SubgraphReader, b: FunctionBuilder, op: Operator, where: string): void {
    const [thenCall, elseCall] = subgraphCallsOf(op, BuiltinOperatorCode.IF, where, this.source);
    const branches = [thenCall, elseCall].map((call) => ({ sub: this.reader(call.subgraph), label: `${call.role} subgraph ${call.subgraph}` }));
    const condTensor = op.inputs[0];
    const condType = this.tensorType(r, condTensor, op, where, 'input 0 (the condition)');
    // TFLite Micro's IF: a bool condition of one element, read as data.b[0].
    if (condType.dtype !== 'bool' || tensorElements(condType) !== 1) this.refuse(op, where, `the condition is ${fmt(condType)}; TFLite needs a bool with one element`);
    for (const { sub, label } of branches) {
      this.refuseState(op, where, sub, label);
      op.inputs.slice(1).forEach((t, k) => {
        const [mine, theirs] = [this.tensorType(r, t, op, where, `input ${k + 1}`), this.tensorType(sub, sub.subgraph.inputs[k], op, where, `input ${k} of ${label}`)];
        if (!sameType(mine, theirs)) this.refuse(op, where, `input ${k + 1} is ${fmt(mine)} but input ${k} of ${label} is ${fmt(theirs)}`);
      });
      op.outputs.forEach((t, k) => {
        const [mine, theirs] = [this.tensorType(r, t, op, where, `output ${k}`), this.tensorType(sub, sub.subgraph.outputs[k], op, where, `output ${k} of ${label}`)];
        if (!sameType(mine, theirs)) this.refuse(op, where, `output ${k} is ${fmt(mine)} but output ${k} of ${label} is ${fmt(theirs)}; uma-ts needs static shapes`);
      });
    }
    if (this.checking > 0) {
      // Inside code that never runs: both branches checked once, whatever the condition.
      b.require(condTensor, where);
      const values = this.operands(r, b, op.inputs.slice(1), op, where);
      const first = b.nodes.length;
      const at = this.siteName(r, op, where);
      branches.forEach(({ sub, label }, k) => this.checkUnrun(sub, values, `${at}/${k === 0 ? 'then' : 'else'}`, `${label} (not run)`, op, where));
      this.defineOutputs(r, b, op, where, first, (_k, name, type) => ({ kind: 'var', name, type }));
      return;
    }
    // The branch to inline depends on it: computed at import however big its inputs are.
    const [condition] = this.operands(r, b, [condTensor], op, where, true);
    const args = this.operands(r, b, op.inputs.slice(1), op, where);
    const start = b.nodes.length;
    const site = this.siteName(r, op, where);
    const inlineBranch = (branch: (typeof branches)[number], role: string): Value[] => {
      this.spend(Math.max(1, this.operatorsOf(branch.sub).length), op, where, branch.label);
      return this.inline(branch.sub, args, b.nodes, `${site}/${role}`, new Map(), `${site}/${role}`, op, where, branch.label);
    };
    if (condition.known) {
      const taken = condition.known[0] !== 0 ? 0 : 1;
      const roles = ['then', 'else'];
      const outs = inlineBranch(branches[taken], roles[taken]);
      this.defineOutputs(r, b, op, where, start, (k, name, type) => this.valueNode(outs[k], name, type));
      const other = branches[1 - taken];
      this.checkUnrun(other.sub, args, `${site}/${roles[1 - taken]}`, `${other.label} (not taken)`, op, where);
      return;
    }
    // A run-time condition: both branches run, the condition picks each output's bytes (TFLite
    // copies the branch outputs unchanged, and so does select).
    op.outputs.forEach((t, k) => {
      const type = r.type(t);
      if (!SELECT_DTYPES.includes(type.dtype)) {
        this.refuse(op, where, `output ${k} is ${type.dtype}; a condition known only at run time selects between the branches' outputs, which uma-ts does for ${SELECT_DTYPES.join(', ')}`);
      }
    });
    const thenOuts = inlineBranch(branches[0], 'then');
    const elseOuts = inlineBranch(branches[1], 'else');
    let scalar = condition.name;
    if (condType.shape.length > 0) {
      // As a scalar, the condition broadcasts to every output shape without changing it.
      scalar = this.fresh(`${condition.name}_scalar`);
      b.nodes.push({ kind: 'call', name: scalar, callee: { kind: 'op', op: 'reshape' }, args: [condition.name], attrs: {}, type: { dtype: 'bool', shape: [] } });
    }
    this.defineOutputs(r, b, op, where, start, (k, name, type) => ({
      kind: 'call',
      name,
      callee: { kind: 'op', op: 'select' },
      args: [scalar, thenOuts[k].name, elseOuts[k].name],
      attrs: {},
      type,
    }));
  }

  /**
   * The operator's input tensors as values, each given a node first; one computed from
   * constants only (a limit main adds up, a condition main compares) is folded, so a loop
   * over it unrolls and an IF on it inlines one branch (`required`: however big, see fold).
   */
  private operands(r: SubgraphReader, b: FunctionBuilder, tensors: readonly number[], op: Operator, where: string, required = false): Value[] {
    return tensors.map((t) => {
      b.require(t, where);
      return { name: r.names[t], known: this.fold(b.nodes, r.names[t], op, where, required) };
    });
  }

  /**
   * Whether the cond subgraph, evaluated at import on the loop values, is true. A loop value
   * the cond reads that is computed from constants but was too big to fold eagerly (fold) is
   * folded now, in `nodes` (where the values live), and `values` gets its bytes.
   */
  private condition(cond: SubgraphReader, values: Value[], nodes: GraphNode[], op: Operator, where: string, label: string): boolean {
    const sb = new FunctionBuilder(cond);
    cond.subgraph.inputs.forEach((t, k) => {
      const v = values[k];
      const type = cond.type(t);
      if (v.known) {
        sb.define(t, { kind: 'constant', name: cond.names[t], type, data: v.known }, `input ${k} of ${label}`);
        sb.folded.set(t, v.known);
      } else {
        sb.define(t, { kind: 'var', name: cond.names[t], type }, `input ${k} of ${label}`);
      }
    });
    this.imported.add(cond.subgraph.pos);
    this.operatorsOf(cond).forEach((condOp, j) => this.importInner(cond, sb, condOp, j, op, where, label));
    this.checkTypes(sb.nodes, 0, where, label);
    const out = cond.subgraph.outputs[0];
    sb.require(out, `output of ${label}`);
    const value = this.fold(sb.nodes, cond.names[out], op, where, true);
    if (value === null) {
      // The loop values the cond reads that are known only at run time.
      const read = new Set(this.closure(this.index(sb.nodes), cond.names[out]).map((n) => n.name));
      let foldedNow = false;
      cond.subgraph.inputs.forEach((t, k) => {
        if (values[k].known || !read.has(cond.names[t])) return;
        const known = this.fold(nodes, values[k].name, op, where, true);
        if (known) [values[k], foldedNow] = [{ name: values[k].name, known }, true];
      });
      if (foldedNow) return this.condition(cond, values, nodes, op, where, label);
      const runtime = cond.subgraph.inputs.flatMap((t, k) => (!values[k].known && read.has(cond.names[t]) ? [k] : []));
      this.refuse(
        op,
        where,
        `${label} depends on run-time data (loop value${runtime.length === 1 ? '' : 's'} ${runtime.join(', ')}); uma-ts unrolls a loop at import and needs its trip count known there`,
      );
    }
    return value[0] !== 0;
  }

  /**
   * One copy of subgraph `sub` in `nodes` on the input values `inputs`: its tensors named
   * `<prefix>/<tensor>`, its constants `<constantPrefix>/<tensor>` (once per site, in
   * `shared`). Returns its output values, those computed from constants folded.
   */
  private inline(
    sub: SubgraphReader,
    inputs: readonly Value[],
    nodes: GraphNode[],
    prefix: string,
    shared: Map<number, string>,
    constantPrefix: string,
    op: Operator,
    where: string,
    label: string,
  ): Value[] {
    this.imported.add(sub.subgraph.pos);
    const before = nodes.length;
    const inputTensors = sub.subgraph.inputs;
    const position = new Map(inputTensors.map((t, k) => [t, k]));
    const constants = this.constantTensors(sub);
    const names = sub.names.map((n, t) => {
      const k = position.get(t);
      if (k !== undefined) return inputs[k].name;
      if (!constants.has(t)) return this.fresh(`${prefix}/${n}`);
      if (!shared.has(t)) shared.set(t, this.fresh(`${constantPrefix}/${n}`));
      return shared.get(t)!;
    });
    const copy = sub.renamed(names);
    const ib = new FunctionBuilder(copy, nodes);
    const index = this.index(nodes);
    inputTensors.forEach((t, k) => {
      ib.bind(t);
      const known = inputs[k].known;
      if (known) ib.folded.set(t, known);
    });
    // A constant an earlier copy added is the same node.
    for (const t of constants) if (!position.has(t) && index.get(names[t]) !== undefined) ib.bind(t);
    this.operatorsOf(sub).forEach((innerOp, j) => this.importInner(copy, ib, innerOp, j, op, where, label));
    // Before anything prunes them: a node no output needs is still an operator TFLite prepares.
    this.checkTypes(nodes, before, where, label);
    return sub.subgraph.outputs.map((t) => {
      ib.require(t, `output of ${label}`);
      return { name: names[t], known: this.fold(nodes, names[t], op, where) };
    });
  }

  /**
   * Imports one operator of a cond, body or branch; its refusal, corrupt-file or type error
   * names the control-flow operator and the subgraph too (the operator's index alone does not
   * say which subgraph it is in).
   */
  private importInner(r: SubgraphReader, b: FunctionBuilder, op: Operator, index: number, owner: Operator, where: string, label: string): void {
    try {
      this.importOther(r, b, op, index);
    } catch (e) {
      if (e instanceof UnsupportedOperatorError) this.refuse(owner, where, `${label}: ${this.reason(e.message)}`);
      throw this.within(e, where, label);
    }
  }

  /**
   * A corrupt-file or type error raised inside subgraph `label` of the operator `where`, with
   * both named before its problem as refusals name them; any other error unchanged.
   */
  private within(e: unknown, where: string, label: string): unknown {
    if (e instanceof ModelFormatError && e.context.offset !== undefined) {
      const head = `corrupt TFLite file ${this.source} at byte offset ${e.context.offset}: `;
      const problem = e.message.startsWith(head) ? e.message.slice(head.length) : e.message;
      return modelFormatError(this.source, e.context.offset, `${where}: ${label}: ${problem}`);
    }
    if (e instanceof TypeInferenceError) {
      const head = `${this.source}: `;
      const problem = e.message.startsWith(head) ? e.message.slice(head.length) : e.message;
      return new TypeInferenceError(`${head}${where}: ${label}: ${problem}`, { ...e.context, file: this.source });
    }
    return e;
  }

  /**
   * Checks the types of the calls in `nodes` from position `from` on, as compile checks main's
   * (checkFunctionTypes): nodes before `from` that they read count as given. Refuses naming
   * the control-flow operator and the subgraph (`label`).
   */
  private checkTypes(nodes: readonly GraphNode[], from: number, where: string, label: string): void {
    const range = nodes.slice(from);
    const inside = new Set(range.map((n) => n.name));
    const given = new Map<string, GraphNode>();
    const index = this.index(nodes as GraphNode[]);
    for (const n of range) {
      if (n.kind !== 'call') continue;
      for (const a of n.args) {
        if (inside.has(a) || given.has(a)) continue;
        const node = index.get(a);
        if (node) given.set(a, { kind: 'var', name: a, type: node.type });
      }
    }
    const fn: GraphFunction = { name: label, params: [...given.keys()], nodes: [...given.values(), ...range], outputs: [], attrs: {} };
    try {
      checkFunctionTypes(fn);
    } catch (e) {
      if (!(e instanceof TypeInferenceError)) throw e;
      throw new TypeInferenceError(`${this.source}: ${where}: ${e.message}`, { ...e.context, file: this.source });
    }
  }

  /**
   * Checks subgraph `sub`, which this operator never runs (the branch a known condition does
   * not take, the body of a loop that runs 0 times), as TFLite Micro prepares it all the
   * same: inlined once on `inputs` into a scratch node list, which is then dropped, so every
   * operator in it meets the refusals it would meet if it ran. Its own WHILE and IF are
   * checked the same way rather than run (`checking`), so the check takes one copy of each
   * subgraph at most and counts toward no unroll cap. A subgraph imported before (run or
   * checked) is not checked again: TFLite Micro prepares each subgraph once.
   */
  private checkUnrun(sub: SubgraphReader, inputs: readonly Value[], prefix: string, label: string, op: Operator, where: string): void {
    if (this.imported.has(sub.subgraph.pos)) return;
    // The input values as the scratch list's own nodes: their bytes when known, else opaque.
    const scratch: GraphNode[] = [];
    const placed = new Set<string>();
    sub.subgraph.inputs.forEach((t, k) => {
      const v = inputs[k];
      if (placed.has(v.name)) return;
      placed.add(v.name);
      const type = sub.type(t);
      scratch.push(v.known ? { kind: 'constant', name: v.name, type, data: v.known } : { kind: 'var', name: v.name, type });
    });
    this.checking++;
    try {
      this.inline(sub, inputs, scratch, prefix, new Map(), prefix, op, where, label);
    } finally {
      this.checking--;
    }
  }

  /**
   * The bytes of node `name` when known at import: a read-only constant, or a call computed
   * from such constants only, which is evaluated by the interpreter and becomes a constant in
   * its place (so its inputs' nodes may be pruned). Null for anything run-time, and, unless
   * `required` (a cond's result, an IF's condition, a loop value a cond reads), for a value
   * whose evaluation computes a tensor past EAGER_FOLD_BYTES: sizes are checked before
   * anything is computed.
   */
  private fold(nodes: GraphNode[], name: string, op: Operator, where: string, required = false): Uint8Array | null {
    const known = this.knownValue(nodes, name);
    if (known || !this.isStatic(nodes, name)) return known;
    const index = this.index(nodes);
    const call = index.get(name) as CallNode;
    if (!required && tensorBytes(call.type) > EAGER_FOLD_BYTES) return null;
    const fn: GraphFunction = { name: 'fold', params: [], nodes: this.closure(index, name), outputs: [name], attrs: {} };
    const largest = largestInitTensorBytes(fn);
    if (!required && largest > EAGER_FOLD_BYTES) return null;
    // The interpreter runs what compile would have type-checked: a copy's nodes are checked
    // when it is complete, but a nested WHILE or IF folds its operands before that.
    try {
      checkFunctionTypes({ ...fn, name: `folding '${name}' at import` });
    } catch (e) {
      if (!(e instanceof TypeInferenceError)) throw e;
      throw new TypeInferenceError(`${this.source}: ${where}: ${e.message}`, { ...e.context, file: this.source });
    }
    if (largest > MAX_FOLD_TENSOR_BYTES) this.refuse(op, where, `folding '${name}' at import computes a tensor of ${largest} bytes, more than ${MAX_FOLD_TENSOR_BYTES / 2 ** 20} MiB`);
    const work = initEvaluationWork(fn);
    if (this.work + work > MAX_FOLD_WORK) {
      // A value only folded for convenience stays a run-time computation; a needed one cannot.
      if (!required) return null;
      this.refuse(op, where, `evaluating its control flow at import would take more than 2^${Math.log2(MAX_FOLD_WORK)} element operations`);
    }
    this.work += work;
    let data: Uint8Array;
    try {
      [data] = interpret({ functions: new Map([[fn.name, fn]]), source: this.source }, [], fn.name);
    } catch (e) {
      if (!(e instanceof UmaError)) throw e;
      this.refuse(op, where, `cannot evaluate '${name}' at import: ${e.message}`);
    }
    index.replace({ kind: 'constant', name, type: call.type, data });
    this.foldedBytes += data.length;
    return data;
  }

  /** A read-only constant's bytes, else null. */
  private knownValue(nodes: GraphNode[], name: string): Uint8Array | null {
    const node = this.index(nodes).get(name);
    return node?.kind === 'constant' && !node.variable ? node.data : null;
  }

  /** Whether node `name` is computed from read-only constants only (memoized; iterative, as chains are long). */
  private isStatic(nodes: GraphNode[], name: string): boolean {
    const index = this.index(nodes);
    let memo = this.statics.get(nodes);
    if (!memo) this.statics.set(nodes, (memo = new Map()));
    const stack = [name];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (memo.has(top)) {
        stack.pop();
        continue;
      }
      const node = index.get(top);
      if (node === undefined || node.kind === 'var') {
        memo.set(top, false);
      } else if (node.kind === 'constant') {
        memo.set(top, !node.variable);
      } else {
        const pending = node.args.filter((a) => !memo.has(a));
        if (pending.length > 0) {
          stack.push(...pending);
          continue;
        }
        memo.set(top, node.args.every((a) => memo.get(a)));
      }
      stack.pop();
    }
    return memo.get(name)!;
  }

  /** Node `name` and everything it reads, in dependency order. */
  private closure(index: NodeIndex, name: string): GraphNode[] {
    const order: GraphNode[] = [];
    const done = new Set<string>();
    const stack: { name: string; expanded: boolean }[] = [{ name, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (done.has(top.name)) continue;
      const node = index.get(top.name)!;
      if (top.expanded || node.kind !== 'call') {
        done.add(top.name);
        order.push(node);
        continue;
      }
      stack.push({ name: top.name, expanded: true });
      for (const a of node.args) if (!done.has(a)) stack.push({ name: a, expanded: false });
    }
    return order;
  }

  /**
   * Defines the operator's outputs that anything reads (`node` builds each), then removes the
   * nodes added since `start` that none of them needs.
   */
  private defineOutputs(
    r: SubgraphReader,
    b: FunctionBuilder,
    op: Operator,
    where: string,
    start: number,
    node: (k: number, name: string, type: TensorType) => GraphNode,
  ): void {
    const read = this.readTensors(r);
    const end = b.nodes.length;
    op.outputs.forEach((t, k) => {
      if (!read.has(t)) return;
      const defined = node(k, r.names[t], r.type(t, `output of ${where}`));
      b.define(t, defined, where);
      if (defined.kind === 'constant') b.folded.set(t, defined.data);
    });
    this.prune(b.nodes, start, end);
  }

  /**
   * The tensors of `r`'s subgraph that an operator or the subgraph's outputs read, found once
   * per subgraph: a subgraph of thousands of WHILE/IF operators asks for every one of them,
   * and parsing its whole operator list each time made import quadratic (2000 one-trip loops
   * in main took 10 s).
   */
  private readTensors(r: SubgraphReader): ReadonlySet<number> {
    let read = this.reads.get(r.subgraph.pos);
    if (!read) this.reads.set(r.subgraph.pos, (read = new Set([...this.operatorsOf(r).flatMap((o) => o.inputs), ...r.subgraph.outputs])));
    return read;
  }

  /** A value as the node of tensor `name`: its bytes when known, else a view of its node. */
  private valueNode(v: Value, name: string, type: TensorType): GraphNode {
    if (v.known) return { kind: 'constant', name, type, data: v.known.slice() };
    return { kind: 'call', name, callee: { kind: 'op', op: 'reshape' }, args: [v.name], attrs: {}, type };
  }

  /**
   * Removes the nodes in [start, end) that nothing needs: nodes from `end` on stay, and so does
   * whatever they or the nodes named `roots` read, directly or not.
   */
  private prune(nodes: GraphNode[], start: number, end: number, roots: readonly string[] = []): void {
    const needed = new Set(roots);
    const keep = nodes.map((_, i) => i < start || i >= end);
    for (let i = nodes.length - 1; i >= start; i--) {
      const n = nodes[i];
      if (!keep[i] && !needed.has(n.name)) continue;
      keep[i] = true;
      if (n.kind === 'call') for (const a of n.args) needed.add(a);
    }
    this.index(nodes).forgetFrom(start);
    let w = start;
    for (let i = start; i < nodes.length; i++) if (keep[i]) nodes[w++] = nodes[i];
    nodes.length = w;
  }

  /**
   * A subgraph's operators, parsed once: the accessor parses the whole vector on every call,
   * and a loop asked for its body's and cond's on every iteration (a third of the import time
   * of a fuzzed file of nested loops).
   */
  private operatorsOf(sub: SubgraphReader): readonly Operator[] {
    let ops = this.operatorLists.get(sub.subgraph.pos);
    if (!ops) this.operatorLists.set(sub.subgraph.pos, (ops = sub.subgraph.operators));
    return ops;
  }

  private index(nodes: GraphNode[]): NodeIndex {
    let index = this.indices.get(nodes);
    if (!index) this.indices.set(nodes, (index = new NodeIndex(nodes)));
    return index;
  }

  private reader(subgraph: number): SubgraphReader {
    let r = this.readers.get(subgraph);
    if (!r) {
      // The accessor parses the whole vector on every call: read once (a file may hold thousands).
      this.subgraphs ??= this.model.subgraphs;
      this.readers.set(subgraph, (r = new SubgraphReader(this.model, this.subgraphs[subgraph], this.bytes)));
    }
    return r;
  }

  /** Tensors of `sub` holding read-only data in the file (found once per subgraph: reading copies the data). */
  private constantTensors(sub: SubgraphReader): Set<number> {
    let found = this.constants.get(sub.subgraph.pos);
    if (!found) {
      const set = new Set<number>();
      sub.tensors.forEach((tensor, t) => {
        // A tensor uma-ts cannot type is no constant it could share; its reader names the problem.
        if (tensor.isVariable || tensor.buffer === 0) return;
        try {
          if (sub.constant(t) !== null) set.add(t);
        } catch (e) {
          if (!(e instanceof UnsupportedOperatorError)) throw e;
        }
      });
      this.constants.set(sub.subgraph.pos, (found = set));
    }
    return found;
  }

  /**
   * Control-flow subgraphs are copied (and an IF's both branches run), so state in them would
   * not persist, and resource variable accesses could not be ordered against main's: refused.
   */
  private refuseState(op: Operator, where: string, sub: SubgraphReader, label: string): void {
    const t = sub.tensors.findIndex((tensor) => tensor.isVariable);
    if (t >= 0) this.refuse(op, where, `${label} holds variable tensor #${t} '${sub.tensors[t].name}'; state inside control flow is not supported`);
    this.operatorsOf(sub).forEach((inner, j) => {
      const code = this.codes[inner.opcodeIndex];
      const builtin = code?.effectiveBuiltinCode ?? -1;
      const custom = builtin === BuiltinOperatorCode.CUSTOM ? code?.customCode : null;
      if (custom && (STATEFUL_SIGNAL_CODES.has(custom) || custom === CIRCULAR_BUFFER_CODE)) {
        this.refuse(op, where, `${label} holds ${custom} at operator #${j}, which keeps state across invocations; state inside control flow is not supported`);
      }
      if (RESOURCE_VARIABLE_BUILTINS.has(builtin)) {
        this.refuse(
          op,
          where,
          `${label} holds ${builtinOperatorName(builtin)} at operator #${j}; resource variables inside control flow are not supported (uma-ts cannot order their accesses once the subgraph is unrolled)`,
        );
      }
    });
  }

  private tensorType(r: SubgraphReader, t: number, op: Operator, where: string, what: string): TensorType {
    r.tensor(t, `${what} of ${where}`, op.pos);
    return r.type(t, `${what} of ${where}`);
  }

  /**
   * The prefix of the nodes one control-flow operator adds: its first output's name (unique in
   * its subgraph, and a copy's names are unique in main); every name under it is made fresh.
   */
  private siteName(r: SubgraphReader, op: Operator, where: string): string {
    const first = op.outputs[0];
    return first === undefined ? this.fresh(where.replace(/[ #]/g, '_')) : r.names[first];
  }

  private spend(operators: number, op: Operator, where: string, label: string): void {
    this.inlined += operators;
    if (this.inlined > MAX_INLINED_OPERATORS) {
      this.refuse(op, where, `unrolling it passes ${MAX_INLINED_OPERATORS} inlined operators at ${label}; uma-ts unrolls control flow at import and refuses larger loops`);
    }
  }

  private fresh(base: string): string {
    return this.names.fresh(base);
  }

  /** An inner refusal as part of an outer one: without its own "unsupported " and " in <file>", which the outer says. */
  private reason(message: string): string {
    const unprefixed = message.startsWith('unsupported ') ? message.slice('unsupported '.length) : message;
    return unprefixed.replace(` in ${this.source}`, '');
  }

  private refuse(op: Operator, where: string, why: string): never {
    throw new UnsupportedOperatorError(`unsupported ${where} in ${this.source}: ${why}`, { file: this.source, offset: op.pos, op: where.split(' ')[0] });
  }
}
