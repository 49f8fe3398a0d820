/**
 * Loads a user's module (a backend for `--backend-module`) that may be written in TypeScript.
 * A `.ts` file is transpiled on load with the `typescript` package; when uma-ts itself runs
 * compiled (from `dist/`), imports of uma-ts's own sources (`src/`, `backends/`, `passes/`)
 * resolve to their compiled copies, so the user's backend extends the very `UmaBackend` class
 * the running compiler checks against, not a second copy of it.
 */
import * as fs from 'fs';
import Module from 'module';
import * as path from 'path';
import { ConfigError } from '../errors';

type TypeScript = typeof import('typescript');

const OWN_SOURCE_DIRS = ['src', 'backends', 'passes'];
const PACKAGE_NAME = 'uma-ts';
let tsLoaderInstalled = false;
let resolutionInstalled = false;

function loadTypeScript(file: string): TypeScript {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('typescript') as TypeScript;
  } catch {
    throw new ConfigError(`${file}: loading a TypeScript module needs the 'typescript' package (npm install typescript), or compile it to .js first`, {
      file,
    });
  }
}

/** The package root and the compiled tree, when this file runs from `<root>/dist/src/cli`. */
function compiledLayout(): { root: string; dist: string } | undefined {
  const dist = path.resolve(__dirname, '..', '..');
  return path.basename(dist) === 'dist' ? { root: path.dirname(dist), dist } : undefined;
}

function installTypeScriptLoader(ts: TypeScript): void {
  if (tsLoaderInstalled) return;
  tsLoaderInstalled = true;
  const extensions = (Module as unknown as { _extensions: Record<string, (m: Module, f: string) => void> })._extensions;
  extensions['.ts'] = (mod: Module, filename: string) => {
    const output = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      fileName: filename,
      // Transpiling alone checks the syntax only if asked: `export class {{{` would load as a
      // module exporting nothing.
      reportDiagnostics: true,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        esModuleInterop: true,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        sourceMap: false,
      },
    });
    const error = output.diagnostics?.find((d) => d.category === ts.DiagnosticCategory.Error);
    if (error) {
      const at = error.file && error.start !== undefined ? error.file.getLineAndCharacterOfPosition(error.start) : undefined;
      const where = at ? `${path.basename(filename)}:${at.line + 1}:${at.character + 1}` : path.basename(filename);
      throw new SyntaxError(`${where}: ${ts.flattenDiagnosticMessageText(error.messageText, ' ')}`);
    }
    (mod as unknown as { _compile(code: string, file: string): void })._compile(output.outputText, filename);
  };
}

/**
 * A backend written against the package (`from 'uma-ts'`, `require('uma-ts')`, compiled or
 * not) gets the running installation's API, so its UmaBackend is the class this compiler
 * checks against; imports of uma-ts's own `.ts` sources get their compiled copies.
 */
function installOwnResolution(): void {
  if (resolutionInstalled) return;
  resolutionInstalled = true;
  const layout = compiledLayout();
  if (!layout) return;
  const moduleWithResolve = Module as unknown as {
    _resolveFilename(request: string, parent: unknown, ...rest: unknown[]): string;
  };
  const resolve = moduleWithResolve._resolveFilename;
  const ownApi = path.join(layout.dist, 'src', 'index.js');
  moduleWithResolve._resolveFilename = function (request: string, parent: unknown, ...rest: unknown[]): string {
    if (request === PACKAGE_NAME) return ownApi;
    const resolved = resolve.call(this, request, parent, ...rest);
    const rel = path.relative(layout.root, resolved);
    if (resolved.endsWith('.ts') && OWN_SOURCE_DIRS.some((d) => rel.startsWith(d + path.sep))) {
      const compiled = path.join(layout.dist, rel.replace(/\.ts$/, '.js'));
      if (fs.existsSync(compiled)) return compiled;
    }
    return resolved;
  };
}

/** `require`s a `.js` or `.ts` module by absolute path. */
export function requireUserModule(resolved: string): Record<string, unknown> {
  // Under a TypeScript-aware runner (ts-jest) `.ts` already loads; only plain Node needs hooks.
  const extensions = (Module as unknown as { _extensions: Record<string, unknown> })._extensions;
  if (resolved.endsWith('.ts') && extensions !== undefined && !('.ts' in extensions)) installTypeScriptLoader(loadTypeScript(resolved));
  installOwnResolution();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolved) as Record<string, unknown>;
}
