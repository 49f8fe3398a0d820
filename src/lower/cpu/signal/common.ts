/**
 * What the signal-library strategies share: each operator is one call of its runtime kernel
 * in uma_ref_signal.c (externKernels.ts), scalars as int32 immediates.
 */
import { callExtern, evaluate, intImm } from '../../../ir/tir/builder';
import { Expr, Stmt } from '../../../ir/tir/nodes';
import { OpLoweringInput } from '../../strategy';
import { loweringFail } from '../attrs';

export function kernelCall(name: string, args: readonly (Expr | number)[]): Stmt {
  return evaluate(callExtern(name, args.map((a) => (typeof a === 'number' ? intImm(a) : a))));
}

/** Integer attribute `name` of the call. */
export function intAttr(input: OpLoweringInput, name: string): number {
  const v = input.call.attrs[name];
  if (typeof v !== 'number' || !Number.isInteger(v)) loweringFail(input.call, `${input.call.callee.kind === 'op' ? input.call.callee.op : 'signal'}: attribute ${name} must be an integer`);
  return v;
}

/** The elements of the call's argument `k`. */
export function elementsOf(input: OpLoweringInput, k: number): number {
  return input.argTypes[k].shape.reduce((a, b) => a * b, 1);
}
