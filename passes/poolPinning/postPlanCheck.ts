/**
 * After planning and the offset rewrite: every pointer a function of target T uses must lie
 * in a pool T can reach, and every buffer the pinning pass constrained must have landed in
 * one of its candidate pools. This checks the program, not the plan, so it also catches a
 * planner or rewrite bug that the plan verifier cannot see.
 *
 * Without pool pinning nothing enforced the backends' operand constraints before planning,
 * so the check can also be given them: every operand of every offloaded operator is then
 * checked against the pools its constraint allows (a pool the constraint names but no pool
 * config defines allows nothing).
 */
import { PlanVerificationError } from '../../src/errors';
import { Allocate, AllocateConst, BufferStore, Expr, LetStmt, MAIN_PRIM_FUNC, PrimFunc, Stmt, TirModule, Var } from '../../src/ir/tir/nodes';
import { StmtExprVisitor } from '../../src/ir/tir/visitor';
import { readOperatorRecords } from '../../src/ir/tir/operators';
import { pointedBuffer } from '../../src/ir/tir/analysis';
import { HOST_TARGET } from '../../src/lower/strategy';
import { PoolInfo } from '../../src/usmp/types';
import { OperandPin } from './constraints';
import { describeOperator, operatorMatches, PinningSolution, selectorMatches } from './solve';
import { OperandRole } from './traceOperands';

export interface AccessViolation {
  readonly func: string;
  readonly target: string;
  readonly buffer: string;
  readonly pool: string;
  /** The target may read this pool but the function writes the buffer. */
  readonly readOnly?: boolean;
}

/** An operand of an offloaded operator placed outside the pools its operand constraint allows. */
export interface OperandViolation {
  readonly func: string;
  readonly target: string;
  /** The operator as errors name it: `dma_local.dma_in 'x'`. */
  readonly operator: string;
  readonly role: OperandRole;
  readonly index: number;
  /** The function's name for the operand's buffer. */
  readonly buffer: string;
  readonly pool: string;
  /** Who declared the constraint (`backend accel`). */
  readonly source: string;
  readonly allowed: readonly string[];
  /** Pools of `allowed` that the pools config does not define. */
  readonly undefinedPools?: readonly string[];
}

/**
 * A buffer the planner left out of every pool (a `local` array, a constant without a constant
 * pool, ...) handed by an offloaded function to one of its target's kernels: the device would
 * read or write memory that is in no pool at all, typically the host CPU's stack.
 */
export interface UnpooledKernelArg {
  readonly func: string;
  readonly target: string;
  readonly kernel: string;
  readonly buffer: string;
  /** What the buffer is instead: `a 'local' array`, `a constant array`. */
  readonly what: string;
}

export interface PostPlanReport {
  readonly violations: readonly AccessViolation[];
  /** Kernel arguments of offloaded functions that lie in no pool (`UnpooledKernelArg`). */
  readonly unpooled: readonly UnpooledKernelArg[];
  /** Only when the check was given operand constraints (pool pinning off). */
  readonly operandViolations?: readonly OperandViolation[];
  readonly misplaced: readonly { buffer: string; func: string; pool: string; allowed: readonly string[] }[];
  /** Pool each buffer var ended up in, by `<func>/<var id>`. */
  readonly placement: ReadonlyMap<string, string>;
}

const POOL_PTR = 'tir.pool_ptr';

function calleeOf(e: Expr): string | undefined {
  if (e.kind !== 'Call' || (e.op !== 'tir.call_extern' && e.op !== 'tir.tvm_call_cpacked')) return undefined;
  const a = e.args[0];
  return a && a.kind === 'StringImm' ? a.value : undefined;
}

/**
 * `operandConstraints`: also check every operand of every offloaded operator against these
 * (what the pinning pass would have enforced); with pinning on they are already enforced
 * through the candidate pools (`misplaced`).
 */
export function checkPoolAccess(
  module: TirModule,
  pools: readonly PoolInfo[],
  solution?: PinningSolution,
  operandConstraints?: readonly OperandPin[],
): PostPlanReport {
  const poolByParamName = new Map(pools.map((p) => [`${p.name}_var`, p]));
  const poolByName = new Map(pools.map((p) => [p.name, p]));
  const violations = new Map<string, AccessViolation>();
  const operandViolations = new Map<string, OperandViolation>();
  const placement = new Map<string, string>();
  const unpooled = new Map<string, UnpooledKernelArg>();

  const visit = (name: string, env: ReadonlyMap<number, string>, depth: number): void => {
    const f: PrimFunc | undefined = module.functions.get(name);
    if (!f || depth > 64) return;
    const target = name === MAIN_PRIM_FUNC ? HOST_TARGET : (f.attrs.target ?? HOST_TARGET);
    const scope = new Map(env);
    const poolParams = new Set<number>();
    for (const p of f.params) {
      const pool = poolByParamName.get(p.name);
      if (pool) {
        scope.set(p.id, pool.name);
        poolParams.add(p.id);
      }
    }
    const calls: { callee: string; args: readonly Expr[] }[] = [];
    const used: Var[] = [];
    // Allocates the offset rewrite left in place: they are in no pool (C locals, const arrays).
    const unplanned = new Map<number, string>();
    // What the body stores into, whatever the operator records say it only reads.
    const stored = new Set<number>();
    const kernelArgs: { kernel: string; args: readonly Expr[] }[] = [];
    class Walker extends StmtExprVisitor {
      override visitBufferStore(s: BufferStore): void {
        stored.add(s.buffer.data.id);
        super.visitBufferStore(s);
      }
      override visitAllocate(s: Allocate): void {
        unplanned.set(s.bufferVar.id, `a '${s.storageScope}' array`);
        super.visitAllocate(s);
      }
      override visitAllocateConst(s: AllocateConst): void {
        unplanned.set(s.bufferVar.id, 'a constant array');
        super.visitAllocateConst(s);
      }
      override visitLetStmt(s: LetStmt): void {
        const v = s.value;
        if (v.kind === 'Call' && v.op === POOL_PTR && v.args[0]?.kind === 'Var') {
          const pool = scope.get(v.args[0].id);
          if (pool) {
            scope.set(s.var.id, pool);
            placement.set(`${name}/${s.var.id}`, pool);
          }
          // The pool var in the pool_ptr is not a use; the body is visited next.
          return;
        }
        super.visitLetStmt(s);
      }
      override visitExpr(e: Expr): void {
        const callee = calleeOf(e);
        if (callee !== undefined && module.functions.has(callee)) {
          calls.push({ callee, args: (e as { args: readonly Expr[] }).args.slice(1) });
        } else if (callee !== undefined) {
          kernelArgs.push({ kernel: callee, args: (e as { args: readonly Expr[] }).args.slice(1) });
        }
        super.visitExpr(e);
      }
      override visitVar(v: Var): void {
        used.push(v);
      }
    }
    new Walker().visitStmt(f.body);

    if (target !== HOST_TARGET) {
      // The device reaches memory through the pointers its kernels get: one into an unplanned
      // buffer (the host's stack, say) escapes every pool, and no pool check can see it.
      for (const k of kernelArgs) {
        for (const a of k.args) {
          // Only the unplanned allocates' buffer vars are looked up: a scalar var never matches.
          const v = pointedBuffer(a);
          const what = v === undefined ? undefined : unplanned.get(v.id);
          if (v === undefined || what === undefined) continue;
          unpooled.set(`${name}|${k.kernel}|${v.name}`, { func: name, target, kernel: k.kernel, buffer: v.name, what });
        }
      }
    }
    if (name !== MAIN_PRIM_FUNC) {
      // Operands an operator writes (outputs, scratch) need read-write access; the rest
      // need some access.
      const records = readOperatorRecords(f);
      const written = new Set(records.flatMap((r) => [...r.outputs, ...r.scratch]));
      for (const v of used) {
        if (poolParams.has(v.id)) continue;
        const poolName = scope.get(v.id);
        const pool = poolName ? poolByName.get(poolName) : undefined;
        if (!pool) continue;
        const access = pool.targetAccess[target];
        const writes = written.has(v.name) || stored.has(v.id);
        if (access === undefined || (writes && access !== 'rw')) {
          violations.set(`${name}|${v.name}`, {
            func: name,
            target,
            buffer: v.name,
            pool: pool.name,
            ...(access === 'ro' ? { readOnly: true } : {}),
          });
        }
      }
      if (operandConstraints !== undefined && operandConstraints.length > 0) {
        // Operator records name operands by the function's var names.
        const poolOfName = new Map<string, string>();
        for (const v of [...f.params, ...used]) {
          const pool = scope.get(v.id);
          if (pool !== undefined && !poolParams.has(v.id)) poolOfName.set(v.name, pool);
        }
        for (const record of records) {
          const roles: [OperandRole, readonly string[]][] = [
            ['input', record.inputs],
            ['output', record.outputs],
            ['scratch', record.scratch],
          ];
          for (const [role, names] of roles) {
            names.forEach((buffer, index) => {
              const pool = poolOfName.get(buffer);
              // Unknown placement (application-owned I/O): nothing to check against.
              if (pool === undefined) return;
              // A pool the target cannot reach is reported above, and it is the access that faults first.
              if (violations.has(`${name}|${buffer}`)) return;
              const use = { role, index };
              for (const c of operandConstraints) {
                if (!operatorMatches(c, record) || !selectorMatches(c, use) || c.pools.includes(pool)) continue;
                const undefinedPools = c.pools.filter((p) => !poolByName.has(p));
                operandViolations.set(`${name}|${record.name}|${role}|${index}|${c.source}`, {
                  func: name,
                  target: record.target,
                  operator: describeOperator(record),
                  role,
                  index,
                  buffer,
                  pool,
                  source: c.source,
                  allowed: c.pools,
                  ...(undefinedPools.length > 0 ? { undefinedPools } : {}),
                });
              }
            });
          }
        }
      }
    }
    for (const c of calls) {
      const callee = module.functions.get(c.callee)!;
      const calleeEnv = new Map<number, string>();
      callee.params.forEach((p, i) => {
        const a = c.args[i];
        if (a && a.kind === 'Var' && scope.has(a.id)) calleeEnv.set(p.id, scope.get(a.id)!);
      });
      visit(c.callee, calleeEnv, depth + 1);
    }
  };
  visit(MAIN_PRIM_FUNC, new Map(), 0);

  const misplaced: PostPlanReport['misplaced'][number][] = [];
  for (const d of solution?.decisions ?? []) {
    const pool = placement.get(d.buffer.key);
    if (pool !== undefined && !d.candidates.includes(pool)) {
      misplaced.push({ buffer: d.buffer.name, func: d.buffer.func, pool, allowed: d.candidates });
    }
  }
  return {
    violations: [...violations.values()],
    unpooled: [...unpooled.values()],
    ...(operandConstraints !== undefined ? { operandViolations: [...operandViolations.values()] } : {}),
    misplaced,
    placement,
  };
}


export function describeUnpooled(u: UnpooledKernelArg): string {
  return (
    `${u.func} (target ${u.target}) passes '${u.buffer}' to kernel '${u.kernel}', but '${u.buffer}' is ${u.what} of ${u.func}, ` +
    `in no memory pool, so ${u.target} cannot reach it (allocate it with global scope: the planner then puts it in a pool ${u.target} reaches)`
  );
}

export function describeViolation(v: AccessViolation): string {
  return v.readOnly
    ? `${v.func} (target ${v.target}) writes '${v.buffer}' in pool '${v.pool}', which ${v.target} cannot write`
    : `${v.func} (target ${v.target}) uses '${v.buffer}' in pool '${v.pool}', which ${v.target} cannot access`;
}

/**
 * The facts a pool-checking runtime's trap gives for the same access (operand, the pool it
 * lies in, the pools its constraint allows), said before the program runs.
 */
export function describeOperandViolation(v: OperandViolation): string {
  const missing = v.undefinedPools ?? [];
  const undefinedNote =
    missing.length === 0
      ? ''
      : ` (${missing.map((p) => `'${p}'`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not defined by the pools config)`;
  return (
    `${v.func} (target ${v.target}): ${v.role} ${v.index} of ${v.operator} ('${v.buffer}') lies in pool '${v.pool}', ` +
    `its operand constraint (${v.source}) allows {${v.allowed.join(', ')}}${undefinedNote}; the program will fault at this access`
  );
}

export function describeMisplaced(m: PostPlanReport['misplaced'][number]): string {
  return `'${m.buffer}' (${m.func}) was placed in '${m.pool}' but is constrained to {${m.allowed.join(', ')}}`;
}

/** Throws when the planned program breaks an access rule; the message lists every breach. */
export function assertPoolAccess(module: TirModule, pools: readonly PoolInfo[], solution?: PinningSolution): PostPlanReport {
  const report = checkPoolAccess(module, pools, solution);
  const lines = [...report.violations.map(describeViolation), ...report.unpooled.map(describeUnpooled), ...report.misplaced.map(describeMisplaced)];
  if (lines.length > 0) {
    // The pinning pass guaranteed a legal placement: a breach is a compiler bug, not output;
    // except `unpooled`, which no placement can fix: the backend hands its kernel a buffer it
    // kept out of planning.
    throw new PlanVerificationError(`planned program breaks pool access rules:\n  ${lines.join('\n  ')}`);
  }
  return report;
}
