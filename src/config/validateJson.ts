/**
 * Validates a user's JSON document against one of the schemas in `schemas/` and turns the
 * first ajv error into a ConfigError that names the file and the JSON path of the mistake.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { ConfigError } from '../errors';

const SCHEMA_DIR = path.resolve(__dirname, '..', '..', '..', 'schemas');
const SCHEMA_DIR_SRC = path.resolve(__dirname, '..', '..', 'schemas');

const ajv = new Ajv({ allErrors: false, strict: false });
const compiled = new Map<string, ValidateFunction>();

function schemaPath(name: string): string {
  // Compiled code runs from dist/src/config, sources (ts-jest) from src/config.
  for (const dir of [SCHEMA_DIR, SCHEMA_DIR_SRC]) {
    const p = path.join(dir, name);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`schema ${name} not found in ${SCHEMA_DIR} or ${SCHEMA_DIR_SRC}`);
}

function validatorFor(name: string): ValidateFunction {
  let v = compiled.get(name);
  if (!v) {
    v = ajv.compile(JSON.parse(fs.readFileSync(schemaPath(name), 'utf8')));
    compiled.set(name, v);
  }
  return v;
}

export function describeAjvError(e: ErrorObject): { jsonPath: string; message: string } {
  let jsonPath = e.instancePath || '/';
  let message = e.message ?? 'is invalid';
  if (e.keyword === 'additionalProperties') {
    const extra = (e.params as { additionalProperty: string }).additionalProperty;
    jsonPath = `${e.instancePath}/${extra}`;
    message = 'is not an allowed property';
  } else if (e.keyword === 'required') {
    message = `must have property '${(e.params as { missingProperty: string }).missingProperty}'`;
  } else if (e.keyword === 'enum') {
    message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return { jsonPath, message };
}

/** Parses `text` as JSON and validates it; throws ConfigError with file and JSON path. */
export function parseJsonDocument<T>(text: string, schema: string, file = '<input>'): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${file}: not valid JSON: ${(e as Error).message}`, { file });
  }
  return validateJsonDocument<T>(data, schema, file);
}

export function validateJsonDocument<T>(data: unknown, schema: string, file = '<input>'): T {
  const validate = validatorFor(schema);
  if (!validate(data)) {
    const { jsonPath, message } = describeAjvError(validate.errors![0]);
    throw new ConfigError(`${file}: ${jsonPath}: ${message}`, { file, jsonPath });
  }
  return data as T;
}
