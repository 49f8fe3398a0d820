/**
 * Model inputs and outputs named like C library macros (EOF, INT8_MAX, NAN, M_PI) or gcc's GNU
 * predefined ones (linux): the interface header's struct fields keep clear of them, so an
 * application including <stdio.h>, <stdint.h>, <math.h> and the header compiles, in C99 and in
 * gcc's default GNU mode. Found by a differential campaign: an input named EOF made
 * tvmgen_default.h fail to compile.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { sanitizeIdentifier } from '../../src/codegen/c/names';
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { makeTempDir, removeDir, writeArtifacts } from './cc';

const registry = new BackendRegistry();
registry.register(VanillaBackend);

const INPUTS = ['EOF', 'INT8_MAX', 'SIZE_MAX', 'INFINITY', 'NAN', 'errno'];
const OUTPUTS = ['linux', 'M_PI', 'stdout'];

function model(): Uint8Array {
  const w = new TfliteWriter();
  const q = { scale: [0.05], zeroPoint: [3] };
  const xs = INPUTS.map((name) => w.addInput({ name, shape: [1, 4], dtype: 'int8', quant: q }));
  let acc = xs[0];
  xs.slice(1).forEach((x, k) => {
    const sum = w.addTensor({ name: OUTPUTS[k] ?? `s${k}`, shape: [1, 4], dtype: 'int8', quant: q });
    w.addOperator({ op: 'ADD', inputs: [acc, x], outputs: [sum], options: tfliteOptions.add('NONE') });
    if (k < OUTPUTS.length) w.markOutput(sum);
    acc = sum;
  });
  return w.finish();
}

describe('model I/O named like C macros', () => {
  it('gets interface fields an application including the library headers can compile with', () => {
    const result = compileModel(importTflite(model()), { backend: 'vanilla', registry });
    const dir = makeTempDir('macros');
    try {
      writeArtifacts(dir, result.artifacts);
      const app = path.join(dir, 'app.c');
      fs.writeFileSync(
        app,
        '#include <errno.h>\n#include <math.h>\n#include <stdint.h>\n#include <stdio.h>\n#include "tvmgen_default.h"\nint main(void) { return 0; }\n',
      );
      for (const std of ['-std=c99', '-std=gnu17']) {
        execFileSync('gcc', [std, '-Wall', '-Werror', '-Iinclude', '-c', app, '-o', path.join(dir, 'app.o')], { cwd: dir, stdio: 'pipe' });
      }
    } finally {
      removeDir(dir);
    }
  });

  it('sanitizes macro spellings and leaves ordinary names alone', () => {
    for (const name of [...INPUTS, ...OUTPUTS, 'UINT_LEAST16_MAX', 'FLT_EPSILON', 'SIGINT', 'EDOM', 'PRId32', 'unix']) {
      expect(sanitizeIdentifier(name)).toBe(`${name}_`);
    }
    for (const name of ['input_1', 'Identity', 'MobilenetV1', 'isnan', 'max', 'E', 'Embedding', 'M']) expect(sanitizeIdentifier(name)).toBe(name);
  });
});
