/**
 * The subgraphs an operator runs (WHILE's cond and body, IF's branches, CALL_ONCE's init),
 * checked before anything is imported: every index in range, input and output counts as
 * TFLite Micro's Prepare requires them, and no subgraph that runs itself, directly or through
 * others. A corrupt or hostile file is refused here with a one-line error, so inlining
 * (controlFlow.ts) never loops forever or recurses without end.
 */
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { findCycleFrom } from '../../util/cycle';
import { modelFormatError } from './flatbuf';
import { BuiltinOptionsType, CallOnceOptions, IfOptions, Model, Operator, OperatorCode, SubGraph, WhileOptions } from './schema';

/** One subgraph an operator names, and the role it plays there. */
export interface SubgraphCall {
  readonly role: 'cond' | 'body' | 'then' | 'else' | 'init';
  readonly subgraph: number;
}

function builtinOf(codes: readonly OperatorCode[], op: Operator): number {
  const code = codes[op.opcodeIndex];
  return code ? code.effectiveBuiltinCode : -1;
}

/**
 * The subgraphs `op` runs (empty for an operator that runs none). `where` names the operator
 * in errors: a WHILE or IF without its options table is a corrupt model.
 */
export function subgraphCallsOf(op: Operator, builtin: number, where: string, source: string): SubgraphCall[] {
  const need = (type: number, name: string): void => {
    if (op.builtinOptionsType !== type) throw modelFormatError(source, op.pos, `${where} has no ${name}`);
  };
  switch (builtin) {
    case BuiltinOperatorCode.WHILE: {
      need(BuiltinOptionsType.WhileOptions, 'WhileOptions');
      const o = op.builtinOptions(WhileOptions)!;
      return [
        { role: 'cond', subgraph: o.condSubgraphIndex },
        { role: 'body', subgraph: o.bodySubgraphIndex },
      ];
    }
    case BuiltinOperatorCode.IF: {
      need(BuiltinOptionsType.IfOptions, 'IfOptions');
      const o = op.builtinOptions(IfOptions)!;
      return [
        { role: 'then', subgraph: o.thenSubgraphIndex },
        { role: 'else', subgraph: o.elseSubgraphIndex },
      ];
    }
    case BuiltinOperatorCode.CALL_ONCE:
      // resourceVariables.ts reads and checks its options where it runs the init subgraph.
      return op.builtinOptionsType === BuiltinOptionsType.CallOnceOptions ? [{ role: 'init', subgraph: op.builtinOptions(CallOnceOptions)!.initSubgraphIndex }] : [];
    default:
      return [];
  }
}

/** The input and output counts TFLite Micro's WHILE and IF Prepare require of their subgraphs. */
function checkCounts(subgraphs: readonly SubGraph[], source: string, op: Operator, builtin: number, calls: readonly SubgraphCall[], where: string): void {
  const fail = (problem: string): never => {
    throw modelFormatError(source, op.pos, `${where}: ${problem}`);
  };
  for (const call of calls) {
    if (call.role === 'init') continue;
    const sg = subgraphs[call.subgraph];
    const [ins, outs] = [sg.inputs.length, sg.outputs.length];
    const label = `${call.role} subgraph ${call.subgraph}`;
    if (builtin === BuiltinOperatorCode.WHILE) {
      // The loop values flow op inputs → cond and body inputs → body outputs → op outputs.
      if (ins !== op.inputs.length) fail(`${label} has ${ins} inputs, the operator ${op.inputs.length}`);
      if (call.role === 'cond' && outs !== 1) fail(`${label} has ${outs} outputs, expected 1 (the bool that keeps the loop going)`);
      if (call.role === 'body' && outs !== op.outputs.length) fail(`${label} has ${outs} outputs, the operator ${op.outputs.length}`);
    } else {
      // Input 0 is the condition; the others go to the branch.
      if (ins !== op.inputs.length - 1) fail(`${label} has ${ins} inputs, the operator ${op.inputs.length - 1} besides its condition`);
      if (outs !== op.outputs.length) fail(`${label} has ${outs} outputs, the operator ${op.outputs.length}`);
    }
  }
  if (builtin === BuiltinOperatorCode.WHILE && op.inputs.length !== op.outputs.length) {
    fail(`it has ${op.inputs.length} inputs but ${op.outputs.length} outputs (one output per loop value)`);
  }
  if (builtin === BuiltinOperatorCode.IF && op.inputs.length === 0) fail('it has no condition input');
}

/**
 * Checks every subgraph call reachable from subgraph 0: indices in range, WHILE/IF counts,
 * and no cycle. Iterative (a file of thousands of nested subgraphs cannot overflow the stack).
 */
export function checkSubgraphCalls(model: Model, codes: readonly OperatorCode[]): void {
  // Read once: the accessor parses the whole vector on every call.
  const subgraphs = model.subgraphs;
  const source = model.source;
  const callees: number[][] = subgraphs.map(() => []);
  const visited = new Set<number>([0]);
  const pending = [0];
  while (pending.length > 0) {
    const s = pending.pop()!;
    subgraphs[s].operators.forEach((op, i) => {
      const builtin = builtinOf(codes, op);
      const where = `${builtinOperatorName(builtin)} at operator #${i} of subgraph ${s}`;
      const calls = subgraphCallsOf(op, builtin, where, source);
      for (const call of calls) {
        // CALL_ONCE's own check names its range (1..n-1) where it runs.
        if (call.role === 'init' && (call.subgraph < 1 || call.subgraph >= subgraphs.length)) continue;
        if (!Number.isInteger(call.subgraph) || call.subgraph < 0 || call.subgraph >= subgraphs.length) {
          throw modelFormatError(source, op.pos, `${where} names ${call.role} subgraph ${call.subgraph} of ${subgraphs.length}`);
        }
        callees[s].push(call.subgraph);
        if (!visited.has(call.subgraph)) {
          visited.add(call.subgraph);
          pending.push(call.subgraph);
        }
      }
      checkCounts(subgraphs, source, op, builtin, calls, where);
    });
  }
  const cycle = findCycleFrom(callees, [0]);
  if (cycle) {
    throw modelFormatError(source, subgraphs[cycle[0]].pos, `subgraph ${cycle[0]} runs itself (${cycle.join(' → ')}); TFLite control flow cannot recurse`);
  }
}
