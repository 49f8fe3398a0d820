/**
 * Scripts for `node -e` children that run uma-ts from src/ (tests must not depend on a dist/
 * build): TypeScript is transpiled on load, by absolute paths, so the child may run in any
 * directory (a removed one too).
 */
import * as path from 'path';

export const ROOT = path.join(__dirname, '..', '..');

/** A `require(...)` expression for a file under the repository root (`src/cli/main.ts`). */
export function requireFromRoot(relative: string): string {
  return `require(${JSON.stringify(path.join(ROOT, ...relative.split('/')))})`;
}

/** The transpile-on-load hook, then `body`. */
export function tsChildScript(body: string): string {
  return `
const fs = require('fs');
const ts = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'typescript'))});
require.extensions['.ts'] = (m, f) => {
  const out = ts.transpileModule(fs.readFileSync(f, 'utf8'), {
    fileName: f,
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true, resolveJsonModule: true, experimentalDecorators: true },
  });
  m._compile(out.outputText, f);
};
${body}
`;
}
