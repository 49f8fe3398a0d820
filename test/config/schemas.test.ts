import Ajv from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { schemaErrors } from '../../src/config/validateJson';

// validateJson registers the schemas without checking them against the meta-schema (a cost on
// every run); this is where that check lives.
const SCHEMAS = path.resolve(__dirname, '..', '..', 'schemas');
const files = fs.readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json')).sort();

describe('schemas/', () => {
  test('holds the schemas the tools validate against', () => {
    expect(files).toEqual(expect.arrayContaining(['buffer-set.schema.json', 'memory-plan.schema.json', 'pools.schema.json', 'report.schema.json']));
  });

  test.each(files)('%s is a valid JSON Schema', (file) => {
    const ajv = new Ajv({ strict: false });
    const schema = JSON.parse(fs.readFileSync(path.join(SCHEMAS, file), 'utf8'));
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(ajv.errors ?? null).toBeNull();
  });

  test('a schema that breaks the meta-schema is caught by this check', () => {
    const ajv = new Ajv({ strict: false });
    expect(ajv.validateSchema({ type: 'object', properties: { a: { type: 'no-such-type' } } })).toBe(false);
  });

  test('validation still reports a document that breaks a schema', () => {
    const errors = schemaErrors({ pools: 'not a list', buffers: [] }, 'buffer-set.schema.json');
    expect(errors).toBeDefined();
    expect(errors!.length).toBeGreaterThan(0);
  });
});
