/**
 * Makes unsatisfiable pool constraints satisfiable by splitting a buffer of main in two:
 * when the operator that writes `sid_<n>` and some operator that reads it want it in
 * disjoint pools, the writer keeps `sid_<n>`, a host function copies it byte by byte into a
 * new `sid_<n>_copy` right after the writer, and the conflicting readers read the copy.
 *
 * Each round solves the whole program; the first buffer the solver rejects is split if a
 * copy can help, and the loop repeats until the program is solvable. When no copy can help
 * (the conflict is inside one operator, the buffer is not main's, the host cannot reach the
 * pools either side needs) the solver's own error is thrown with the reason appended.
 */
import { PoolConstraintError } from '../../src/errors';
import {
  allocate,
  bufferLoad,
  bufferStore,
  callExtern,
  evaluate,
  forLoop,
  makeBuffer,
  makeVar,
  primFunc,
  seq,
} from '../../src/ir/tir/builder';
import { Allocate, Evaluate, Expr, MAIN_PRIM_FUNC, PrimFunc, SeqStmt, Stmt, TirModule, Var } from '../../src/ir/tir/nodes';
import { StmtExprMutator } from '../../src/ir/tir/mutator';
import { StmtExprVisitor } from '../../src/ir/tir/visitor';
import { operatorAliases, withOperatorRecords } from '../../src/ir/tir/operators';
import { HOST_TARGET } from '../../src/lower/strategy';
import { PoolInfo } from '../../src/usmp/types';
import { globMatches, OperandPin, PinningConstraints } from './constraints';
import { PinningSolution, solvePoolPinning } from './solve';
import { OperandTrace, OperandUse, TracedBuffer, traceOperands } from './traceOperands';

export interface InsertedCopy {
  /** The buffer that was split (main's allocate, e.g. `sid_3`). */
  readonly buffer: string;
  readonly tensor?: string;
  /** The new buffer the conflicting readers now read (`sid_3_copy`). */
  readonly copy: string;
  /** The host PrimFunc that copies it (`tvmgen_<mod>_copy_<n>`). */
  readonly func: string;
  /** Candidate pools of the original (source of the copy) and of the copy, as finally solved. */
  readonly from: readonly string[];
  readonly to: readonly string[];
  /** Function called by main that writes the buffer. */
  readonly producer: string;
  /** Functions called by main that now read the copy. */
  readonly consumers: readonly string[];
}

export interface InsertCopiesResult {
  readonly module: TirModule;
  readonly inserted: readonly InsertedCopy[];
}

export interface InsertCopiesOptions {
  /** Module name of the generated symbols (`tvmgen_<name>_copy_<n>`); default `default`. */
  readonly moduleName?: string;
}

/** One line per inserted copy, as the CLI prints it. */
export function formatInsertedCopy(c: InsertedCopy): string {
  const tensor = c.tensor ? ` (tensor ${c.tensor})` : '';
  return (
    `inserted ${c.func}: copies ${c.buffer}${tensor} {${c.from.join(', ')}} written by ${c.producer} ` +
    `into ${c.copy} {${c.to.join(', ')}} read by ${c.consumers.join(', ')}`
  );
}

export function insertCopiesForPinning(
  module: TirModule,
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
  options: InsertCopiesOptions = {},
): InsertCopiesResult {
  let current = module;
  const splits: Split[] = [];
  // Every round moves at least one call's operand to a new buffer, so the number of
  // (call, operand) pairs in main bounds the rounds; the guard only protects against a bug.
  const maxRounds = countMainCallArgs(module) + 1;
  for (let round = 0; round <= maxRounds; round++) {
    const trace = traceOperands(current);
    let solution: PinningSolution;
    try {
      solution = solvePoolPinning(trace, pools, constraints);
    } catch (e) {
      if (!(e instanceof PoolConstraintError)) throw e;
      const plan = planSplit(current, trace, e, pools, constraints, options);
      if (typeof plan === 'string') {
        throw new PoolConstraintError(`${e.message}\n  no copy inserted: ${plan}`, e.context);
      }
      current = applySplit(current, plan);
      splits.push(plan);
      continue;
    }
    return { module: current, inserted: splits.map((s) => describeSplit(s, solution)) };
  }
  throw new PoolConstraintError(`inserting copies did not converge after ${maxRounds} copies`, { func: MAIN_PRIM_FUNC });
}

/** A decided split: which buffer, the new var and function, and which calls move. */
interface Split {
  readonly buffer: TracedBuffer;
  readonly source: Allocate;
  readonly copyVar: Var;
  readonly funcName: string;
  readonly func: PrimFunc;
  readonly producer: CallSite;
  readonly moved: readonly CallSite[];
}

/** A call statement of main that passes the buffer being split. */
interface CallSite {
  readonly stmt: Evaluate;
  readonly callee: string;
}

function calleeOf(e: Expr): string | undefined {
  if (e.kind !== 'Call' || (e.op !== 'tir.call_extern' && e.op !== 'tir.tvm_call_cpacked')) return undefined;
  const first = e.args[0];
  return first && first.kind === 'StringImm' ? first.value : undefined;
}

function passesVar(e: Expr, varId: number): boolean {
  return e.kind === 'Call' && e.args.slice(1).some((a) => a.kind === 'Var' && a.id === varId);
}

/** Main's call statements in program order, and its allocates by var id. */
function scanMain(main: PrimFunc): { calls: CallSite[]; allocs: Map<number, Allocate>; names: Set<string> } {
  const calls: CallSite[] = [];
  const allocs = new Map<number, Allocate>();
  const names = new Set<string>(main.params.map((p) => p.name));
  class Scanner extends StmtExprVisitor {
    override enterStmt(s: Stmt): void {
      if (s.kind === 'Evaluate') {
        const callee = calleeOf(s.value);
        if (callee !== undefined) calls.push({ stmt: s, callee });
      }
      if (s.kind === 'Allocate') allocs.set(s.bufferVar.id, s);
      if (s.kind === 'Allocate' || s.kind === 'AllocateConst') names.add(s.bufferVar.name);
    }
  }
  new Scanner().visitStmt(main.body);
  return { calls, allocs, names };
}

function countMainCallArgs(module: TirModule): number {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (!main) return 0;
  return scanMain(main).calls.reduce((n, c) => n + ((c.stmt.value as { args: readonly Expr[] }).args.length - 1), 0);
}

/** The callee and every function it calls, transitively: what one call of main can touch. */
function reachableFrom(module: TirModule, root: string): Set<string> {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const name = stack.pop()!;
    const f = module.functions.get(name);
    if (!f || seen.has(name)) continue;
    seen.add(name);
    class Calls extends StmtExprVisitor {
      override visitExpr(e: Expr): void {
        const callee = calleeOf(e);
        if (callee !== undefined) stack.push(callee);
        super.visitExpr(e);
      }
    }
    new Calls().visitStmt(f.body);
  }
  return seen;
}

function constraintHits(c: OperandPin, use: OperandUse): boolean {
  if (!operatorAliases(use.operator).some((n) => globMatches(c.op, n))) return false;
  if (c.role !== 'any' && c.role !== use.role) return false;
  if (c.index === undefined) return !(c.exceptIndices ?? []).includes(use.index);
  return c.index === use.index;
}

/**
 * The pools one side of a split allows: the solver run on the buffer as seen by the given
 * functions only. Constraints are narrowed to those that touch this side, so pins aimed at
 * the other side do not count as "matches nothing".
 */
function sidePools(
  trace: OperandTrace,
  buffer: TracedBuffer,
  funcs: ReadonlySet<string>,
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
): string[] {
  const accesses = trace.accesses.filter((a) => a.buffer.key === buffer.key && funcs.has(a.func));
  const operands = trace.operands.filter((u) => u.buffer.key === buffer.key && funcs.has(u.func));
  const side: PinningConstraints = {
    ...constraints,
    operands: constraints.operands.filter((c) => operands.some((u) => constraintHits(c, u))),
    tensors: constraints.tensors.filter(
      (p) => globMatches(p.tensor, buffer.name) || (buffer.tensor !== undefined && globMatches(p.tensor, buffer.tensor)),
    ),
  };
  try {
    const s = solvePoolPinning({ buffers: [buffer], accesses, operands }, pools, side);
    return [...(s.decisions[0]?.candidates ?? [])];
  } catch (e) {
    if (e instanceof PoolConstraintError) return [];
    throw e;
  }
}

function hostPools(pools: readonly PoolInfo[], write: boolean): Set<string> {
  return new Set(
    pools
      .filter((p) => p.kind === 'workspace')
      .filter((p) => p.targetAccess[HOST_TARGET] === 'rw' || (!write && p.targetAccess[HOST_TARGET] === 'ro'))
      .map((p) => p.name),
  );
}

const intersect = (a: readonly string[], b: readonly string[] | ReadonlySet<string>): string[] =>
  a.filter((n) => (b instanceof Set ? b.has(n) : (b as readonly string[]).includes(n)));

function braces(names: readonly string[]): string {
  return `{${names.join(', ')}}`;
}

/** Decides how to split the buffer the solver rejected, or says why no copy can help. */
function planSplit(
  module: TirModule,
  trace: OperandTrace,
  error: PoolConstraintError,
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
  options: InsertCopiesOptions,
): Split | string {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  const name = error.context.buffer;
  if (!main || name === undefined) return 'the conflict is not about one buffer';
  if (error.context.func !== MAIN_PRIM_FUNC) {
    return `only buffers allocated in ${MAIN_PRIM_FUNC} can be split; '${name}' is allocated in ${error.context.func ?? 'another function'}`;
  }
  const buffer = trace.buffers.find((b) => b.func === MAIN_PRIM_FUNC && b.name === name && b.origin === 'allocate');
  const scan = scanMain(main);
  const source = buffer ? scan.allocs.get(buffer.varId) : undefined;
  if (!buffer || !source || buffer.sizeBytes === undefined) return `'${name}' is not a statically sized allocate of ${MAIN_PRIM_FUNC}`;

  const sites = scan.calls.filter((c) => passesVar(c.stmt.value, buffer.varId));
  const reach = new Map(sites.map((c) => [c, reachableFrom(module, c.callee)]));
  const usesOf = (c: CallSite): OperandUse[] =>
    trace.operands.filter((u) => u.buffer.key === buffer.key && reach.get(c)!.has(u.func));
  const writes = (c: CallSite): boolean => usesOf(c).some((u) => u.role !== 'input');
  const producer = sites.find(writes) ?? sites[0];
  if (!producer) return `no function called by ${MAIN_PRIM_FUNC} writes '${name}'`;
  // An in-place operator writes the same buffer again later: a copy after the first writer
  // would hand its readers the value before that write.
  if (sites.filter(writes).length > 1) return `'${name}' is written by more than one operator (in-place reuse), a copy after its first writer would miss the later writes`;

  const producerPools = sidePools(trace, buffer, reach.get(producer)!, pools, constraints);
  if (producerPools.length === 0) {
    return `the constraints of its writer ${producer.callee} alone exclude every pool, a copy cannot reconcile them`;
  }
  const copyName = freshName(`${name}_copy`, scan.names);
  const copySide: TracedBuffer = { ...buffer, name: copyName, tensor: undefined };
  let kept = producerPools;
  let copyPools: string[] | undefined;
  const moved: CallSite[] = [];
  const unfixable: string[] = [];
  for (const site of sites) {
    if (site === producer) continue;
    const allowed = sidePools(trace, copySide, reach.get(site)!, pools, constraints);
    if (intersect(kept, allowed).length > 0) {
      kept = intersect(kept, allowed);
    } else if (allowed.length === 0) {
      unfixable.push(`the constraints of ${site.callee} alone exclude every pool`);
    } else if (writes(site)) {
      unfixable.push(`${site.callee} writes '${name}' too, so it cannot be given a copy`);
    } else if (copyPools === undefined || intersect(copyPools, allowed).length > 0) {
      // Readers that agree with each other share one copy; the others get one next round.
      copyPools = copyPools === undefined ? allowed : intersect(copyPools, allowed);
      moved.push(site);
    }
  }
  if (moved.length === 0 || copyPools === undefined) {
    return unfixable[0] ?? `no reader of '${name}' disagrees with its writer ${producer.callee}`;
  }
  const readable = intersect(kept, hostPools(pools, false));
  if (readable.length === 0) {
    return `the host CPU (target ${HOST_TARGET}) cannot read any pool its writer allows ${braces(kept)}; give '${HOST_TARGET}' access to one of them`;
  }
  const writable = intersect(copyPools, hostPools(pools, true));
  if (writable.length === 0) {
    return `the host CPU (target ${HOST_TARGET}) cannot write any pool its readers ${moved.map((m) => m.callee).join(', ')} allow ${braces(copyPools)}; give '${HOST_TARGET}' rw access to one of them`;
  }

  const funcName = freshFuncName(module, `tvmgen_${options.moduleName ?? 'default'}_copy`);
  const copyVar = makeVar(copyName, 'handle', source.dtype);
  return {
    buffer,
    source,
    copyVar,
    funcName,
    func: byteCopyFunc(funcName, buffer.sizeBytes, `${buffer.tensor ?? name}_copy`),
    producer,
    moved,
  };
}

function freshName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  let i = 1;
  while (taken.has(`${base}_${i}`)) i++;
  return `${base}_${i}`;
}

function freshFuncName(module: TirModule, prefix: string): string {
  let n = 0;
  while (module.functions.has(`${prefix}_${n}`)) n++;
  return `${prefix}_${n}`;
}

/** `dst[i] = src[i]` over bytes: works for any dtype and keeps the copy exact. */
function byteCopyFunc(name: string, bytes: number, operatorName: string): PrimFunc {
  const src = makeBuffer('src', 'uint8', [bytes]);
  const dst = makeBuffer('dst', 'uint8', [bytes]);
  const i = makeVar('i');
  const f = primFunc({
    params: [src.data, dst.data],
    bufferMap: [
      [src.data, src],
      [dst.data, dst],
    ],
    body: forLoop(i, 0, bytes, bufferStore(dst, bufferLoad(src, [i]), [i])),
    attrs: { global_symbol: name, 'tir.noalias': true, target: HOST_TARGET },
  });
  return withOperatorRecords(f, [
    { name: operatorName, op: 'copy', target: HOST_TARGET, inputs: ['src'], outputs: ['dst'], scratch: [] },
  ]);
}

function applySplit(module: TirModule, split: Split): TirModule {
  const main = module.functions.get(MAIN_PRIM_FUNC)!;
  const original = split.source.bufferVar;
  const moved = new Set<Stmt>(split.moved.map((m) => m.stmt));
  const copyCall = evaluate(callExtern(split.funcName, [original, split.copyVar]));
  class Rewriter extends StmtExprMutator {
    override mutateAllocate(s: Allocate, body: Stmt): Stmt {
      const rewritten = super.mutateAllocate(s, body);
      if (s !== split.source || rewritten.kind !== 'Allocate') return rewritten;
      // The copy lives in the original's scope, so every call that may read it sees it.
      const copy = allocate({
        bufferVar: split.copyVar,
        dtype: s.dtype,
        extents: s.extents,
        annotations: { 'uma.copy_of': split.buffer.tensor ?? split.buffer.name },
        body: rewritten.body,
      });
      return { ...rewritten, body: copy };
    }
    override mutateSeqStmt(s: SeqStmt): Stmt {
      const rewritten = super.mutateSeqStmt(s);
      return rewritten.kind === 'SeqStmt' ? seq(rewritten.seq) : rewritten;
    }
    override mutateEvaluate(s: Evaluate): Stmt {
      if (s === split.producer.stmt) return seq([s, copyCall]);
      if (!moved.has(s) || s.value.kind !== 'Call') return s;
      const args = s.value.args.map((a) => (a.kind === 'Var' && a.id === original.id ? split.copyVar : a));
      return { ...s, value: { ...s.value, args } };
    }
  }
  const functions = new Map(module.functions);
  functions.set(MAIN_PRIM_FUNC, new Rewriter().mutatePrimFunc(main));
  functions.set(split.funcName, split.func);
  return { functions };
}

function describeSplit(split: Split, solution: PinningSolution): InsertedCopy {
  const candidatesOf = (varId: number): readonly string[] =>
    solution.decisions.find((d) => d.buffer.func === MAIN_PRIM_FUNC && d.buffer.varId === varId)?.candidates ?? [];
  return {
    buffer: split.buffer.name,
    ...(split.buffer.tensor ? { tensor: split.buffer.tensor } : {}),
    copy: split.copyVar.name,
    func: split.funcName,
    from: candidatesOf(split.buffer.varId),
    to: candidatesOf(split.copyVar.id),
    producer: split.producer.callee,
    consumers: split.moved.map((m) => m.callee),
  };
}
