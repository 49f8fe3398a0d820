/**
 * What validateJson and the build's schema precompiler (scripts/compileSchemas.js) agree on:
 * ajv's options, and the export name of each schema file's validator.
 */
export const AJV_OPTIONS = { allErrors: false, strict: false } as const;

/** `buffer-set.schema.json` -> `bufferSet`. */
export function schemaExportName(file: string): string {
  return file.replace(/\.schema\.json$/, '').replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_, c: string) => c.toUpperCase());
}
