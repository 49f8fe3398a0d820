/**
 * An AoT main with two operator PrimFuncs, a constant and an intermediate `sid` allocate:
 * generated C compiles warning-free, runs, and computes what the TIR says.
 */
import { generateC } from '../../src/codegen/c/generate';
import { tirModule } from '../../src/ir/tir/builder';
import { aotModule, N } from './modules';
import { buildAndRun, compileHeaderAsCxx, makeTempDir, parseInts, removeDir, writeArtifacts } from './cc';

const TEST_MAIN = `#include <stdio.h>
#include "tvmgen_default.h"
int main(void) {
  int8_t in[${N}] = {1, -2, 30, 100, 127, -128, 0, 64};
  int8_t out[${N}];
  struct tvmgen_default_inputs inputs = { in };
  struct tvmgen_default_outputs outputs = { out };
  int i;
  if (tvmgen_default_run(&inputs, &outputs) != 0) return 3;
  for (i = 0; i < ${N}; ++i) printf("%d\\n", out[i]);
  return 0;
}
`;

describe('AoT module to C', () => {
  let dir: string;
  beforeEach(() => {
    dir = makeTempDir('aot');
  });
  afterEach(() => removeDir(dir));

  it('runs main -> two operators through an unplanned sid and a constant', () => {
    const m = aotModule();
    const artifacts = generateC({
      module: tirModule(m.functions),
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, N] }],
      outputs: [{ name: 'y', dtype: 'int8', shape: [1, N] }],
    });
    writeArtifacts(dir, artifacts);
    const got = parseInts(buildAndRun(dir, { 'main.c': TEST_MAIN }));
    expect(got).toEqual(m.expected([1, -2, 30, 100, 127, -128, 0, 64]));
    compileHeaderAsCxx(dir, 'tvmgen_default.h');

    const lib1 = artifacts.files.find((f) => f.path === 'src/default_lib1.c')?.content ?? '';
    // The intermediate is a function-static array, the weights a static const array.
    expect(lib1).toMatch(/static int32_t sid_1\[8\] __attribute__\(\(aligned\(16\)\)\);/);
    expect(lib1).toMatch(/static const int8_t w\[8\]/);
    expect(lib1).toContain('if (tvmgen_default_fused_add(');
    const meta = artifacts.metadata;
    expect(meta.functions.find((f) => f.name === '__tvm_main__')).toMatchObject({
      workspaceSizeBytes: 32,
      constantSizeBytes: 8,
      file: 'src/default_lib1.c',
    });
    expect(meta.inputs).toEqual([{ name: 'x', cName: 'x', dtype: 'int8', shape: [1, N], sizeBytes: N }]);
  });

  it('names the entry after the module name', () => {
    const m = aotModule();
    const artifacts = generateC({
      module: tirModule(m.functions),
      moduleName: 'kws',
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, N] }],
      outputs: [{ name: 'y', dtype: 'int8', shape: [1, N] }],
    });
    const header = artifacts.files.find((f) => f.path === 'include/tvmgen_kws.h')?.content ?? '';
    expect(header).toContain('int32_t tvmgen_kws_run(struct tvmgen_kws_inputs* inputs, struct tvmgen_kws_outputs* outputs);');
    expect(header).toContain('#define TVMGEN_KWS_X_SIZE 8');
    expect(artifacts.files.map((f) => f.path)).toContain('src/kws_lib0.c');
  });

  it('an input and an output named alike but for case get distinct size macros (both were TVMGEN_DEFAULT_X_SIZE)', () => {
    const m = aotModule({ input: 'x', output: 'X' });
    const artifacts = generateC({
      module: tirModule(m.functions),
      inputs: [{ name: 'x', dtype: 'int8', shape: [1, N] }],
      outputs: [{ name: 'X', dtype: 'int8', shape: [1, N] }],
    });
    const header = artifacts.files.find((f) => f.path === 'include/tvmgen_default.h')?.content ?? '';
    expect(header.match(/#define TVMGEN_DEFAULT_X(_1)?_SIZE 8/g)).toEqual(['#define TVMGEN_DEFAULT_X_SIZE 8', '#define TVMGEN_DEFAULT_X_1_SIZE 8']);
    writeArtifacts(dir, artifacts);
    compileHeaderAsCxx(dir, 'tvmgen_default.h');
  });

  it('rejects a main whose parameters do not match the model I/O', () => {
    const m = aotModule();
    expect(() =>
      generateC({
        module: tirModule(m.functions),
        inputs: [{ name: 'x', dtype: 'int8', shape: [1, N] }],
        outputs: [],
      }),
    ).toThrow(/matches neither a model input\/output nor a planned pool/);
  });
});
