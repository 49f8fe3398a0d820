/**
 * Validates a user's JSON document against one of the schemas in `schemas/` and turns the
 * first ajv error into a ConfigError that names the file and the JSON path of the mistake.
 */
import type Ajv from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { ConfigError } from '../errors';
import { AJV_OPTIONS, schemaExportName } from './schemaExports';

const SCHEMA_DIR = path.resolve(__dirname, '..', '..', '..', 'schemas');
const SCHEMA_DIR_SRC = path.resolve(__dirname, '..', '..', 'schemas');

// One ajv for every schema in schemas/, so a $ref from one file into another resolves. Made on
// first use: loading ajv takes about 40 ms, which `uma-ts plan` on a text buffer set never needs.
let ajv: Ajv | undefined;

function schemaDir(name: string): string {
  // Compiled code runs from dist/src/config, sources (ts-jest) from src/config.
  for (const dir of [SCHEMA_DIR, SCHEMA_DIR_SRC]) {
    if (fs.existsSync(path.join(dir, name))) return dir;
  }
  throw new Error(`schema ${name} not found in ${SCHEMA_DIR} or ${SCHEMA_DIR_SRC}`);
}

/**
 * Registers every schema file under its file name (and its $id); ajv compiles each on first use.
 * The schemas are ours: checking them against the JSON Schema meta-schema (about 30 ms per run)
 * is a test's job (test/config/schemas.test.ts), not every command's.
 */
function loadSchemas(name: string): Ajv {
  if (ajv !== undefined) return ajv;
  const dir = schemaDir(name);
  const { default: AjvClass } = require('ajv') as typeof import('ajv');
  const loaded = new AjvClass({ ...AJV_OPTIONS, validateSchema: false });
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort()) {
    loaded.addSchema(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')), file);
  }
  ajv = loaded;
  return loaded;
}

/**
 * The validators the build precompiled (scripts/compileSchemas.js, one module per schema in
 * compiledSchemas/ next to this file in dist/): the same code ajv would generate, without
 * loading ajv. Undefined when running the sources.
 */
const precompiled = new Map<string, ValidateFunction | null>();

function precompiledValidator(name: string): ValidateFunction | undefined {
  const exportName = schemaExportName(name);
  let validator = precompiled.get(exportName);
  if (validator === undefined) {
    const file = path.join(__dirname, 'compiledSchemas', `${exportName}.js`);
    validator = fs.existsSync(file) ? ((require(file) as Record<string, ValidateFunction | undefined>)[exportName] ?? null) : null;
    precompiled.set(exportName, validator);
  }
  return validator ?? undefined;
}

function validatorFor(name: string): ValidateFunction {
  const compiled = precompiledValidator(name);
  if (compiled !== undefined) return compiled;
  const v = loadSchemas(name).getSchema(name);
  if (v === undefined) throw new Error(`schema ${name} not found in ${SCHEMA_DIR} or ${SCHEMA_DIR_SRC}`);
  return v;
}

/**
 * Validates `data` against `schema` (a file name in schemas/): undefined when it conforms,
 * else ajv's errors (the first one is the first problem), for callers that word or throw
 * their own errors.
 */
export function schemaErrors(data: unknown, schema: string): readonly ErrorObject[] | undefined {
  const validate = validatorFor(schema);
  return validate(data) ? undefined : (validate.errors ?? []);
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

/**
 * The error to report. A value matching no branch of a oneOf/anyOf gets every branch's errors,
 * the first branch's first: a pin `{"operator": ""}` was told it "must have property 'tensor'"
 * (the tensor branch). The deepest one names what the value got wrong in the branch it was
 * written for (`/pins/0/operator` is empty).
 */
export function reportedError(errors: readonly ErrorObject[]): ErrorObject {
  if (!errors.some((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf')) return errors[0];
  const depth = (e: ErrorObject) => (e.instancePath === '' ? 0 : e.instancePath.split('/').length);
  return errors.reduce((best, e) => (depth(e) > depth(best) ? e : best));
}

export function validateJsonDocument<T>(data: unknown, schema: string, file = '<input>'): T {
  const errors = schemaErrors(data, schema);
  if (errors !== undefined) {
    const { jsonPath, message } = describeAjvError(reportedError(errors));
    throw new ConfigError(`${file}: ${jsonPath}: ${message}`, { file, jsonPath });
  }
  return data as T;
}
