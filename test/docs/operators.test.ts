/** docs/operators.md lists exactly the TFLite builtins the importer converts (and the README counts them). */
import * as fs from 'fs';
import * as path from 'path';
import { builtinOperatorName } from '../../src/frontend/tflite/builtinOperators';
import { isSupportedBuiltin, supportedCustomCodes } from '../../src/frontend/tflite/converters';
import { NO_TFLM_KERNEL, TFLM_KERNEL_DTYPES } from '../../src/frontend/tflite/converters/tflmKernels';

const DOC = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'operators.md'), 'utf8');

function documented(): string[] {
  return DOC.split('\n')
    .map((l) => /^\| ([A-Z][A-Z0-9_]+) \|/.exec(l)?.[1])
    .filter((n): n is string => n !== undefined);
}

function supported(): string[] {
  const names: string[] = [];
  for (let code = 0; code < 256; code++) if (isSupportedBuiltin(code)) names.push(builtinOperatorName(code));
  return names;
}

describe('docs/operators.md', () => {
  it('lists every supported builtin once, and nothing else', () => {
    const docs = documented();
    expect(new Set(docs).size).toBe(docs.length);
    expect([...docs].sort()).toEqual([...supported()].sort());
  });

  it('is sorted by name so a reader finds an operator', () => {
    const docs = documented();
    expect(docs).toEqual([...docs].sort());
  });

  it('lists every supported custom operator once, and nothing else', () => {
    const custom = DOC.split('\n')
      .map((l) => /^\| `([A-Za-z0-9_]+)` \|/.exec(l)?.[1])
      .filter((n): n is string => n !== undefined);
    expect([...custom].sort()).toEqual([...supportedCustomCodes()].sort());
  });

  it("names every operator whose refusal is TFLite Micro's own", () => {
    const para = DOC.replace(/\s+/g, ' ').split('Some refusals are TFLite Micro\'s own')[1]?.split('. uma-ts computes')[0] ?? '';
    const named = [...TFLM_KERNEL_DTYPES.keys(), ...NO_TFLM_KERNEL.keys()];
    expect(named.filter((op) => !new RegExp(`\\b${op}\\b`).test(para))).toEqual([]);
  });

  it("is counted right in the README's pointer to it", () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`lists the ${supported().length} TFLite builtins uma-ts compiles`);
  });
});
