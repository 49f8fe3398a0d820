/**
 * Bridges a backend's memory declaration (src/backend/memory.ts) into the pinning pass:
 * its operand constraints become OperandConstraints, and the pools it says its target can
 * reach are merged into the user's pools (the user's own target list wins on conflicts).
 */
import { MemoryDecl, OperandPools } from '../../src/backend/memory';
import { PoolInfo } from '../../src/usmp/types';
import { OperandPin, PinningConstraints } from './constraints';

function perIndex(source: string, target: string, op: string, role: 'input' | 'output', pools: OperandPools | undefined): OperandPin[] {
  return Object.entries(pools ?? {}).map(([k, list]) => ({ source, target, op, role, index: Number(k), pools: list }));
}

export function constraintsFromMemoryDecl(target: string, decl: MemoryDecl): PinningConstraints {
  const source = `backend ${target}`;
  const operands: OperandPin[] = [];
  for (const c of decl.operandConstraints) {
    const explicitIn = new Set(Object.keys(c.inputs ?? {}).map(Number));
    const explicitOut = new Set(Object.keys(c.outputs ?? {}).map(Number));
    const optional = new Set(c.optionalInputs ?? []);
    operands.push(
      ...perIndex(source, target, c.op, 'input', c.inputs).map((pin) => (optional.has(pin.index!) ? { ...pin, optional: true } : pin)),
      ...perIndex(source, target, c.op, 'output', c.outputs),
    );
    // "all inputs" applies to the operands not constrained individually.
    if (c.allInputs) {
      operands.push({ source, target, op: c.op, role: 'input', pools: c.allInputs, ...(explicitIn.size ? { exceptIndices: [...explicitIn] } : {}) });
    }
    if (c.allOutputs) {
      operands.push({ source, target, op: c.op, role: 'output', pools: c.allOutputs, ...(explicitOut.size ? { exceptIndices: [...explicitOut] } : {}) });
    }
    if (c.scratch) operands.push({ source, target, op: c.op, role: 'scratch', pools: c.scratch });
  }
  return { operands, tensors: [], preference: { [target]: decl.pools.map((p) => p.pool) } };
}

/** Adds the backend's declared access to pools the user did not already open to that target. */
export function mergeTargetAccess(pools: readonly PoolInfo[], target: string, decl: MemoryDecl): PoolInfo[] {
  const declared = new Map(decl.pools.map((p) => [p.pool, p.access]));
  return pools.map((p) => {
    const access = declared.get(p.name);
    if (access === undefined || p.targetAccess[target] !== undefined) return p;
    return { ...p, targetAccess: { ...p.targetAccess, [target]: access } };
  });
}
