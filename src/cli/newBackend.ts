/**
 * `uma-ts new-backend <name> [--dir DIR]`: writes a working backend skeleton (pattern,
 * strategy, TIR pass, C kernel and codegen hooks, memory declaration, jest test), as TVM's
 * `uma_cli.py --add_hardware` does from `apps/uma/_template`.
 */
import { Command } from 'commander';
import { nonEmptyValue, pathValue } from './optionValues';
import { writeBackendSkeleton } from '../scaffold/writer';
import { CliIO } from './io';
import { createCliRegistry } from './backendLoader';

export function register(program: Command, io: CliIO): void {
  program
    .command('new-backend')
    .description('create a backend skeleton: backends/<snake_name>/ with class <CamelName>Backend and a jest test')
    .argument('<name>', 'backend name, e.g. my-accel (target and directory my_accel, class MyAccelBackend)')
    .option('--dir <dir>', 'output directory (default backends/<snake_name>); must not exist', pathValue)
    .option('--import-from <module>', "import specifier of uma-ts's public API in the generated code (default: relative path to uma-ts's src/)", nonEmptyValue)
    .action(async (name: string, opts: { dir?: string; importFrom?: string }) => {
      const bundled = await createCliRegistry();
      const r = writeBackendSkeleton({
        name,
        takenTargets: bundled.targets(),
        ...(opts.dir !== undefined ? { dir: opts.dir } : {}),
        ...(opts.importFrom !== undefined ? { apiImport: opts.importFrom } : {}),
      });
      io.out(
        [
          `created backend '${r.names.snake}' (class ${r.names.className}) in ${r.dir}:`,
          ...r.files.map((f) => `  ${f}`),
          // Inside a project with its own jest config `npx jest <dir>` does; elsewhere the generated one.
          `run its tests with: npx jest ${r.dir} (or, in a project without a jest config: npx jest -c ${r.dir}/jest.config.js)`,
        ].join('\n'),
      );
    });
}
