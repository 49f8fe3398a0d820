/**
 * A `--backend-module` file: vanilla's conv2d offload with its C kernel's output offset changed
 * to `outputOffsetExpr`, for tests that must catch a wrong kernel end to end.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

export function writeBrokenVanillaBackend(file: string, outputOffsetExpr: string, doc: string): void {
  const vanilla = (f: string) => JSON.stringify(path.join(ROOT, 'backends', 'vanilla', f));
  fs.writeFileSync(
    file,
    `import { DEFAULT_CONSTANT_POOL, DEFAULT_WORKSPACE_POOL, UmaBackend } from 'uma-ts';
import { vanillaIncludes, vanillaRuntimeSources } from ${vanilla('codegen')};
import { vanillaConv2dPass } from ${vanilla('passes')};
import { conv2dPattern } from ${vanilla('patterns')};
import { vanillaConv2dStrategy } from ${vanilla('strategies')};

/** ${doc} */
export class BrokenBackend extends UmaBackend {
  readonly targetName = 'broken';
  constructor() {
    super();
    this.registerPattern('conv2d', conv2dPattern());
    this.registerOperatorStrategy('conv2d', vanillaConv2dStrategy);
    this.registerTirPass(1, vanillaConv2dPass);
    this.registerCodegen({
      includes: vanillaIncludes,
      runtimeSources: () =>
        vanillaRuntimeSources().map((f) => ({ ...f, content: f.content.replace('+ output_offset;', ${JSON.stringify(`+ ${outputOffsetExpr};`)}) })),
    });
    this.registerMemory({
      pools: [{ pool: DEFAULT_WORKSPACE_POOL, access: 'rw' }, { pool: DEFAULT_CONSTANT_POOL, access: 'rw' }],
      operandConstraints: [],
    });
  }
}
`,
  );
}
