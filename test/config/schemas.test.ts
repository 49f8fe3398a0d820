import Ajv from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import { AJV_OPTIONS, schemaExportName } from '../../src/config/schemaExports';
import { describeAjvError, schemaErrors } from '../../src/config/validateJson';

// validateJson registers the schemas without checking them against the meta-schema (a cost on
// every run); this is where that check lives.
const SCHEMAS = path.resolve(__dirname, '..', '..', 'schemas');
const EXAMPLES = path.resolve(__dirname, '..', '..', 'docs', 'examples');
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

  describe('the validators the build precompiles (scripts/compileSchemas.js)', () => {
    const built = path.resolve(__dirname, '..', '..', 'dist', 'src', 'config', 'compiledSchemas');
    const compiledSchemaSources = (): { module: string; source: string }[] => require('../../scripts/compileSchemas.js').compiledSchemaSources(SCHEMAS);

    test('dist holds them, one module per schema, generated from the current schemas (npm run build)', () => {
      const sources = compiledSchemaSources();
      expect(sources.map((s) => s.module)).toEqual(files.map((f) => `${schemaExportName(f)}.js`));
      for (const { module, source } of sources) expect(fs.readFileSync(path.join(built, module), 'utf8')).toBe(source);
    });

    test.each(files)('%s: the precompiled validator agrees with ajv, first error included', (file) => {
      const compiled = require(path.join(built, `${schemaExportName(file)}.js`))[schemaExportName(file)];
      const ajv = new Ajv({ ...AJV_OPTIONS });
      for (const f of files) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(SCHEMAS, f), 'utf8')), f);
      const runtime = ajv.getSchema(file)!;
      const examples = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, f), 'utf8')));
      const documents: unknown[] = [{}, [], null, 'text', ...examples, ...examples.map((e) => ({ ...e, unexpected: 1 }))];
      for (const doc of documents) {
        const ok = runtime(doc);
        expect(compiled(doc)).toBe(ok);
        if (!ok) expect(describeAjvError(compiled.errors[0])).toEqual(describeAjvError(runtime.errors![0]));
      }
    });
  });

  test('validation still reports a document that breaks a schema', () => {
    const errors = schemaErrors({ pools: 'not a list', buffers: [] }, 'buffer-set.schema.json');
    expect(errors).toBeDefined();
    expect(errors!.length).toBeGreaterThan(0);
  });
});
