/**
 * Follows every buffer of a lowered module through its call sites: main's allocates and
 * constants, the model I/O, and every Allocate inside called PrimFuncs, with callee params
 * aliased to the caller's buffers. The result says, for each buffer, which functions (and so
 * which targets) touch it and as which operand of which operator.
 *
 * A buffer is identified by the statement that allocates it, not by call, because the
 * `candidate_memory_pools` annotation lives on that statement: a function called twice
 * contributes the constraints of both calls to its internal allocates.
 */
import { Allocate, AllocateConst, ANN_INPUT_TENSOR, ANN_OUTPUT_TENSOR, ATTR_PARAM_TENSORS, BufferStore, Expr, MAIN_PRIM_FUNC, PrimFunc, Stmt, TirModule, Var } from '../../src/ir/tir/nodes';
import { OperatorRecord, readOperatorRecords } from '../../src/ir/tir/operators';
import { StmtExprVisitor } from '../../src/ir/tir/visitor';
import { dtypeBytes } from '../../src/ir/tir/dtype';
import { HOST_TARGET } from '../../src/lower/strategy';

export type BufferOrigin = 'allocate' | 'constant' | 'io';

export interface TracedBuffer {
  /** Stable key: `<func>/<var id>`. */
  readonly key: string;
  readonly name: string;
  /** Function whose statement allocates it (main for I/O params). */
  readonly func: string;
  readonly origin: BufferOrigin;
  readonly varId: number;
  readonly sizeBytes?: number;
  /** Graph tensor this buffer holds, when lowering recorded it (`uma.tensor`). */
  readonly tensor?: string;
  /** Later tensors sharing it in place (`uma.tensor_aliases`): a tensor pin on them hits it too. */
  readonly aliases?: readonly string[];
  /** A model input or output planned in the workspace: the application writes or reads it. */
  readonly io?: 'input' | 'output';
}

export type OperandRole = 'input' | 'output' | 'scratch';

export interface OperandUse {
  readonly buffer: TracedBuffer;
  readonly func: string;
  readonly target: string;
  readonly operator: OperatorRecord;
  readonly role: OperandRole;
  readonly index: number;
}

export interface TargetAccess {
  readonly buffer: TracedBuffer;
  readonly func: string;
  readonly target: string;
  /**
   * The function's body stores into the buffer, whatever its operator records say: a strategy
   * that writes an operand it is recorded as only reading still needs read-write access.
   */
  readonly stores?: boolean;
}

export interface OperandTrace {
  readonly buffers: readonly TracedBuffer[];
  readonly accesses: readonly TargetAccess[];
  readonly operands: readonly OperandUse[];
}


function staticBytes(s: Allocate | AllocateConst): number | undefined {
  let n = dtypeBytes(s.dtype);
  for (const e of s.extents) {
    if (e.kind !== 'IntImm') return undefined;
    n *= e.value;
  }
  return n;
}

function calleeName(e: Expr): string | undefined {
  if (e.kind !== 'Call') return undefined;
  if (e.op !== 'tir.call_extern' && e.op !== 'tir.tvm_call_cpacked') return undefined;
  const first = e.args[0];
  return first && first.kind === 'StringImm' ? first.value : undefined;
}

/** The allocates a function owns, the var ids its body reads or writes through, and those it stores to. */
function scanFunction(f: PrimFunc): {
  allocs: (Allocate | AllocateConst)[];
  used: Set<number>;
  stored: Set<number>;
  calls: { callee: string; args: readonly Expr[] }[];
} {
  const allocs: (Allocate | AllocateConst)[] = [];
  const used = new Set<number>();
  const stored = new Set<number>();
  const calls: { callee: string; args: readonly Expr[] }[] = [];
  class Scanner extends StmtExprVisitor {
    // The binding site itself is not a use: its fields are not visited (its body is, next).
    override visitAllocate(s: Allocate): void {
      allocs.push(s);
    }
    override visitAllocateConst(s: AllocateConst): void {
      allocs.push(s);
    }
    override visitVar(v: Var): void {
      used.add(v.id);
    }
    override visitBufferStore(s: BufferStore): void {
      stored.add(s.buffer.data.id);
      super.visitBufferStore(s);
    }
    override visitExpr(e: Expr): void {
      const callee = calleeName(e);
      if (callee !== undefined) calls.push({ callee, args: (e as { args: readonly Expr[] }).args.slice(1) });
      super.visitExpr(e);
    }
  }
  new Scanner().visitStmt(f.body);
  return { allocs, used, stored, calls };
}

function isPlannable(s: Allocate | AllocateConst): boolean {
  return s.kind === 'AllocateConst' || s.storageScope === 'global';
}

export function traceOperands(module: TirModule): OperandTrace {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (!main) return { buffers: [], accesses: [], operands: [] };

  const buffers = new Map<string, TracedBuffer>();
  const accesses = new Map<string, TargetAccess>();
  const operands: OperandUse[] = [];
  const scans = new Map<string, ReturnType<typeof scanFunction>>();
  const scanOf = (name: string, f: PrimFunc): ReturnType<typeof scanFunction> => {
    let s = scans.get(name);
    if (!s) {
      s = scanFunction(f);
      scans.set(name, s);
    }
    return s;
  };

  const ownBuffer = (func: string, s: Allocate | AllocateConst): TracedBuffer => {
    const key = `${func}/${s.bufferVar.id}`;
    let b = buffers.get(key);
    if (!b) {
      const tensor = s.annotations['uma.tensor'];
      const aliases = s.annotations['uma.tensor_aliases'];
      const io = s.annotations[ANN_INPUT_TENSOR] !== undefined ? 'input' : s.annotations[ANN_OUTPUT_TENSOR] !== undefined ? 'output' : undefined;
      b = {
        key,
        name: s.bufferVar.name,
        func,
        origin: s.kind === 'AllocateConst' ? 'constant' : 'allocate',
        varId: s.bufferVar.id,
        sizeBytes: staticBytes(s),
        ...(typeof tensor === 'string' ? { tensor } : {}),
        ...(Array.isArray(aliases) ? { aliases: aliases.map(String) } : {}),
        ...(io !== undefined ? { io } : {}),
      };
      buffers.set(key, b);
    }
    return b;
  };

  const mainEnv = new Map<number, TracedBuffer>();
  const paramTensors = main.attrs[ATTR_PARAM_TENSORS];
  main.params.forEach((p, i) => {
    const key = `${MAIN_PRIM_FUNC}/${p.id}`;
    const tensor = Array.isArray(paramTensors) ? paramTensors[i] : undefined;
    const io: TracedBuffer = { key, name: p.name, func: MAIN_PRIM_FUNC, origin: 'io', varId: p.id, ...(tensor !== undefined ? { tensor } : {}) };
    buffers.set(key, io);
    mainEnv.set(p.id, io);
  });

  // Depth guard: a call cycle between PrimFuncs is a malformed module, not a reason to hang.
  const visit = (name: string, env: ReadonlyMap<number, TracedBuffer>, depth: number): void => {
    const f = module.functions.get(name);
    if (!f || depth > 64) return;
    const target = name === MAIN_PRIM_FUNC ? HOST_TARGET : (f.attrs.target ?? HOST_TARGET);
    const scan = scanOf(name, f);
    const scope = new Map(env);
    for (const s of scan.allocs) if (isPlannable(s)) scope.set(s.bufferVar.id, ownBuffer(name, s));

    // Main only passes pointers around; the functions it calls are what touch the data.
    if (name !== MAIN_PRIM_FUNC) {
      for (const [varId, buffer] of scope) {
        if (!scan.used.has(varId)) continue;
        accesses.set(`${buffer.key}|${name}`, { buffer, func: name, target, ...(scan.stored.has(varId) ? { stores: true } : {}) });
      }
    }

    const byName = new Map<string, TracedBuffer>();
    for (const p of f.params) {
      const b = scope.get(p.id);
      if (b) byName.set(p.name, b);
    }
    for (const s of scan.allocs) {
      const b = scope.get(s.bufferVar.id);
      if (b) byName.set(s.bufferVar.name, b);
    }
    for (const record of readOperatorRecords(f)) {
      const add = (role: OperandRole, names: readonly string[]): void => {
        names.forEach((n, index) => {
          const buffer = byName.get(n);
          if (buffer) operands.push({ buffer, func: name, target: record.target, operator: record, role, index });
        });
      };
      add('input', record.inputs);
      add('output', record.outputs);
      add('scratch', record.scratch);
    }

    for (const c of scan.calls) {
      const callee = module.functions.get(c.callee);
      if (!callee) continue;
      const calleeEnv = new Map<number, TracedBuffer>();
      callee.params.forEach((p, i) => {
        const a = c.args[i];
        if (a && a.kind === 'Var') {
          const b = scope.get(a.id);
          if (b) calleeEnv.set(p.id, b);
        }
      });
      visit(c.callee, calleeEnv, depth + 1);
    }
  };
  visit(MAIN_PRIM_FUNC, mainEnv, 0);

  return { buffers: [...buffers.values()], accesses: [...accesses.values()], operands };
}
