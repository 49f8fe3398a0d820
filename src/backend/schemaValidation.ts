/**
 * Checks of the backend-facing JSON against its schemas (the shared validator of
 * `src/config/validateJson.ts`): the memory declaration (pools + operand constraints) and
 * the backend manifest. Failures name the JSON path of the first problem.
 */
import { ErrorObject } from 'ajv';
import { describeAjvError, reportedError, schemaErrors } from '../config/validateJson';

export interface SchemaProblem {
  readonly jsonPath: string;
  readonly message: string;
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

function check(schema: string, data: unknown): SchemaProblem | undefined {
  const errors = schemaErrors(data, schema);
  if (errors === undefined) return undefined;
  return describeAnyOfRequired(errors) ?? describeAjvError(reportedError(errors));
}

export function checkMemoryDecl(data: unknown): SchemaProblem | undefined {
  return check('operand-constraints.schema.json', data);
}

export function checkManifest(data: unknown): SchemaProblem | undefined {
  return check('backend-manifest.schema.json', data);
}
