#!/usr/bin/env node
'use strict';
/**
 * Precompiles each schema in schemas/ into a CommonJS module of its validator (ajv's standalone
 * code), written next to the compiled validateJson (dist/src/config/compiledSchemas/<name>.js,
 * named by schemaExportName). Loading and running ajv's compiler takes about 45 ms, paid by
 * every `uma-ts plan` of a JSON buffer set and every command with a JSON config; the
 * precompiled validators are the same code, loaded in a few milliseconds. One module per schema:
 * all of them in one file came to 376 KB, 8 ms of every such command's start, where the buffer
 * set's own validator is 16 KB. validateJson falls back to ajv itself where the modules are
 * absent (ts-jest runs the sources). Runs after tsc in `npm run build`: the export names come
 * from the build.
 */
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { AJV_OPTIONS, schemaExportName } = require('../dist/src/config/schemaExports.js');

/** Per schema file: the module's name and source (one export, named by schemaExportName). */
function compiledSchemaSources(schemaDir) {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  const files = fs.readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json')).sort();
  for (const file of files) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, file), 'utf8')), file);
  return files.map((file) => ({ module: `${schemaExportName(file)}.js`, source: standaloneCode(ajv, { [schemaExportName(file)]: file }) }));
}

module.exports = { compiledSchemaSources };

if (require.main === module) {
  const root = path.join(__dirname, '..');
  const out = process.argv[2] ?? path.join(root, 'dist', 'src', 'config', 'compiledSchemas');
  fs.mkdirSync(out, { recursive: true });
  for (const { module, source } of compiledSchemaSources(path.join(root, 'schemas'))) fs.writeFileSync(path.join(out, module), source);
}
