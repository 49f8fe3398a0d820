/**
 * A backend's memory declaration: the pools its target can reach and where the operands of
 * its operators may live. The pool-pinning pass reads these through the registry; this
 * module only validates and stores them.
 */
import { RegistrationError } from '../errors';
import { globMatches } from '../util/glob';
import { PoolAccess } from '../usmp/types';
import { checkMemoryDecl } from './schemaValidation';

export interface PoolAccessDecl {
  readonly pool: string;
  readonly access: PoolAccess;
}

/** Candidate pools (preference order) per operand index; keys are 0-based operand indices. */
export type OperandPools = Readonly<Record<number, readonly string[]>>;

/**
 * Where the operands of one operator may live. `op` is an operator (`conv2d`), a composite
 * (`accel.conv2d`) or a backend-internal buffer name (`accel.accel_input_fetcher`).
 * An index listed in `inputs`/`outputs` takes precedence over `allInputs`/`allOutputs`.
 */
export interface OperandConstraint {
  readonly op: string;
  readonly inputs?: OperandPools;
  readonly outputs?: OperandPools;
  /** Pools for the operator's internal scratch allocations. */
  readonly scratch?: readonly string[];
  readonly allInputs?: readonly string[];
  readonly allOutputs?: readonly string[];
  /**
   * Positions in `inputs` an instance may lack (a convolution's optional bias): the constraint
   * holds where the input exists. Otherwise a model whose instances all lack a constrained
   * input is an error, as the constraint could never hold anything (a mistyped index).
   */
  readonly optionalInputs?: readonly number[];
}

export interface MemoryDecl {
  readonly pools: readonly PoolAccessDecl[];
  readonly operandConstraints: readonly OperandConstraint[];
}

function writtenPools(c: OperandConstraint): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, pools] of Object.entries(c.outputs ?? {})) for (const p of pools) out.push([`output ${k}`, p]);
  for (const p of c.allOutputs ?? []) out.push(['allOutputs', p]);
  for (const p of c.scratch ?? []) out.push(['scratch', p]);
  return out;
}

function allPools(c: OperandConstraint): Array<[string, string]> {
  const out = writtenPools(c);
  for (const [k, pools] of Object.entries(c.inputs ?? {})) for (const p of pools) out.push([`input ${k}`, p]);
  for (const p of c.allInputs ?? []) out.push(['allInputs', p]);
  return out;
}

/**
 * Checks a memory declaration against `schemas/operand-constraints.schema.json`, then that
 * every constrained pool is one the target declared, that written operands are not placed
 * in read-only pools, and that no operator is constrained twice.
 */
export function validateMemoryDecl(target: string, decl: unknown): MemoryDecl {
  const problem = checkMemoryDecl(decl);
  if (problem !== undefined) {
    throw new RegistrationError(
      `target '${target}': memory declaration ${problem.jsonPath}: ${problem.message}`,
      { target, jsonPath: problem.jsonPath },
    );
  }
  const mem = decl as MemoryDecl;
  const access = new Map<string, PoolAccess>();
  mem.pools.forEach((p, i) => {
    if (access.has(p.pool)) {
      throw new RegistrationError(`target '${target}': pool '${p.pool}' is declared twice`, {
        target,
        pool: p.pool,
        jsonPath: `/pools/${i}`,
      });
    }
    access.set(p.pool, p.access);
  });
  const seenOps = new Set<string>();
  mem.operandConstraints.forEach((c, i) => {
    const jsonPath = `/operandConstraints/${i}`;
    if (seenOps.has(c.op)) {
      throw new RegistrationError(`target '${target}': operand constraints for '${c.op}' are given twice`, {
        target,
        op: c.op,
        jsonPath,
      });
    }
    seenOps.add(c.op);
    for (const [where, pool] of allPools(c)) {
      if (!access.has(pool)) {
        throw new RegistrationError(
          `target '${target}': operand constraint for '${c.op}' (${where}) names pool '${pool}', which the target does not declare`,
          { target, op: c.op, pool, jsonPath },
        );
      }
    }
    for (const k of c.optionalInputs ?? []) {
      if (c.inputs?.[k] === undefined) {
        throw new RegistrationError(
          `target '${target}': operand constraint for '${c.op}' lists input ${k} as optional, but constrains no input ${k}`,
          { target, op: c.op, jsonPath: `${jsonPath}/optionalInputs` },
        );
      }
    }
    for (const [where, pool] of writtenPools(c)) {
      if (access.get(pool) === 'ro') {
        throw new RegistrationError(
          `target '${target}': operand constraint for '${c.op}' (${where}) is written but pool '${pool}' is read-only for the target`,
          { target, op: c.op, pool, jsonPath },
        );
      }
    }
  });
  return mem;
}

/**
 * Every operand constraint must name something the target offloads: a composite
 * `<target>.<pattern>`, an operator it registers as supported, or an operator/composite it
 * has a strategy for (`op` may be a `*` glob over these). A misspelt name would otherwise
 * match nothing, and the operands would silently land in pools the hardware cannot reach.
 */
export function checkConstrainedOps(
  target: string,
  decl: MemoryDecl,
  offloaded: readonly string[],
  /** Operator -> the composites that hold it and are lowered whole by their own strategy. */
  insideComposites: ReadonlyMap<string, readonly string[]> = new Map(),
): void {
  decl.operandConstraints.forEach((c, i) => {
    if (offloaded.some((name) => globMatches(c.op, name))) return;
    const close = offloaded.filter((name) => name.toLowerCase() === c.op.toLowerCase());
    // The operator is offloaded, but only within composites whose strategy lowers them as one
    // unit: the operands there are the composite's, so the constraint must name the composite.
    const holders = insideComposites.get(c.op) ?? [];
    const why =
      holders.length > 0
        ? `, which the target runs only inside ${holders.map((h) => `'${h}'`).join(', ')}, lowered whole by ${holders.length === 1 ? 'its' : 'their'} composite strategy: constrain ${holders.map((h) => `'${h}'`).join(' or ')} instead`
        : `, which the target never offloads${close.length > 0 ? ` (did you mean '${close[0]}'?)` : ''}`;
    throw new RegistrationError(
      `target '${target}': operand constraint /operandConstraints/${i} names '${c.op}'${why}; known: ${offloaded.join(', ') || 'none'}`,
      { target, op: c.op, jsonPath: `/operandConstraints/${i}` },
    );
  });
}
