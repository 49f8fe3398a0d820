/**
 * What every later stage assumes of a TIR module, checked where the module comes out of user
 * code (a backend's strategies, each TIR pass), so a mistake is named where it was made instead
 * of surfacing as a wrong plan, a C build error or a crash of the generated program:
 * - the nodes are TIR nodes (nodeShape.ts);
 * - every variable used is defined around its use, no parameter is listed twice;
 * - every call of a module function passes as many arguments as it takes, and no pass removes a
 *   function that is still called;
 * - every buffer access that always runs (not under a condition) with an index affine in loop
 *   variables of constant bounds stays within its allocation: a pass that shrinks an allocate
 *   but not the loops writing it made a plan whose buffers overlap;
 * - no function writes a constant passed to it;
 * - no allocation is larger than a 32-bit target can address.
 * Accesses the analysis cannot bound (data-dependent indices, guarded padding reads) are left
 * alone: no false alarms, not a proof.
 */
import { dtypeBytes } from './dtype';
import { primFuncShapeProblem } from './nodeShape';
import { Buffer, Expr, PrimFunc, ScalarDType, Stmt, TirModule, Var } from './nodes';
import { isScopeStmt, ScopeStmt } from './scope';

/** Bytes one allocation may hold: the largest array a 32-bit target's C compiler accepts. */
export const MAX_ALLOCATION_BYTES = 2 ** 31 - 1;

export interface TirProblem {
  /** The function the problem is in. */
  readonly func: string;
  readonly message: string;
}

const CALL_OPS: ReadonlySet<string> = new Set(['tir.call_extern', 'tir.tvm_call_cpacked']);

/** c0 + sum of coefficient * variable, over variable ids. */
interface Linear {
  readonly constant: number;
  readonly terms: ReadonlyMap<number, number>;
}

const constantForm = (k: number): Linear => ({ constant: k, terms: new Map() });

function combine(a: Linear, b: Linear, sign: number): Linear {
  const terms = new Map(a.terms);
  for (const [id, c] of b.terms) terms.set(id, (terms.get(id) ?? 0) + sign * c);
  return { constant: a.constant + sign * b.constant, terms };
}

function scaled(a: Linear, k: number): Linear {
  return { constant: a.constant * k, terms: new Map([...a.terms].map(([id, c]) => [id, c * k])) };
}

interface Allocation {
  readonly name: string;
  readonly bytes: number;
}

interface CallSite {
  readonly callee: string;
  readonly args: readonly Expr[];
}

class ProblemFound {
  constructor(readonly message: string) {}
}

const shown = (v: Var) => `${v.name} (#${v.id})`;

/** One function's scopes, calls, accesses and allocations. */
class FunctionChecker {
  private readonly inScope = new Set<number>();
  /** Loop variables with constant bounds: [first, last]. */
  private readonly ranges = new Map<number, readonly [number, number]>();
  /** Let-bound variables whose value is affine. */
  private readonly lets = new Map<number, Linear>();
  private readonly allocations = new Map<number, Allocation>();
  /** Parameters with a buffer of constant size, by index. */
  readonly paramBuffers = new Map<number, Allocation>();
  /** Handle vars bound to constants (AllocateConst). */
  readonly constants = new Set<number>();
  /** Indices of parameters the function stores into. */
  readonly writtenParams = new Set<number>();
  readonly calls: CallSite[] = [];
  /** Depth of conditions (if/else branches, lazily evaluated operands) around the walk. */
  private guarded = 0;
  /** Depth of loops that never run (a constant extent of zero or less). */
  private dead = 0;
  private readonly paramIndex = new Map<number, number>();

  constructor(private readonly func: PrimFunc) {}

  run(): string | undefined {
    try {
      this.check();
      return undefined;
    } catch (e) {
      if (e instanceof ProblemFound) return e.message;
      throw e;
    }
  }

  private fail(message: string): never {
    throw new ProblemFound(message);
  }

  private check(): void {
    const f = this.func;
    f.params.forEach((p, i) => {
      if (this.inScope.has(p.id)) this.fail(`parameter ${shown(p)} is listed twice`);
      this.inScope.add(p.id);
      this.paramIndex.set(p.id, i);
    });
    for (const [v, b] of f.bufferMap) {
      if (!this.inScope.has(v.id)) this.fail(`the buffer map names ${shown(v)}, which is not a parameter`);
      this.buffer(b);
      const bytes = this.constantBytes(b.shape, b.dtype);
      if (bytes === undefined) continue;
      const buffer = { name: b.name, bytes: bytes + b.elemOffset * dtypeBytes(b.dtype) };
      this.allocations.set(b.data.id, buffer);
      this.paramBuffers.set(this.paramIndex.get(v.id)!, buffer);
    }
    this.stmt(f.body);
  }

  /** The allocation a handle var of the function is bound to, when its size is constant. */
  allocationOf(id: number): Allocation | undefined {
    return this.allocations.get(id);
  }

  private use(v: Var): void {
    if (!this.inScope.has(v.id)) this.fail(`variable ${shown(v)} is used outside its definition`);
  }

  private scoped(v: Var, body: () => void): void {
    const outer = this.inScope.has(v.id);
    this.inScope.add(v.id);
    body();
    if (!outer) this.inScope.delete(v.id);
  }

  private buffer(b: Buffer): void {
    this.use(b.data);
    for (const d of b.shape) this.expr(d);
  }

  /** Bytes of `extents` elements of `dtype` when every extent is a constant. */
  private constantBytes(extents: readonly Expr[], dtype: ScalarDType): number | undefined {
    let elements = 1;
    for (const e of extents) {
      if (e.kind !== 'IntImm') return undefined;
      elements *= e.value;
    }
    return elements * dtypeBytes(dtype);
  }

  private allocation(v: Var, dtype: ScalarDType, extents: readonly Expr[]): void {
    const bytes = this.constantBytes(extents, dtype);
    if (bytes === undefined) return;
    if (bytes > MAX_ALLOCATION_BYTES) {
      this.fail(`allocation ${shown(v)} holds ${bytes} bytes, more than the ${MAX_ALLOCATION_BYTES} one array may hold on a 32-bit target`);
    }
    this.allocations.set(v.id, { name: v.name, bytes });
  }

  /** Binds `v` for what follows; the returned function unbinds it (unless it was bound outside). */
  private enter(v: Var): () => void {
    const outer = this.inScope.has(v.id);
    this.inScope.add(v.id);
    return () => {
      if (!outer) this.inScope.delete(v.id);
    };
  }

  /** Checks a scope statement's own fields and binds what it declares; returns what undoes that after its body. */
  private scope(s: ScopeStmt): () => void {
    switch (s.kind) {
      case 'Allocate': {
        for (const e of s.extents) this.expr(e);
        this.allocation(s.bufferVar, s.dtype, s.extents);
        const exit = this.enter(s.bufferVar);
        this.expr(s.condition);
        return exit;
      }
      case 'AllocateConst':
        for (const e of s.extents) this.expr(e);
        this.allocation(s.bufferVar, s.dtype, s.extents);
        this.constants.add(s.bufferVar.id);
        return this.enter(s.bufferVar);
      case 'DeclBuffer':
        this.buffer(s.buffer);
        return () => {};
      case 'LetStmt': {
        this.expr(s.value);
        const form = this.linear(s.value);
        if (form) this.lets.set(s.var.id, form);
        const exit = this.enter(s.var);
        return () => {
          exit();
          this.lets.delete(s.var.id);
        };
      }
    }
  }

  private stmt(s: Stmt): void {
    // A chain of scopes (main has one per tensor, thousands deep) is walked with a loop.
    const exits: (() => void)[] = [];
    let cur = s;
    while (isScopeStmt(cur)) {
      exits.push(this.scope(cur));
      cur = cur.body;
    }
    this.unscoped(cur);
    for (let i = exits.length - 1; i >= 0; i--) exits[i]();
  }

  private unscoped(s: Exclude<Stmt, ScopeStmt>): void {
    switch (s.kind) {
      case 'For': {
        this.expr(s.min);
        this.expr(s.extent);
        const constant = s.min.kind === 'IntImm' && s.extent.kind === 'IntImm';
        const never = s.extent.kind === 'IntImm' && s.extent.value <= 0;
        if (constant && !never) this.ranges.set(s.loopVar.id, [s.min.value, s.min.value + s.extent.value - 1]);
        if (never) this.dead++;
        this.scoped(s.loopVar, () => this.stmt(s.body));
        if (never) this.dead--;
        this.ranges.delete(s.loopVar.id);
        return;
      }
      case 'SeqStmt':
        for (const x of s.seq) this.stmt(x);
        return;
      case 'IfThenElse':
        this.expr(s.condition);
        this.guarded++;
        this.stmt(s.then);
        if (s.else) this.stmt(s.else);
        this.guarded--;
        return;
      case 'BufferStore': {
        this.buffer(s.buffer);
        this.expr(s.value);
        for (const i of s.indices) this.expr(i);
        const param = this.paramIndex.get(s.buffer.data.id);
        if (param !== undefined) this.writtenParams.add(param);
        if (this.constants.has(s.buffer.data.id)) this.fail(`stores into ${s.buffer.name}, a constant`);
        return this.access('stores to', s.buffer, s.indices);
      }
      case 'Evaluate':
        return this.expr(s.value);
    }
  }

  private expr(e: Expr): void {
    switch (e.kind) {
      case 'Var':
        return this.use(e);
      case 'IntImm':
      case 'FloatImm':
      case 'StringImm':
        return;
      case 'BinaryOp':
        this.expr(e.a);
        return this.expr(e.b);
      case 'Not':
        return this.expr(e.a);
      case 'Cast':
        return this.expr(e.value);
      case 'Select':
        this.expr(e.cond);
        this.guarded++;
        this.expr(e.t);
        this.expr(e.f);
        this.guarded--;
        return;
      case 'BufferLoad':
        this.buffer(e.buffer);
        for (const i of e.indices) this.expr(i);
        return this.access('loads from', e.buffer, e.indices);
      case 'Call': {
        const head = e.args[0];
        if (CALL_OPS.has(e.op) && head?.kind === 'StringImm') this.calls.push({ callee: head.value, args: e.args.slice(1) });
        // The operands of a lazy select, and an element whose address is taken (a pointer
        // handed on, which may point one past the end), are not accesses that always run.
        const lazy = e.op === 'tir.if_then_else' || e.op === 'tir.address_of';
        e.args.forEach((a, i) => {
          if (lazy && (e.op === 'tir.address_of' || i > 0)) this.guarded++;
          this.expr(a);
          if (lazy && (e.op === 'tir.address_of' || i > 0)) this.guarded--;
        });
        return;
      }
    }
  }

  /** An access that always runs, with a bounded flat index, must lie within its allocation. */
  private access(what: string, buffer: Buffer, indices: readonly Expr[]): void {
    if (this.guarded > 0 || this.dead > 0) return;
    const allocation = this.allocations.get(buffer.data.id);
    const elementBytes = dtypeBytes(buffer.dtype);
    if (allocation === undefined || elementBytes === 0) return;
    const flat = this.flatIndex(buffer, indices);
    const range = flat && this.rangeOf(flat);
    if (!range) return;
    const elements = Math.floor(allocation.bytes / elementBytes);
    if (range[0] < 0 || range[1] >= elements) {
      const at = range[0] === range[1] ? `element ${range[0]}` : `elements ${range[0]}..${range[1]}`;
      this.fail(`${what} ${buffer.name} at ${at}, outside the ${elements} ${buffer.dtype} elements of ${allocation.name}`);
    }
  }

  private flatIndex(buffer: Buffer, indices: readonly Expr[]): Linear | undefined {
    let flat = constantForm(buffer.elemOffset);
    if (indices.length === 1) {
      const only = this.linear(indices[0]);
      return only && combine(flat, only, 1);
    }
    if (indices.length !== buffer.shape.length) return undefined;
    let stride = 1;
    for (let d = indices.length - 1; d >= 0; d--) {
      const term = this.linear(indices[d]);
      if (!term) return undefined;
      flat = combine(flat, scaled(term, stride), 1);
      const dim = buffer.shape[d];
      if (dim.kind !== 'IntImm') return d === 0 ? flat : undefined;
      stride *= dim.value;
    }
    return flat;
  }

  private linear(e: Expr): Linear | undefined {
    switch (e.kind) {
      case 'IntImm':
        return constantForm(e.value);
      case 'Var':
        if (this.ranges.has(e.id)) return { constant: 0, terms: new Map([[e.id, 1]]) };
        return this.lets.get(e.id);
      case 'Cast':
        return this.linear(e.value);
      case 'BinaryOp': {
        if (e.op !== 'Add' && e.op !== 'Sub' && e.op !== 'Mul') return undefined;
        const a = this.linear(e.a);
        const b = a && this.linear(e.b);
        if (!a || !b) return undefined;
        if (e.op !== 'Mul') return combine(a, b, e.op === 'Add' ? 1 : -1);
        if (a.terms.size === 0) return scaled(b, a.constant);
        return b.terms.size === 0 ? scaled(a, b.constant) : undefined;
      }
      default:
        return undefined;
    }
  }

  /** The least and greatest value of `form` over the loops' ranges; exact, as each loop runs its whole range. */
  private rangeOf(form: Linear): readonly [number, number] | undefined {
    let lo = form.constant;
    let hi = form.constant;
    for (const [id, c] of form.terms) {
      if (c === 0) continue;
      const r = this.ranges.get(id);
      if (!r) return undefined;
      lo += c > 0 ? c * r[0] : c * r[1];
      hi += c > 0 ? c * r[1] : c * r[0];
    }
    return Number.isSafeInteger(lo) && Number.isSafeInteger(hi) ? [lo, hi] : undefined;
  }
}

/**
 * The first problem of `module`, or undefined. `before`, the module a pass was given, tells a
 * call to a function the pass removed from a call to an external C function.
 */
export function firstTirProblem(module: TirModule, before?: TirModule): TirProblem | undefined {
  for (const [name, f] of module.functions) {
    const shape = primFuncShapeProblem(f);
    if (shape) return { func: name, message: `${shape.path === '' ? 'the function' : shape.path} is ${shape.message}` };
  }
  const checked = new Map<string, FunctionChecker>();
  for (const [name, f] of module.functions) {
    const checker = new FunctionChecker(f);
    const message = checker.run();
    if (message) return { func: name, message };
    checked.set(name, checker);
  }
  for (const [name, checker] of checked) {
    for (const call of checker.calls) {
      const callee = module.functions.get(call.callee);
      if (callee === undefined) {
        if (before?.functions.has(call.callee)) return { func: name, message: `calls ${call.callee}, which is no longer in the module` };
        continue;
      }
      if (call.args.length !== callee.params.length) {
        return { func: name, message: `calls ${call.callee} with ${call.args.length} arguments; it takes ${callee.params.length}` };
      }
      const calleeChecker = checked.get(call.callee)!;
      for (const k of calleeChecker.writtenParams) {
        const arg = call.args[k];
        // The writer is the one to blame: it stores into what callers hand it as read-only.
        if (arg.kind === 'Var' && checker.constants.has(arg.id)) {
          return { func: call.callee, message: `stores into its parameter ${k}, to which ${name} passes the constant ${arg.name}` };
        }
      }
      for (const [k, param] of calleeChecker.paramBuffers) {
        const arg = call.args[k];
        const given = arg.kind === 'Var' ? checker.allocationOf(arg.id) : undefined;
        if (given && given.bytes < param.bytes) {
          return { func: name, message: `passes ${given.name} (${given.bytes} bytes) to ${call.callee}, whose parameter ${k} (${param.name}) is a buffer of ${param.bytes} bytes` };
        }
      }
    }
  }
  return undefined;
}
