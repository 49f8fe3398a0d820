/**
 * Model outputs that copy another model tensor share its bytes when I/O is planned in the
 * workspace. TFLite lets a subgraph output be one of its inputs, or list one tensor twice; the
 * importer turns each such output into a `reshape` of the tensor (importer.ts,
 * `outputsComputed`), so every output has a producer of its own. Outside the workspace that
 * copy goes from one application buffer to another and costs no workspace; inside it, the
 * copy would hold the same bytes twice where TFLite Micro's arena holds one tensor. So the
 * copy is dropped and the output is served from the tensor it copies: that Allocate carries
 * the output's name (`output_aliases`), lives to the end of main as an output does, and
 * `map_outputs` hands out its address for both.
 *
 * Only a whole copy qualifies: a call of a function that runs one plain `reshape` (no
 * composite), from an I/O tensor to an output of the same bytes that nothing else in main
 * mentions, when the two may share a pool (their candidate pools meet; the shared buffer
 * keeps the pools both allow). Neither side is ever written after the copy: a model input
 * is never overwritten (graph/inplace.ts) and an output is written once, by its producer,
 * before anything reads it.
 */
import { candidatePoolNames } from './assignPoolInfo';
import { calledModuleFunction } from './extractBufferInfo';
import { dtypeBytes } from '../ir/tir/dtype';
import { StmtExprMutator } from '../ir/tir/mutator';
import { StmtExprVisitor } from '../ir/tir/visitor';
import { readOperatorRecords } from '../ir/tir/operators';
import {
  Allocate,
  ANN_CANDIDATE_POOLS,
  ANN_INPUT_TENSOR,
  ANN_OUTPUT_ALIASES,
  ANN_OUTPUT_TENSOR,
  Call,
  Evaluate,
  MAIN_PRIM_FUNC,
  outputAliasesOf,
  SeqStmt,
  Stmt,
  TirModule,
  Var,
} from '../ir/tir/nodes';

interface IoAllocate {
  readonly allocate: Allocate;
  readonly output: boolean;
  readonly bytes: number | undefined;
}

function allocateBytes(a: Allocate): number | undefined {
  let elements = 1;
  for (const e of a.extents) {
    if (e.kind !== 'IntImm') return undefined;
    elements *= e.value;
  }
  return elements * dtypeBytes(a.dtype);
}

/** Main's I/O Allocates by var id, and how often main mentions each var. */
class IoCensus extends StmtExprVisitor {
  readonly io = new Map<number, IoAllocate>();
  readonly mentions = new Map<number, number>();

  override visitAllocate(s: Allocate): void {
    const input = typeof s.annotations[ANN_INPUT_TENSOR] === 'string';
    const output = typeof s.annotations[ANN_OUTPUT_TENSOR] === 'string';
    if (input || output) this.io.set(s.bufferVar.id, { allocate: s, output, bytes: allocateBytes(s) });
    super.visitAllocate(s);
  }

  override visitVar(v: Var): void {
    this.mentions.set(v.id, (this.mentions.get(v.id) ?? 0) + 1);
  }
}

/** The copies main runs, in order: [Evaluate, source var, destination var]. */
class CopyFinder extends StmtExprVisitor {
  readonly copies: { stmt: Evaluate; callee: string; from: Var; to: Var }[] = [];

  constructor(private readonly module: TirModule) {
    super();
  }

  override visitEvaluate(s: Evaluate): void {
    const call = s.value;
    if (call.kind !== 'Call') return;
    const callee = calledModuleFunction(call, this.module);
    if (callee === undefined) return;
    const f = this.module.functions.get(callee)!;
    const records = readOperatorRecords(f);
    if (records.length !== 1) return;
    const [r] = records;
    if (r.op !== 'reshape' || r.composite !== undefined || r.inputs.length !== 1 || r.outputs.length !== 1) return;
    const [from, to] = [call.args[1], call.args[2]];
    if (from?.kind !== 'Var' || to?.kind !== 'Var') return;
    // The record names the callee's params: the copy reads its first and writes its second.
    if (f.params[0]?.name !== r.inputs[0] || f.params[1]?.name !== r.outputs[0]) return;
    this.copies.push({ stmt: s, callee, from, to });
  }
}

/**
 * The pools both Allocates may take: undefined when neither has candidates yet (AssignPoolInfo
 * then gives both those of main's target), null when they have none in common.
 */
function sharedPools(a: Allocate, b: Allocate): readonly string[] | undefined | null {
  const pa = candidatePoolNames(a.annotations);
  const pb = candidatePoolNames(b.annotations);
  if (pa === undefined || pb === undefined) return pa === undefined && pb === undefined ? undefined : null;
  const both = pa.filter((p) => pb.includes(p));
  return both.length > 0 ? both : null;
}

class AliasRewriter extends StmtExprMutator {
  constructor(
    private readonly dropped: ReadonlySet<Evaluate>,
    private readonly removed: ReadonlySet<number>,
    private readonly annotate: ReadonlyMap<number, Allocate['annotations']>,
  ) {
    super();
  }

  override mutateSeqStmt(s: SeqStmt): Stmt {
    const kept = s.seq.filter((x) => !(x.kind === 'Evaluate' && this.dropped.has(x)));
    return super.mutateSeqStmt(kept.length === s.seq.length ? s : { ...s, seq: kept });
  }

  override mutateEvaluate(s: Evaluate): Stmt {
    return this.dropped.has(s) ? { kind: 'SeqStmt', seq: [] } : super.mutateEvaluate(s);
  }

  override mutateAllocate(s: Allocate, body: Stmt): Stmt {
    if (this.removed.has(s.bufferVar.id)) return body;
    const inner = super.mutateAllocate(s, body);
    const annotations = this.annotate.get(s.bufferVar.id);
    return annotations === undefined || inner.kind !== 'Allocate' ? inner : { ...inner, annotations };
  }
}

/** `module` with every qualifying output copy dropped and its output served by its source (see above). */
export function aliasCopiedOutputs(module: TirModule): TirModule {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (main === undefined) return module;
  const census = new IoCensus();
  census.visitStmt(main.body);
  if (census.io.size === 0) return module;
  const finder = new CopyFinder(module);
  finder.visitStmt(main.body);

  const annotations = new Map<number, Allocate['annotations']>();
  const dropped = new Set<Evaluate>();
  const removed = new Set<number>();
  const callees = new Set<string>();
  for (const { stmt, callee, from, to } of finder.copies) {
    const source = census.io.get(from.id);
    const target = census.io.get(to.id);
    if (source === undefined || target === undefined || !target.output || from.id === to.id) continue;
    // Its Allocate and this copy, nothing else (so no copy reads it either).
    if (census.mentions.get(to.id) !== 2) continue;
    if (source.bytes === undefined || source.bytes !== target.bytes) continue;
    const current = annotations.get(from.id) ?? source.allocate.annotations;
    const pools = sharedPools({ ...source.allocate, annotations: current }, target.allocate);
    if (pools === null) continue;
    annotations.set(from.id, {
      ...current,
      ...(pools !== undefined ? { [ANN_CANDIDATE_POOLS]: pools } : {}),
      [ANN_OUTPUT_ALIASES]: [...outputAliasesOf(current), target.allocate.annotations[ANN_OUTPUT_TENSOR] as string],
    });
    dropped.add(stmt);
    removed.add(to.id);
    callees.add(callee);
  }
  if (dropped.size === 0) return module;
  const body = new AliasRewriter(dropped, removed, annotations).mutateStmt(main.body);
  const functions = new Map(module.functions);
  functions.set(MAIN_PRIM_FUNC, { ...main, body });
  // A copy function nothing calls any more would only be dead code in the C.
  const rewritten = { ...module, functions };
  const called = calledFunctions(rewritten);
  for (const name of callees) if (!called.has(name)) functions.delete(name);
  return rewritten;
}

/** Every module function some function of `module` calls. */
function calledFunctions(module: TirModule): Set<string> {
  const called = new Set<string>();
  class Calls extends StmtExprVisitor {
    override visitCall(e: Call): void {
      const name = calledModuleFunction(e, module);
      if (name !== undefined) called.add(name);
      super.visitCall(e);
    }
  }
  for (const f of module.functions.values()) new Calls().visitStmt(f.body);
  return called;
}
