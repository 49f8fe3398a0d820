/**
 * Which graph operators a PrimFunc runs, and which of its buffer vars each one reads,
 * writes or uses as scratch. Lowering records this as the PrimFunc attribute
 * `uma.operators` (a JSON string, so it survives printing, JSON round trips and passes
 * like any other attribute) so whole-program passes such as pool pinning can apply
 * per-operand constraints after lowering without a side channel.
 */
import { PrimFunc } from './nodes';
import { postOrderVisit } from './visitor';

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

/**
 * The first input or output an operator record of `f` names that is no variable of `f`, as
 * `input 0 'x' of npu2.fc 'y'`, or undefined. Pool pinning finds an operand's buffer by this
 * name: a pass that renamed or removed the buffer without updating the records would make the
 * backend's constraints and the user's pins on it silently bind nothing. (Scratch may go: a
 * pass that drops a dead scratch buffer loses nothing to constrain.)
 */
export function staleOperandName(f: PrimFunc): string | undefined {
  const records = readOperatorRecords(f);
  if (records.length === 0) return undefined;
  const names = new Set(f.params.map((p) => p.name));
  // Operands are parameters or allocations: the names they are defined by, not those of uses.
  postOrderVisit(f, (n) => {
    if (n.kind === 'Allocate' || n.kind === 'AllocateConst') names.add(n.bufferVar.name);
    else if (n.kind === 'LetStmt') names.add(n.var.name);
  });
  for (const r of records) {
    for (const [role, list] of [['input', r.inputs], ['output', r.outputs]] as const) {
      const i = list.findIndex((name) => !names.has(name));
      if (i >= 0) return `${role} ${i} '${list[i]}' of ${operatorLabel(r)} '${r.name}'`;
    }
  }
  return undefined;
}
