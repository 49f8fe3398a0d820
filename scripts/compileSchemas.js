#!/usr/bin/env node
'use strict';
/**
 * Precompiles every schema in schemas/ into one CommonJS module of validators (ajv's standalone
 * code), written next to the compiled validateJson (dist/src/config/compiledSchemas.js). Loading
 * and running ajv's compiler takes about 45 ms, paid by every `uma-ts plan` of a JSON buffer set
 * and every command with a JSON config; the precompiled validators are the same code, loaded in
 * a few milliseconds. validateJson falls back to ajv itself where the module is absent (ts-jest
 * runs the sources). Runs after tsc in `npm run build`: the export names come from the build.
 */
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { AJV_OPTIONS, schemaExportName } = require('../dist/src/config/schemaExports.js');

/** The module's source: one export per schema file, named by schemaExportName. */
function compiledSchemasSource(schemaDir) {
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } });
  const files = fs.readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json')).sort();
  for (const file of files) ajv.addSchema(JSON.parse(fs.readFileSync(path.join(schemaDir, file), 'utf8')), file);
  return standaloneCode(ajv, Object.fromEntries(files.map((file) => [schemaExportName(file), file])));
}

module.exports = { compiledSchemasSource };

if (require.main === module) {
  const root = path.join(__dirname, '..');
  const out = process.argv[2] ?? path.join(root, 'dist', 'src', 'config', 'compiledSchemas.js');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, compiledSchemasSource(path.join(root, 'schemas')));
}
