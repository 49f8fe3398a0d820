/**
 * What every operator type rule (typeInference.ts and the *Types.ts files beside it) reports
 * its refusals with: one TypeInferenceError naming the operator, the problem and the argument
 * types it was given.
 */
import { TypeInferenceError } from '../../errors';
import { Attrs, TensorType } from './types';

/** `[d0, d1] dtype`, as the errors show an argument. */
export function formatTensorType(t: TensorType): string {
  return `[${t.shape.join(', ')}] ${t.dtype}`;
}

export function typeRuleFail(op: string, problem: string, args: readonly TensorType[]): never {
  throw new TypeInferenceError(`${op}: ${problem} (arguments: ${args.map(formatTensorType).join(', ')})`, { op });
}

/** Integer attribute `name`; anything else is a type-rule error. */
export function intAttrOf(op: string, attrs: Attrs, name: string, args: readonly TensorType[]): number {
  const v = attrs[name];
  if (typeof v !== 'number' || !Number.isInteger(v)) typeRuleFail(op, `attribute ${name} must be an integer, got ${JSON.stringify(v)}`, args);
  return v;
}
