/**
 * After planning and the offset rewrite: every pointer a function of target T uses must lie
 * in a pool T can reach, and every buffer the pinning pass constrained must have landed in
 * one of its candidate pools. This checks the program, not the plan, so it also catches a
 * planner or rewrite bug that the plan verifier cannot see.
 */
import { PlanVerificationError } from '../../src/errors';
import { Expr, LetStmt, MAIN_PRIM_FUNC, PrimFunc, Stmt, TirModule, Var } from '../../src/ir/tir/nodes';
import { StmtExprVisitor } from '../../src/ir/tir/visitor';
import { readOperatorRecords } from '../../src/ir/tir/operators';
import { HOST_TARGET } from '../../src/lower/strategy';
import { PoolInfo } from '../../src/usmp/types';
import { PinningSolution } from './solve';

export interface AccessViolation {
  readonly func: string;
  readonly target: string;
  readonly buffer: string;
  readonly pool: string;
  /** The target may read this pool but the function writes the buffer. */
  readonly readOnly?: boolean;
}

export interface PostPlanReport {
  readonly violations: readonly AccessViolation[];
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

export function checkPoolAccess(
  module: TirModule,
  pools: readonly PoolInfo[],
  solution?: PinningSolution,
): PostPlanReport {
  const poolByParamName = new Map(pools.map((p) => [`${p.name}_var`, p]));
  const poolByName = new Map(pools.map((p) => [p.name, p]));
  const violations = new Map<string, AccessViolation>();
  const placement = new Map<string, string>();

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
    class Walker extends StmtExprVisitor {
      override visitLetStmt(s: LetStmt): void {
        const v = s.value;
        if (v.kind === 'Call' && v.op === POOL_PTR && v.args[0]?.kind === 'Var') {
          const pool = scope.get(v.args[0].id);
          if (pool) {
            scope.set(s.var.id, pool);
            placement.set(`${name}/${s.var.id}`, pool);
          }
          this.visitStmt(s.body);
          return;
        }
        super.visitLetStmt(s);
      }
      override visitExpr(e: Expr): void {
        const callee = calleeOf(e);
        if (callee !== undefined && module.functions.has(callee)) {
          calls.push({ callee, args: (e as { args: readonly Expr[] }).args.slice(1) });
        }
        super.visitExpr(e);
      }
      override visitVar(v: Var): void {
        used.push(v);
      }
      override visitStmt(s: Stmt): void {
        super.visitStmt(s);
      }
    }
    new Walker().visitStmt(f.body);

    if (name !== MAIN_PRIM_FUNC) {
      // Operands an operator writes (outputs, scratch) need read-write access; the rest
      // need some access.
      const written = new Set(readOperatorRecords(f).flatMap((r) => [...r.outputs, ...r.scratch]));
      for (const v of used) {
        if (poolParams.has(v.id)) continue;
        const poolName = scope.get(v.id);
        const pool = poolName ? poolByName.get(poolName) : undefined;
        if (!pool) continue;
        const access = pool.targetAccess[target];
        const writes = written.has(v.name);
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
  return { violations: [...violations.values()], misplaced, placement };
}

export function describeViolation(v: AccessViolation): string {
  return v.readOnly
    ? `${v.func} (target ${v.target}) writes '${v.buffer}' in pool '${v.pool}', which ${v.target} cannot write`
    : `${v.func} (target ${v.target}) uses '${v.buffer}' in pool '${v.pool}', which ${v.target} cannot access`;
}

export function describeMisplaced(m: PostPlanReport['misplaced'][number]): string {
  return `'${m.buffer}' (${m.func}) was placed in '${m.pool}' but is constrained to {${m.allowed.join(', ')}}`;
}

/** Throws when the planned program breaks an access rule; the message lists every breach. */
export function assertPoolAccess(module: TirModule, pools: readonly PoolInfo[], solution?: PinningSolution): PostPlanReport {
  const report = checkPoolAccess(module, pools, solution);
  const lines = [...report.violations.map(describeViolation), ...report.misplaced.map(describeMisplaced)];
  if (lines.length > 0) {
    // The pinning pass guaranteed a legal placement: a breach is a compiler bug, not output.
    throw new PlanVerificationError(`planned program breaks pool access rules:\n  ${lines.join('\n  ')}`);
  }
  return report;
}
