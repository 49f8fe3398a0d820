/**
 * extractBufferInfo (TVM `tir.usmp.analysis.extract_buffer_info`): the bridge from TIR to
 * the planner. Walks `__tvm_main__` in statement order, descending into every PrimFunc of
 * the module it calls, and turns each plannable allocation into a `BufferInfo` with its
 * liveness interval and conflicts.
 *
 * Liveness is counted in statements visited (pre-order, callees included at their call
 * site). A buffer is live from its first to its last access; a buffer accessed inside a
 * loop nest is live over the whole outermost loop of that nest, since every iteration
 * touches it again. Handing a buffer to a module function is not an access: the callee's
 * body accesses it, at its own statements. Unlike TVM, an allocation inside a function called
 * twice yields one buffer per call (`name`, `name_1`): each call gets its own interval, and
 * the offset rewrite specialises the function per call when the two get different places.
 */
import { MemoryPlanningError, PoolConstraintError } from '../errors';
import { dtypeBytes } from '../ir/tir/dtype';
import { StmtExprVisitor } from '../ir/tir/visitor';
import { HOST_TARGET } from '../lower/strategy';
import {
  Allocate,
  AllocateConst,
  ANN_INPUT_TENSOR,
  ANN_OUTPUT_TENSOR,
  Call,
  DeclBuffer,
  Expr,
  For,
  LetStmt,
  MAIN_PRIM_FUNC,
  outputAliasesOf,
  PERSISTENT_SCOPE,
  PrimFunc,
  ScalarDType,
  Stmt,
  TirModule,
  Var,
} from '../ir/tir/nodes';
import { candidatePoolNames, funcTarget, isGlobalScope } from './assignPoolInfo';
import { CompactConflicts, compactBufferInfos } from './compactConflicts';
import { memoryPressureOfIntervals } from './conflicts';
import { shareIdenticalConstants } from './identicalConstants';
import { lcm } from './stackBound';
import { BufferInfo, PoolInfo, PoolKind, UnplannedAllocate } from './types';

/**
 * A buffer is at least aligned to its element: the generated C reads an int32 bias or a float
 * tensor through a pointer of that type, so a pool of alignment 1 must not put it at an odd
 * offset (undefined behaviour; a fault on cores without unaligned access).
 */
function alignmentOf(record: { readonly candidates: readonly PoolInfo[]; readonly node: Allocate | AllocateConst }): number {
  return lcm(record.candidates[0].alignment, dtypeBytes(record.node.dtype));
}

/** One execution of a PrimFunc: main, or one call site of a module function. */
export interface CallInstance {
  readonly func: string;
  /** Unique over the whole call tree; main is 0. */
  readonly id: number;
  /** Calls this instance makes to module functions, by call ordinal in the body (pre-order). */
  readonly calls: readonly CallInstance[];
}

/** Where a BufferInfo comes from: the allocation node in one call instance of a function. */
export interface BufferSite {
  readonly func: string;
  readonly instance: number;
  readonly node: Allocate | AllocateConst;
  readonly bufferVar: Var;
  /** Set for I/O tensors planned in the workspace: the model tensor name and its direction. */
  readonly io?: {
    readonly direction: 'input' | 'output';
    readonly tensor: string;
    /** Outputs that copied this tensor and are served from its bytes (ioAliases.ts). */
    readonly outputAliases?: readonly string[];
  };
}

/** An allocation left to codegen, with what the pipeline needs to judge it. */
export interface UnplannedSite extends UnplannedAllocate {
  readonly kind: PoolKind;
  /** Storage scope (`global` for constants). */
  readonly scope: string;
}

export interface BufferInfoAnalysis {
  /** In order of first allocation (statement order). */
  readonly buffers: readonly BufferInfo[];
  /** BufferInfo name → its allocation (also for the constants in `sameAs`). */
  readonly sites: ReadonlyMap<string, BufferSite>;
  /**
   * Constants left out of `buffers` because a planned one has the same bytes (and pools,
   * alignment, type and size), by name, to that one's name: they take its place
   * (identicalConstants.ts).
   */
  readonly sameAs: ReadonlyMap<string, string>;
  /**
   * Lower bound of the total memory any valid plan needs: the most workspace bytes live at
   * once plus every constant (constants are live throughout).
   */
  readonly memoryPressure: number;
  readonly unplanned: readonly UnplannedSite[];
  readonly callTree: CallInstance;
}

/** A module function called by name (`call_extern` / `tvm_call_cpacked`), or undefined. */
export function calledModuleFunction(call: Call, module: TirModule): string | undefined {
  if (call.op !== 'tir.call_extern' && call.op !== 'tir.tvm_call_cpacked') return undefined;
  const head = call.args[0];
  if (head === undefined || head.kind !== 'StringImm') return undefined;
  return module.functions.has(head.value) ? head.value : undefined;
}

/** The data var an argument hands to the callee: a var, `&buf[i]`, or `tvm_access_ptr(.., data, ..)`. */
function passedDataVar(arg: Expr): Var | undefined {
  if (arg.kind === 'Var') return arg;
  if (arg.kind !== 'Call') return undefined;
  if (arg.op === 'tir.address_of' && arg.args[0]?.kind === 'BufferLoad') return arg.args[0].buffer.data;
  if (arg.op === 'tir.tvm_access_ptr' && arg.args[1]?.kind === 'Var') return arg.args[1];
  return undefined;
}

export function constantExtentBytes(dtype: ScalarDType, extents: readonly Expr[]): number | undefined {
  let elements = 1;
  for (const e of extents) {
    if (e.kind !== 'IntImm') return undefined;
    elements *= e.value;
  }
  return elements * dtypeBytes(dtype);
}

/** How the unplanned reason of model state starts (reports tell state from scratch by it). */
export const PERSISTENT_REASON_PREFIX = 'persistent state';

interface BufferRecord {
  readonly node: Allocate | AllocateConst;
  readonly func: string;
  readonly instance: number;
  readonly name: string;
  readonly kind: PoolKind;
  readonly sizeBytes: number;
  readonly candidates: readonly PoolInfo[];
  readonly declaredAt: number;
  readonly io?: BufferSite['io'];
  /** Targets of the functions that read or write it (main only passes pointers along). */
  readonly accessTargets: Set<string>;
  first?: number;
  last?: number;
}

interface LoopNest {
  readonly start: number;
  readonly touched: Set<BufferRecord>;
}

interface MutableInstance {
  readonly func: string;
  readonly id: number;
  readonly calls: MutableInstance[];
}

class BufferInfoExtractor extends StmtExprVisitor {
  readonly records: BufferRecord[] = [];
  readonly unplanned: UnplannedSite[] = [];
  private readonly unplannedSeen = new Set<string>();
  private readonly usedNames = new Set<string>();
  private stmtIndex = 0;

  /** Index of the last statement visited (main's end once `run` returns). */
  get lastStmtIndex(): number {
    return this.stmtIndex;
  }
  private nextInstanceId = 0;
  /** Buffer var id → the record it reaches, in the current instance. */
  private env = new Map<number, BufferRecord>();
  private instance: MutableInstance;
  private readonly activeFuncs: string[] = [];
  private loopNest: LoopNest | undefined;
  private parallelLoop: Var | undefined;

  constructor(
    private readonly module: TirModule,
    private readonly poolsByName: ReadonlyMap<string, PoolInfo>,
  ) {
    super();
    this.instance = { func: MAIN_PRIM_FUNC, id: this.nextInstanceId++, calls: [] };
  }

  run(main: PrimFunc): MutableInstance {
    const root = this.instance;
    this.activeFuncs.push(MAIN_PRIM_FUNC);
    this.visitStmt(main.body);
    return root;
  }

  override enterStmt(): void {
    this.stmtIndex += 1;
  }

  override visitVar(v: Var): void {
    const record = this.env.get(v.id);
    if (record === undefined) return;
    record.first ??= this.stmtIndex;
    record.last = this.stmtIndex;
    this.loopNest?.touched.add(record);
    const func = this.activeFuncs[this.activeFuncs.length - 1];
    if (func !== MAIN_PRIM_FUNC) record.accessTargets.add(funcTarget(this.module.functions.get(func)!));
  }

  // Declarations are not accesses: only their extents (and then their bodies) are visited.
  override visitAllocate(s: Allocate): void {
    for (const x of s.extents) this.visitExpr(x);
    this.visitExpr(s.condition);
    this.record(s, 'workspace');
  }

  override visitAllocateConst(s: AllocateConst): void {
    this.record(s, 'constant');
  }

  override visitDeclBuffer(s: DeclBuffer): void {
    for (const d of s.buffer.shape) this.visitExpr(d);
  }

  // `let p = sid_1` (or `&sid_1[k]`): later uses of p are uses of sid_1.
  override visitLetStmt(s: LetStmt): void {
    this.visitExpr(s.value);
    const passed = passedDataVar(s.value);
    const record = passed === undefined ? undefined : this.env.get(passed.id);
    if (record !== undefined) this.env.set(s.var.id, record);
  }

  override visitFor(s: For): void {
    const outer = this.loopNest;
    const outerParallel = this.parallelLoop;
    if (outer === undefined) this.loopNest = { start: this.stmtIndex, touched: new Set() };
    if (s.forKind === 'parallel') this.parallelLoop ??= s.loopVar;
    super.visitFor(s);
    this.parallelLoop = outerParallel;
    if (outer === undefined) {
      const nest = this.loopNest!;
      for (const r of nest.touched) {
        r.first = Math.min(r.first ?? nest.start, nest.start);
        r.last = Math.max(r.last ?? this.stmtIndex, this.stmtIndex);
      }
      this.loopNest = undefined;
    }
  }

  override visitCall(e: Call): void {
    const callee = calledModuleFunction(e, this.module);
    if (callee === undefined) return super.visitCall(e);
    // A buffer handed to a module function is accessed where the callee's body accesses it,
    // not at the call: a merged region's input then dies after its first operator reads it,
    // and its output lives from its last operator's write, as they would called one by one
    // (counted at the call, a MobileNetV2-like model planned 12% above TFLite Micro's arena).
    const params = this.module.functions.get(callee)!.params;
    e.args.forEach((a, i) => {
      const handedOver = a.kind === 'Var' && i > 0 && i - 1 < params.length && this.env.has(a.id);
      if (!handedOver) this.visitExpr(a);
    });
    this.descend(callee, e);
  }

  private descend(calleeName: string, call: Call): void {
    if (this.activeFuncs.includes(calleeName)) {
      throw new MemoryPlanningError(
        `recursive call of '${calleeName}' (call chain ${[...this.activeFuncs, calleeName].join(' -> ')}) cannot be statically planned`,
        { func: calleeName },
      );
    }
    const callee = this.module.functions.get(calleeName)!;
    const calleeEnv = new Map<number, BufferRecord>();
    const args = call.args.slice(1);
    callee.params.forEach((param, i) => {
      const passed = args[i] === undefined ? undefined : passedDataVar(args[i]);
      const record = passed === undefined ? undefined : this.env.get(passed.id);
      if (record === undefined) return;
      calleeEnv.set(param.id, record);
      const view = callee.bufferMap.find(([v]) => v.id === param.id)?.[1];
      if (view !== undefined) calleeEnv.set(view.data.id, record);
    });
    const child: MutableInstance = { func: calleeName, id: this.nextInstanceId++, calls: [] };
    this.instance.calls.push(child);
    const [savedEnv, savedInstance] = [this.env, this.instance];
    this.env = calleeEnv;
    this.instance = child;
    this.activeFuncs.push(calleeName);
    this.visitStmt(callee.body);
    this.activeFuncs.pop();
    this.env = savedEnv;
    this.instance = savedInstance;
  }

  private record(s: Allocate | AllocateConst, kind: PoolKind): void {
    const func = this.instance.func;
    const reason = this.whyUnplanned(s, kind);
    if (reason !== undefined) {
      const key = `${func}\u0000${s.bufferVar.id}`;
      if (!this.unplannedSeen.has(key)) {
        this.unplannedSeen.add(key);
        const scope = s.kind === 'Allocate' ? s.storageScope : 'global';
        this.unplanned.push({ func, name: s.bufferVar.name, reason, kind, scope });
      }
      return;
    }
    const names = candidatePoolNames(s.annotations)!;
    const candidates = names.map((n) => {
      const pool = this.poolsByName.get(n);
      if (pool === undefined) {
        throw new PoolConstraintError(`buffer '${s.bufferVar.name}' in '${func}' names unknown pool '${n}'`, {
          func,
          buffer: s.bufferVar.name,
          pool: n,
        });
      }
      return pool;
    });
    const io = ioAnnotation(s);
    const record: BufferRecord = {
      node: s,
      func,
      instance: this.instance.id,
      name: this.uniqueName(io?.tensor ?? s.bufferVar.name),
      kind,
      sizeBytes: constantExtentBytes(s.dtype, s.extents)!,
      candidates,
      declaredAt: this.stmtIndex,
      ...(io ? { io } : {}),
      accessTargets: new Set(),
    };
    this.records.push(record);
    this.env.set(s.bufferVar.id, record);
  }

  private whyUnplanned(s: Allocate | AllocateConst, kind: PoolKind): string | undefined {
    if (s.kind === 'Allocate' && s.storageScope === PERSISTENT_SCOPE) {
      return `${PERSISTENT_REASON_PREFIX} (a variable tensor): a static array that keeps its contents between runs, never shared with workspace buffers`;
    }
    if (s.kind === 'Allocate' && !isGlobalScope(s.storageScope)) {
      return `storage scope '${s.storageScope}' is not global; it stays a local array`;
    }
    if (this.parallelLoop !== undefined) {
      return `inside parallel loop '${this.parallelLoop.name}': every iteration needs its own copy`;
    }
    if (constantExtentBytes(s.dtype, s.extents) === undefined) {
      return 'extent is not a compile-time constant';
    }
    if (candidatePoolNames(s.annotations) === undefined) {
      return kind === 'constant'
        ? 'no constant pool was given; it stays a constant array'
        : 'no candidate_memory_pools annotation (AssignPoolInfo did not run)';
    }
    return undefined;
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 1; this.usedNames.has(name); n++) name = `${base}_${n}`;
    this.usedNames.add(name);
    return name;
  }
}

function ioAnnotation(s: Allocate | AllocateConst): BufferSite['io'] | undefined {
  const aliases = outputAliasesOf(s.annotations);
  const withAliases = aliases.length > 0 ? { outputAliases: aliases } : {};
  const input = s.annotations[ANN_INPUT_TENSOR];
  if (typeof input === 'string') return { direction: 'input', tensor: input, ...withAliases };
  const output = s.annotations[ANN_OUTPUT_TENSOR];
  if (typeof output === 'string') return { direction: 'output', tensor: output, ...withAliases };
  return undefined;
}

/** An output, or a tensor that also serves outputs, is read after main's last statement. */
function readAfterMain(io: BufferSite['io']): boolean {
  return io !== undefined && (io.direction === 'output' || (io.outputAliases?.length ?? 0) > 0);
}

interface Interval {
  readonly record: BufferRecord;
  readonly first: number;
  readonly last: number;
}

function freeze(i: MutableInstance): CallInstance {
  return { func: i.func, id: i.id, calls: i.calls.map(freeze) };
}

/**
 * Extracts the buffers to plan from `module` (already through AssignPoolInfo). `pools`
 * resolves the pool names of `candidate_memory_pools` annotations.
 */
export function extractBufferInfo(module: TirModule, pools: readonly PoolInfo[]): BufferInfoAnalysis {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (main === undefined) {
    throw new MemoryPlanningError(`module has no '${MAIN_PRIM_FUNC}' function to plan from`, { func: MAIN_PRIM_FUNC });
  }
  const extractor = new BufferInfoExtractor(module, new Map(pools.map((p) => [p.name, p])));
  const root = extractor.run(main);
  const records = extractor.records;
  const end = extractor.lastStmtIndex;
  // Model I/O planned in the workspace holds its value outside main: an input is copied in
  // before the first statement, an output read after the last (even when an operator
  // also consumes it midway), so their live ranges reach the start or the end of main.
  const intervals = records.map((record) => ({
    record,
    first: record.io?.direction === 'input' ? 0 : (record.first ?? record.declaredAt),
    last: readAfterMain(record.io) ? Math.max(end, record.last ?? record.declaredAt) : (record.last ?? record.declaredAt),
  }));
  const workspace = intervals.filter((i) => i.record.kind === 'workspace');
  const sameAs = shareIdenticalConstants(
    records.flatMap((r) =>
      r.kind === 'constant' && r.node.kind === 'AllocateConst' && r.io === undefined
        ? [{ name: r.name, node: r.node, sizeBytes: r.sizeBytes, alignment: alignmentOf(r), candidates: r.candidates }]
        : [],
    ),
  );
  const planned = intervals.filter((i) => !sameAs.has(i.record.name));
  const constants = planned.filter((i) => i.record.kind === 'constant');
  // Statement indices are integers, so a range ending where another starts shares that
  // statement with it: both live, as TVM's sweep counts them.
  const maxLive = memoryPressureOfIntervals(workspace.map((i) => ({ sizeBytes: i.record.sizeBytes, firstUse: i.first, lastUse: i.last })));
  // Workspace buffers conflict where their live ranges overlap; constants are all initialised
  // before main runs and live until it ends: every constant conflicts with every other constant
  // and with no workspace buffer. Kept as ranges and one clique, listed only when read.
  const conflicts = new CompactConflicts(
    Float64Array.from(planned, (i) => i.first),
    Float64Array.from(planned, (i) => i.last),
    Uint8Array.from(planned, (i) => (i.record.kind === 'constant' ? 1 : 0)),
  );
  const buffers = compactBufferInfos(
    conflicts,
    planned.map(({ record, first, last }) => ({
      name: record.name,
      sizeBytes: record.sizeBytes,
      alignment: alignmentOf(record),
      poolCandidates: record.candidates,
      kind: record.kind,
      liveRange: [first, last] as const,
      func: record.func,
      target: reportedTarget(record, funcTarget(module.functions.get(record.func)!)),
    })),
  );
  const sites = new Map<string, BufferSite>(
    records.map((r) => [
      r.name,
      {
        func: r.func,
        instance: r.instance,
        node: r.node,
        bufferVar: r.node.bufferVar,
        ...(r.io ? { io: r.io } : {}),
      },
    ]),
  );
  const constantBytes = constants.reduce((sum, c) => sum + c.record.sizeBytes, 0);
  return {
    buffers,
    sites,
    sameAs,
    memoryPressure: maxLive + constantBytes,
    unplanned: extractor.unplanned,
    callTree: freeze(root),
  };
}

/**
 * The target a report shows for a buffer: an accelerator that touches it wins over the host,
 * so an intermediate allocated in main but used by the accelerator shows as the accelerator's.
 */
function reportedTarget(record: BufferRecord, ownerTarget: string): string {
  const targets = [...record.accessTargets];
  return targets.find((t) => t !== HOST_TARGET) ?? targets[0] ?? ownerTarget;
}
