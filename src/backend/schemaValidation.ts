/**
 * ajv validators for the backend-facing JSON: the memory declaration (pools + operand
 * constraints) and the backend manifest. Failures name the JSON path of the first problem.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import memorySchema from '../../schemas/operand-constraints.schema.json';
import manifestSchema from '../../schemas/backend-manifest.schema.json';

const ajv = new Ajv({ allErrors: false, strict: false });
ajv.addSchema(memorySchema);
ajv.addSchema(manifestSchema);

function compiled(id: string): ValidateFunction {
  const v = ajv.getSchema(id);
  if (v === undefined) throw new Error(`schema ${id} is not loaded`);
  return v;
}

export interface SchemaProblem {
  readonly jsonPath: string;
  readonly message: string;
}

function describe(e: ErrorObject): SchemaProblem {
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    return { jsonPath: `${e.instancePath}/${extra}`, message: 'is not an allowed property' };
  }
  const jsonPath = e.instancePath || '/';
  if (e.keyword === 'required') {
    return { jsonPath, message: `must have property '${(e.params as { missingProperty: string }).missingProperty}'` };
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v));
    return { jsonPath, message: `must be one of ${allowed.join(', ')}` };
  }
  return { jsonPath, message: e.message ?? 'is invalid' };
}

/** An anyOf whose branches are all `required` means "give at least one of these". */
function describeAnyOfRequired(errors: readonly ErrorObject[]): SchemaProblem | undefined {
  const last = errors[errors.length - 1];
  if (last.keyword !== 'anyOf') return undefined;
  const branches = errors.slice(0, -1);
  if (branches.length === 0 || !branches.every((e) => e.keyword === 'required' && e.instancePath === last.instancePath)) {
    return undefined;
  }
  const names = branches.map((e) => `'${(e.params as { missingProperty: string }).missingProperty}'`);
  return { jsonPath: last.instancePath || '/', message: `must have at least one of ${names.join(', ')}` };
}

function check(id: string, data: unknown): SchemaProblem | undefined {
  const validate = compiled(id);
  if (validate(data)) return undefined;
  const errors = validate.errors as ErrorObject[];
  return describeAnyOfRequired(errors) ?? describe(errors[0]);
}

export function checkMemoryDecl(data: unknown): SchemaProblem | undefined {
  return check(memorySchema.$id, data);
}

export function checkManifest(data: unknown): SchemaProblem | undefined {
  return check(manifestSchema.$id, data);
}
