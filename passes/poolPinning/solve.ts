/**
 * Intersects every constraint that applies to a buffer and keeps the reasons, so that
 * both the annotation pass and `explain-pools` tell the same story, and an empty
 * intersection becomes an error that names the buffer, each constraint and its pools.
 */
import { PoolConstraintError } from '../../src/errors';
import { PoolAccess, PoolInfo } from '../../src/usmp/types';
import { HOST_TARGET } from '../../src/lower/strategy';
import { OperatorRecord, operatorAliases } from '../../src/ir/tir/operators';
import { describeSelector, globMatches, OperandPin, PinningConstraints } from './constraints';
import { OperandRole, OperandTrace, OperandUse, TracedBuffer } from './traceOperands';

/** One constraint applied to one buffer: which pools it allowed. */
export interface ConstraintStep {
  readonly kind: 'pool-kind' | 'target-access' | 'operand' | 'pin';
  readonly description: string;
  readonly allowed: readonly string[];
  /** Operator the constraint came through, for fix suggestions. */
  readonly operator?: OperatorRecord;
  readonly role?: OperandRole;
  readonly target?: string;
  /** For `target-access` steps: the access the target needs (`rw` to write, `ro` to read). */
  readonly needs?: PoolAccess;
}

export interface BufferDecision {
  readonly buffer: TracedBuffer;
  readonly steps: readonly ConstraintStep[];
  /** Surviving pools in preference order. */
  readonly candidates: readonly string[];
  /** For each pool removed: the first step that removed it. */
  readonly removedBy: ReadonlyMap<string, ConstraintStep>;
  readonly targets: readonly string[];
}

export interface PinningSolution {
  readonly decisions: readonly BufferDecision[];
  /** Buffers owned by the application (I/O not in the workspace): not planned, only reported. */
  readonly external: readonly TracedBuffer[];
  /** Things the user must take care of, e.g. an accelerator using application-owned I/O. */
  readonly warnings: readonly string[];
  /** What the pass decided on its own and the user may want to know, e.g. an ignored preference. */
  readonly notes: readonly string[];
  /** Application-owned I/O an offload target touches in place, and the pools allowing it. */
  readonly ioRequirements?: readonly ApplicationIoRequirement[];
  /** User pins that matched nothing here, when they are shared by an application's models (`sharedByModels`). */
  readonly unmatchedPins?: readonly UnmatchedPin[];
}

/** A user pin that matched no buffer (tensor pin) or no operand (operator pin) of one model. */
export interface UnmatchedPin {
  /** `pins pins.json #0: tensor pin 'x'`: the same for every model the pin is given to. */
  readonly subject: string;
  readonly what: 'buffer' | 'operand';
  readonly context: Record<string, unknown>;
}

/** `; did you mean 'conv2d'? operators here: ...`: the names an operator pin can use in this program. */
function operatorNamesHint(op: string, operands: readonly OperandUse[]): string {
  const names = [...new Set(operands.flatMap((u) => [u.operator.op, ...(u.operator.composite ? [u.operator.composite] : [])]))].sort();
  if (names.length === 0) return '';
  const loose = (n: string) => n.toLowerCase().replace(/[^a-z0-9.*]/g, '');
  const close = names.find((n) => loose(n) === loose(op));
  const shown = names.length > 20 ? [...names.slice(0, 20), '...'] : names;
  return `${close !== undefined ? `; did you mean '${close}'?` : ''} (operators here: ${shown.join(', ')}; or a node name)`;
}

/** The refusal of a pin that matches nothing; `where`: 'the program', or the application's models. */
export function unmatchedPinError(pin: UnmatchedPin, where = 'the program'): PoolConstraintError {
  return new PoolConstraintError(`${pin.subject} matches no ${pin.what} of ${where}`, pin.context);
}

export interface ApplicationIoRequirement {
  /** Main's param (the tensor name made C-safe). */
  readonly buffer: string;
  readonly usedBy: readonly string[];
  readonly pools: readonly string[];
  /** Some host workspace pool is not allowed: plain application memory may not do. */
  readonly restrictsHostMemory: boolean;
}

/**
 * Whether a constraint binds this operator: its `op` (op, composite or node name; `*` globs)
 * names it, and a backend's constraint only where that backend's target runs it.
 */
export function operatorMatches(c: Pick<OperandPin, 'op' | 'target'>, r: OperatorRecord): boolean {
  if (c.target !== undefined && c.target !== r.target) return false;
  return operatorAliases(r).some((n) => globMatches(c.op, n));
}

/** Whether a constraint's operand selector takes this operand of a matching operator. */
export function selectorMatches(c: OperandPin, use: Pick<OperandUse, 'role' | 'index'>): boolean {
  if (c.role !== 'any' && c.role !== use.role) return false;
  if (c.index === undefined) return !(c.exceptIndices ?? []).includes(use.index);
  return c.index === use.index;
}

/** `accel.accel_conv2d 'name'`, or `'name'` when the node is named like its operator. */
export function describeOperator(r: OperatorRecord): string {
  const shown = r.composite ?? r.op;
  return shown === r.name ? `'${shown}'` : `${shown} '${r.name}'`;
}

/**
 * Model I/O planned in the workspace: the application writes each input and reads each output
 * there on the CPU (through `map_inputs` / `map_outputs`, or the copies `run` makes of the
 * buffers it is given), whichever target computes with it.
 */
function applicationAccess(io: 'input' | 'output', kindPools: readonly PoolInfo[]): ConstraintStep {
  const needs: PoolAccess = io === 'input' ? 'rw' : 'ro';
  return {
    kind: 'target-access',
    description: `${io === 'input' ? 'written' : 'read'} by the application (model ${io}, target ${HOST_TARGET})`,
    allowed: kindPools
      .filter((p) => {
        const access = p.targetAccess[HOST_TARGET];
        return access === 'rw' || (access === 'ro' && needs === 'ro');
      })
      .map((p) => p.name),
    target: HOST_TARGET,
    needs,
  };
}

/** Constants live only in constant pools (as in TVM); workspace buffers in workspace pools. */
function poolsOfKind(pools: readonly PoolInfo[], origin: TracedBuffer['origin']): PoolInfo[] {
  return pools.filter((p) => p.kind === (origin === 'constant' ? 'constant' : 'workspace'));
}

/** Items grouped by their buffer's key, each group in the items' order. */
function groupByBuffer<T extends { readonly buffer: { readonly key: string } }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.buffer.key);
    if (group) group.push(item);
    else groups.set(item.buffer.key, [item]);
  }
  return groups;
}

export function solvePoolPinning(
  trace: OperandTrace,
  pools: readonly PoolInfo[],
  given: PinningConstraints,
): PinningSolution {
  let constraints = given;
  validatePoolNames(pools, constraints);
  const { preference, notes } = knownPreferences(pools, constraints.preference);
  constraints = { ...constraints, preference };
  const decisions: BufferDecision[] = [];
  const external: TracedBuffer[] = [];
  const warnings: string[] = [];
  const ioRequirements: ApplicationIoRequirement[] = [];
  const tensorPinHits = new Set<number>();
  const operandHits = new Set<number>();

  // Each buffer's accesses and operands, grouped once (filtering both lists for every buffer
  // took 8 of 9 s of compiling a chain of 10,000 operators). Each group keeps the lists' order.
  const accessesOf = groupByBuffer(trace.accesses);
  const usesOf = groupByBuffer(trace.operands);
  for (const buffer of trace.buffers) {
    const accesses = accessesOf.get(buffer.key) ?? [];
    const uses = usesOf.get(buffer.key) ?? [];
    if (buffer.origin === 'io') {
      // A pin on application-owned I/O cannot be honoured: say why, rather than letting it
      // fall through to "matches no buffer".
      for (const p of constraints.tensors) {
        if (globMatches(p.tensor, buffer.name) || (buffer.tensor !== undefined && globMatches(p.tensor, buffer.tensor))) {
          throw new PoolConstraintError(
            `${p.source}: tensor '${buffer.tensor ?? buffer.name}'${buffer.tensor !== undefined && buffer.tensor !== buffer.name ? ` (${buffer.name} in C)` : ''} is a model input/output owned by the application; ` +
              `it can be pinned to a pool only when I/O is planned in the workspace (--io-in-workspace)`,
            { buffer: buffer.name },
          );
        }
      }
    }

    const kindPools = poolsOfKind(pools, buffer.origin);
    // With no constant pool at all, constants are AssignPoolInfo's to report, not ours.
    if (buffer.origin === 'constant' && kindPools.length === 0) continue;
    const steps: ConstraintStep[] = [
      {
        kind: 'pool-kind',
        description: `${buffer.origin === 'constant' ? 'constant' : 'workspace'} pools`,
        allowed: kindPools.map((p) => p.name),
      },
    ];
    const targets = [...new Set(accesses.map((a) => a.target))];
    // Its operands per function, grouped once: a chain of in-place operators shares one buffer
    // (10,000 accesses, 20,000 operands), where filtering them per access was quadratic.
    const usesByFunc = new Map<string, typeof uses>();
    for (const u of uses) {
      const group = usesByFunc.get(u.func);
      if (group) group.push(u);
      else usesByFunc.set(u.func, [u]);
    }
    for (const a of accesses) {
      // A function that only reads a buffer may use a read-only pool; one that writes it, or
      // whose operands are unknown, needs read-write access.
      const funcUses = usesByFunc.get(a.func) ?? [];
      const readOnly = funcUses.length > 0 && funcUses.every((u) => u.role === 'input') && buffer.func !== a.func && a.stores !== true;
      const mode = readOnly || buffer.origin === 'constant' ? 'reads' : 'writes';
      steps.push({
        kind: 'target-access',
        description: `${mode === 'reads' ? 'read' : 'written'} by ${a.func} (target ${a.target})`,
        allowed: kindPools
          .filter((p) => {
            const access = p.targetAccess[a.target];
            return access === 'rw' || (access === 'ro' && mode === 'reads');
          })
          .map((p) => p.name),
        target: a.target,
        needs: mode === 'reads' ? 'ro' : 'rw',
      });
    }
    if (buffer.io !== undefined) steps.push(applicationAccess(buffer.io, kindPools));
    constraints.operands.forEach((c, ci) => {
      for (const use of uses) {
        if (!operatorMatches(c, use.operator) || !selectorMatches(c, use)) continue;
        operandHits.add(ci);
        steps.push({
          kind: 'operand',
          description: `${c.source}: ${describeSelector({ role: use.role, index: use.index })} of ${describeOperator(use.operator)} must be in {${c.pools.join(', ')}}`,
          allowed: c.pools,
          operator: use.operator,
          role: use.role,
          target: use.target,
        });
      }
    });
    constraints.tensors.forEach((p, pi) => {
      const hit =
        globMatches(p.tensor, buffer.name) ||
        (buffer.tensor !== undefined && globMatches(p.tensor, buffer.tensor)) ||
        (buffer.aliases ?? []).some((t) => globMatches(p.tensor, t));
      if (!hit) return;
      tensorPinHits.add(pi);
      steps.push({
        kind: 'pin',
        description: `${p.source}: tensor '${buffer.tensor ?? buffer.name}' pinned to {${p.pools.join(', ')}}`,
        allowed: p.pools,
      });
    });

    let alive = new Set(steps[0].allowed);
    const removedBy = new Map<string, ConstraintStep>();
    for (const step of steps.slice(1)) {
      const next = new Set([...alive].filter((n) => step.allowed.includes(n)));
      for (const n of alive) if (!next.has(n)) removedBy.set(n, step);
      alive = next;
    }
    for (const p of pools) if (!steps[0].allowed.includes(p.name)) removedBy.set(p.name, steps[0]);

    if (buffer.origin === 'io') {
      external.push(buffer);
      const usedBy = [...new Set(steps.filter((s) => s.target !== undefined && s.target !== HOST_TARGET).map((s) => s.target!))];
      if (usedBy.length > 0) {
        const hostPools = pools.filter((p) => p.kind === 'workspace' && p.targetAccess[HOST_TARGET] !== undefined);
        const restrictsHostMemory = hostPools.some((p) => !alive.has(p.name));
        ioRequirements.push({ buffer: buffer.name, usedBy, pools: [...alive], restrictsHostMemory });
      }
      const warning = applicationIoWarning(buffer, steps, alive, pools);
      if (warning) warnings.push(warning);
      continue;
    }
    if (alive.size === 0) throw unsatisfiable(buffer, steps, pools);
    const order = preferenceOrder(pools, constraints, targets);
    const candidates = order.filter((n) => alive.has(n));
    decisions.push({ buffer, steps, candidates, removedBy, targets });
  }

  const unmatchedPins: UnmatchedPin[] = [];
  const unmatched = (pin: UnmatchedPin): void => {
    if (constraints.sharedByModels !== true) throw unmatchedPinError(pin);
    unmatchedPins.push(pin);
  };
  constraints.tensors.forEach((p, i) => {
    if (!tensorPinHits.has(i)) unmatched({ subject: `${p.source}: tensor pin '${p.tensor}'`, what: 'buffer', context: { buffer: p.tensor } });
  });
  constraints.operands.forEach((c, i) => {
    if (!operandHits.has(i) && c.source.startsWith('pins')) {
      const subject = `${c.source}: operator pin '${c.op}' (${describeSelector(c)})`;
      // Alone (not shared by several models), say what the pin could have named: authors
      // reach for TFLite's names (CONV_2D) where the program says conv2d.
      if (constraints.sharedByModels !== true) {
        throw new PoolConstraintError(`${subject} matches no operand of the program${operatorNamesHint(c.op, trace.operands)}`, { op: c.op });
      }
      unmatched({ subject, what: 'operand', context: { op: c.op } });
    } else if (!operandHits.has(i)) checkOperandIndex(c, trace.operands);
  });
  return { decisions, external, warnings, notes, ioRequirements, ...(unmatchedPins.length > 0 ? { unmatchedPins } : {}) };
}

/**
 * A backend's operand constraint matching no operand is normal (its operator is not in this
 * model), unless the operator is there and the index names an operand it does not have: the
 * constraint would then never hold anything, silently.
 */
function checkOperandIndex(c: OperandPin, operands: readonly OperandUse[]): void {
  if (c.index === undefined || c.role === 'any' || c.role === 'scratch' || c.optional === true) return;
  const counts = new Map<string, { operator: OperatorRecord; count: number }>();
  for (const use of operands) {
    if (!operatorMatches(c, use.operator)) continue;
    const seen = counts.get(use.operator.name) ?? { operator: use.operator, count: 0 };
    if (use.role === c.role) seen.count = Math.max(seen.count, use.index + 1);
    counts.set(use.operator.name, seen);
  }
  const first = counts.values().next().value;
  // An operand that exists but went unchecked (a constant with no constant pool) is not this.
  if (first === undefined || [...counts.values()].some((o) => c.index! < o.count)) return;
  const plural = first.count === 1 ? '' : 's';
  throw new PoolConstraintError(
    `${c.source}: operand constraint on '${c.op}' names ${c.role} ${c.index}, but ${describeOperator(first.operator)} has ${first.count} ${c.role}${plural}`,
    { op: c.op },
  );
}

/**
 * A backend's pool preference is advice, not a constraint: pools the user did not define are
 * dropped from it (and said so), so a backend works with any user pools that satisfy its
 * constraints. Constraints naming an unknown pool stay errors (validatePoolNames).
 */
function knownPreferences(
  pools: readonly PoolInfo[],
  preference: PinningConstraints['preference'],
): { preference: Record<string, readonly string[]>; notes: string[] } {
  const known = new Set(pools.map((p) => p.name));
  const kept: Record<string, readonly string[]> = {};
  const notes: string[] = [];
  for (const [target, order] of Object.entries(preference ?? {})) {
    const unknown = order.filter((n) => !known.has(n));
    kept[target] = order.filter((n) => known.has(n));
    if (unknown.length > 0) {
      notes.push(
        `pool preference of ${target} names ${unknown.map((n) => `'${n}'`).join(', ')}, which the pools do not define; ` +
          `ignored (pools are: ${[...known].join(', ') || '(none)'})`,
      );
    }
  }
  return { preference: kept, notes };
}

/**
 * Model I/O not planned in the workspace lives wherever the application puts it, as in TVM.
 * That is fine while every user of it can reach all of the host's workspace memory; when an
 * accelerator needs it in particular pools, the application must put it there, and we say so.
 */
function applicationIoWarning(
  buffer: TracedBuffer,
  steps: readonly ConstraintStep[],
  alive: ReadonlySet<string>,
  pools: readonly PoolInfo[],
): string | undefined {
  const hostPools = pools.filter((p) => p.kind === 'workspace' && p.targetAccess[HOST_TARGET] !== undefined).map((p) => p.name);
  const restricted = hostPools.some((n) => !alive.has(n));
  const accelerators = [...new Set(steps.filter((s) => s.target !== undefined && s.target !== HOST_TARGET).map((s) => s.target!))];
  if (!restricted || accelerators.length === 0) return undefined;
  const where = alive.size > 0 ? `memory of pool ${[...alive].join(' or ')}` : 'memory no pool describes';
  return (
    `model input/output '${buffer.tensor ?? buffer.name}' is used directly by target ${accelerators.join(', ')}: ` +
    `the application must place it in ${where} (${steps
      .slice(1)
      .map((s) => s.description)
      .join('; ')}); or plan model I/O in the workspace (--io-in-workspace)`
  );
}

function validatePoolNames(pools: readonly PoolInfo[], constraints: PinningConstraints): void {
  const known = new Set(pools.map((p) => p.name));
  const check = (source: string, names: readonly string[]): void => {
    for (const n of names) {
      if (!known.has(n)) {
        throw new PoolConstraintError(
          `${source}: unknown pool '${n}'; pools are: ${[...known].join(', ') || '(none)'}` +
            (source.startsWith('backend ') ? ` (the backend's constraints name '${n}': define a pool with that name)` : ''),
          { pool: n },
        );
      }
    }
  };
  for (const c of constraints.operands) check(c.source, c.pools);
  for (const p of constraints.tensors) check(p.source, p.pools);
  if (constraints.poolOrder) check(constraints.poolOrderSource ?? 'pool preference', constraints.poolOrder);
}

function preferenceOrder(
  pools: readonly PoolInfo[],
  constraints: PinningConstraints,
  targets: readonly string[],
): string[] {
  const userOrder = pools.map((p) => p.name);
  const head: string[] = [];
  if (targets.length === 1) head.push(...(constraints.preference?.[targets[0]] ?? []));
  head.push(...(constraints.poolOrder ?? []));
  return [...new Set([...head, ...userOrder])];
}

function unsatisfiable(buffer: TracedBuffer, steps: readonly ConstraintStep[], pools: readonly PoolInfo[]): PoolConstraintError {
  const size = buffer.sizeBytes !== undefined ? `${buffer.sizeBytes} bytes, ` : '';
  const lines = [
    `no memory pool satisfies every constraint on buffer '${buffer.name}' (${size}allocated in ${buffer.func}${buffer.tensor ? `, tensor '${buffer.tensor}'` : ''}):`,
    ...steps.map((s) => `  - ${s.description}: allows {${s.allowed.join(', ')}}`),
  ];
  lines.push(`  fix: ${suggestFix(steps, pools)}`);
  return new PoolConstraintError(lines.join('\n'), { buffer: buffer.name, func: buffer.func });
}

/**
 * What would make the constraints satisfiable. First, a pool that only target-access steps
 * exclude: granting exactly the missing access (never one the target already has) fixes
 * the buffer. Otherwise every pair of disjoint steps is considered, best fix first: a copy
 * between two operators, then a pool of the right kind, then dropping one of two
 * contradictory constraints.
 */
export function suggestFix(steps: readonly ConstraintStep[], pools: readonly PoolInfo[]): string {
  const grant = accessGrant(steps, pools);
  if (grant !== undefined) return grant;
  const disjoint: Array<[ConstraintStep, ConstraintStep]> = [];
  for (let i = 0; i < steps.length; i++) {
    for (let j = i + 1; j < steps.length; j++) {
      if (!steps[i].allowed.some((n) => steps[j].allowed.includes(n))) disjoint.push([steps[i], steps[j]]);
    }
  }
  const copy = disjoint.find(([a, b]) => a.operator && b.operator && a.operator.name !== b.operator.name);
  if (copy !== undefined) {
    const [a, b] = copy;
    // Name the producer first: the copy goes on the edge from the writer to the reader.
    const [producer, consumer] = b.role === 'output' ? [b, a] : [a, b];
    return `insert a copy operator between ${describeOperator(producer.operator!)} and ${describeOperator(consumer.operator!)} (copying from '${producer.allowed[0]}' into '${consumer.allowed[0]}'), or relax one of the two constraints`;
  }
  const kind = disjoint.find(([a, b]) => (a.kind === 'pool-kind') !== (b.kind === 'pool-kind'));
  if (kind !== undefined) {
    const [byKind, other] = kind[0].kind === 'pool-kind' ? kind : [kind[1], kind[0]];
    const wrongKind = pools.filter((p) => other.allowed.includes(p.name)).map((p) => `'${p.name}' is a ${p.kind} pool`);
    const why = wrongKind.join(', ') || 'see the pools config';
    // Only a pin is the user's to change; a backend constraint naming the wrong kind of pool
    // for this operand is the backend's mistake (a weight pool for an activation, say).
    if (other.kind !== 'pin') return `"${other.description}" allows only pools of the wrong kind (${why}; this buffer needs ${byKind.description})`;
    return `pin this buffer to a pool of the right kind (${why})`;
  }
  const pair = disjoint.find(([a, b]) => a.kind !== 'target-access' && b.kind !== 'target-access') ?? disjoint[0];
  if (pair !== undefined) {
    const [a, b] = pair;
    return `remove one of the contradictory constraints ("${a.description}" / "${b.description}")`;
  }
  return 'relax one of the constraints above: together they exclude every pool';
}

/** `give target 'accel' read-write access to 'sram' (it has ro)...` when access alone is missing. */
function accessGrant(steps: readonly ConstraintStep[], pools: readonly PoolInfo[]): string | undefined {
  const fixes: string[] = [];
  for (const pool of pools) {
    const excluders = steps.filter((s) => !s.allowed.includes(pool.name));
    if (excluders.length === 0 || !excluders.every((s) => s.kind === 'target-access' && s.target !== undefined)) continue;
    const needed = new Map<string, PoolAccess>();
    for (const s of excluders) {
      const need = s.needs ?? 'rw';
      if (needed.get(s.target!) !== 'rw') needed.set(s.target!, need);
    }
    const grants = [...needed].map(([target, need]) => {
      const has = pool.targetAccess[target];
      return `target '${target}' ${need === 'rw' ? 'read-write' : 'read'} access to '${pool.name}'${has !== undefined ? ` (it has ${has})` : ''}`;
    });
    fixes.push(grants.join(' and '));
  }
  if (fixes.length === 0) return undefined;
  const alternatives = fixes.length > 1 ? `; or instead ${fixes.slice(1, 3).join('; or ')}` : '';
  return `give ${fixes[0]} (pools config)${alternatives}`;
}
