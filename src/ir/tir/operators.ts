/**
 * Which graph operators a PrimFunc runs, and which of its buffer vars each one reads,
 * writes or uses as scratch. Lowering records this as the PrimFunc attribute
 * `uma.operators` (a JSON string, so it survives printing, JSON round trips and passes
 * like any other attribute) so whole-program passes such as pool pinning can apply
 * per-operand constraints after lowering without a side channel.
 */
import { PrimFunc, Var } from './nodes';
import { postOrderVisit } from './visitor';
import { mayWriteBuffers } from './analysis';

export const ATTR_OPERATORS = 'uma.operators';

export interface OperatorRecord {
  /** Graph node name (the output tensor name for imported models). */
  readonly name: string;
  /** Primitive op (`conv2d`) or the composite it was matched as (`accel.accel_conv2d`). */
  readonly op: string;
  readonly composite?: string;
  /**
   * The composite this operator was lowered within, operator by operator (its target has no
   * strategy for the composite). The composite has a record of its own, whose operands are
   * the composite's; constraints and pins naming the composite bind that one, not this.
   */
  readonly partOf?: string;
  readonly target: string;
  /** Buffer var names (params or allocates of this PrimFunc), by operand position. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly scratch: readonly string[];
}

export function readOperatorRecords(f: PrimFunc): OperatorRecord[] {
  const raw = f.attrs[ATTR_OPERATORS];
  if (typeof raw !== 'string') return [];
  return JSON.parse(raw) as OperatorRecord[];
}

export function withOperatorRecords(f: PrimFunc, records: readonly OperatorRecord[]): PrimFunc {
  return { ...f, attrs: { ...f.attrs, [ATTR_OPERATORS]: JSON.stringify(records) } };
}

/** The name an operator is shown by in messages: its composite, or the composite it is part of, else its op. */
export function operatorLabel(r: OperatorRecord): string {
  return r.composite ?? r.partOf ?? r.op;
}

/** Names an operator answers to in constraints and pins: its op, its composite and its node name. */
export function operatorAliases(r: OperatorRecord): string[] {
  const names = [r.op, r.name];
  if (r.composite) names.push(r.composite);
  return names;
}

/** The buffers a function defines (params, allocations, lets) by name. */
function definedBuffers(f: PrimFunc): Map<string, Var> {
  const defined = new Map(f.params.map((p) => [p.name, p] as const));
  // Operands are parameters or allocations: the names they are defined by, not those of uses.
  postOrderVisit(f, (n) => {
    if (n.kind === 'Allocate' || n.kind === 'AllocateConst') defined.set(n.bufferVar.name, n.bufferVar);
    else if (n.kind === 'LetStmt') defined.set(n.var.name, n.var);
  });
  return defined;
}

/**
 * What is wrong with the operator records of `f` as a pass left them (`before`: the function
 * it was given), as the end of `left <f> with ...`, or undefined. Pool pinning reads them to
 * find each operand's buffer by name: records that do not parse stopped it with a raw
 * SyntaxError, and a pass that renamed an input or output (same variable, new name) without
 * updating them made the backend's constraints and the user's pins on it silently bind nothing.
 * A buffer the pass removed altogether leaves nothing to constrain, and is let go.
 */
export function operatorRecordsProblem(f: PrimFunc, before?: PrimFunc): string | undefined {
  const raw = f.attrs[ATTR_OPERATORS];
  if (raw === undefined) return undefined;
  const attr = `attribute '${ATTR_OPERATORS}'`;
  if (typeof raw !== 'string') return `${attr} of type ${typeof raw}, not the JSON string of its operator records`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    return `${attr} that is not JSON (${(e as Error).message})`;
  }
  const names = (v: unknown) => Array.isArray(v) && v.every((n) => typeof n === 'string');
  if (!Array.isArray(parsed)) return `${attr} that is not an array of operator records`;
  const bad = parsed.findIndex(
    (r: Partial<OperatorRecord> | null) =>
      typeof r !== 'object' || r === null || typeof r.name !== 'string' || typeof r.op !== 'string' || !names(r.inputs) || !names(r.outputs) || !names(r.scratch),
  );
  if (bad >= 0) return `${attr} whose entry ${bad} is not an operator record ({ name, op, target, inputs, outputs, scratch })`;
  if (before === undefined) return undefined;
  const now = definedBuffers(f);
  const then = definedBuffers(before);
  const nameNow = new Map([...now].map(([name, v]) => [v.id, name] as const));
  const writtenBefore = mayWriteBuffers(before);
  const writtenNow = mayWriteBuffers(f);
  for (const r of parsed as OperatorRecord[]) {
    for (const [role, list] of [['input', r.inputs], ['output', r.outputs]] as const) {
      for (let i = 0; i < list.length; i++) {
        const old = then.get(list[i]);
        const renamed = now.has(list[i]) || old === undefined ? undefined : nameNow.get(old.id);
        if (renamed !== undefined) {
          return (
            `an operator record naming ${role} ${i} '${list[i]}' of ${operatorLabel(r)} '${r.name}', which the pass renamed '${renamed}': ` +
            `operand constraints and pins on it would bind nothing (keep the buffer's name, or update the records with withOperatorRecords, ${attr})`
          );
        }
        // An output the function computed before the pass and no longer does (the pass dropped
        // the nest or the kernel call writing it): the program would return stale memory.
        const v = now.get(list[i]);
        if (role === 'output' && v !== undefined && old !== undefined && writtenBefore.has(old.id) && !writtenNow.has(v.id)) {
          return `output ${i} '${list[i]}' of ${operatorLabel(r)} '${r.name}' never written any more: no store into it, and no call is given it`;
        }
      }
    }
  }
  return undefined;
}
