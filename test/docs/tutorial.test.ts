/**
 * The tutorial backend of docs/tutorial-first-backend.md, run for real: registered, used to
 * compile hello_world_float with compileModel, built with strict gcc and compared byte for
 * byte with the reference interpreter.
 */
import * as fs from 'fs';
import * as ts from 'typescript';
import { BackendRegistry, compileModel, interpret, loadTfliteFile, parsePoolsJson, readOperatorRecords } from '../../src';
import { DENSE_KERNEL, TUTORIAL_SRAM, TutorialBackend } from '../../docs/examples/tutorialBackend';
import { runCompiled } from '../../src/verify';

const MODEL = 'models/hello_world_float.tflite';

function registry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(TutorialBackend);
  return r;
}

const pools = () => parsePoolsJson(fs.readFileSync('docs/examples/pools.json', 'utf8'), 'docs/examples/pools.json');

/**
 * The accelerator reads the model input and writes the output in place, and reaches only
 * tut_sram: the runs plan model I/O there (as `uma-ts run` does), not in the harness's memory.
 */
function runOnGcc(result: ReturnType<typeof compileModel>, x: number): { got: number[]; expected: number[] } {
  const input = new Uint8Array(new Float32Array([x]).buffer);
  const expected = Array.from(interpret(loadTfliteFile(MODEL), [input])[0]);
  const run = runCompiled(result.artifacts, { invocations: [[input]], cflags: ['-Werror'] });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return { got: Array.from(run.outputs[0][0]), expected };
}

describe('tutorial backend', () => {
  it('offloads every dense to the kernel and matches the interpreter when built with gcc', () => {
    const result = compileModel(MODEL, { backend: 'tutorial', registry: registry(), pools: pools(), ioInWorkspace: true });
    const lib = result.artifacts.files.find((f) => f.content.includes('/* Target: tutorial */'))!;
    expect(lib.content).toContain('#include "tutorial_kernels.h"');
    expect(lib.content.split(`${DENSE_KERNEL}(`).length - 1).toBe(3);
    expect(lib.content).not.toMatch(/for \(/);
    const offloaded = [...result.tir.functions.values()].filter((f) => f.attrs.target === 'tutorial');
    const records = offloaded.flatMap(readOperatorRecords);
    expect(records.filter((r) => r.partOf === undefined).map((r) => r.composite)).toEqual(['tutorial.dense', 'tutorial.dense', 'tutorial.dense']);
    expect(records.filter((r) => r.partOf !== undefined).map((r) => [r.op, r.partOf])).toEqual(Array(3).fill(['dense', 'tutorial.dense']));
    // The accelerator's outputs inside the offloaded function live in its SRAM.
    const denseOutputs = result.report.buffers.filter((b) => b.target === 'tutorial' && b.func !== '__tvm_main__');
    expect(denseOutputs.length).toBe(2);
    for (const b of denseOutputs) expect(b.pool).toBe(TUTORIAL_SRAM);
    for (const x of [0.5, 2.75]) {
      const { got, expected } = runOnGcc(result, x);
      expect(got).toEqual(expected);
    }
  });

  it('keeps loops for nests deeper than the max_depth target attribute, with the same output', () => {
    const result = compileModel(MODEL, { backend: 'tutorial', registry: registry(), pools: pools(), ioInWorkspace: true, targetAttrs: { max_depth: 8 } });
    const lib = result.artifacts.files.find((f) => f.content.includes('/* Target: tutorial */'))!;
    // Only the first dense (depth 1) fits; the two of depth 16 stay loop nests.
    expect(lib.content.split(`${DENSE_KERNEL}(`).length - 1).toBe(1);
    expect(lib.content).toMatch(/for \(/);
    const { got, expected } = runOnGcc(result, 1.25);
    expect(got).toEqual(expected);
  });

  it('declares its memory in the manifest', () => {
    const manifest = registry().get('tutorial').manifest();
    expect(manifest.pools).toEqual([{ pool: TUTORIAL_SRAM, access: 'rw' }]);
    expect(manifest.operandConstraints).toEqual([{ op: 'tutorial.dense', allOutputs: [TUTORIAL_SRAM] }]);
    expect(manifest.tirPasses).toEqual([{ name: 'tutorial.ReplaceDenseWithKernel', phase: 0, scope: 'target' }]);
  });

  it("section 9's jest example passes as written", () => {
    const doc = fs.readFileSync('docs/tutorial-first-backend.md', 'utf8');
    const block = /The same check from a jest test[^\n]*\n+```ts\n([\s\S]*?)```/.exec(doc);
    expect(block).not.toBeNull();
    const js = ts.transpileModule(block![1], { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 } }).outputText;
    // Its imports as a backend project sees them: uma-ts, and the tutorial backend beside the test.
    const modules: Record<string, unknown> = {
      'uma-ts': require('../../src'),
      './tutorialBackend': require('../../docs/examples/tutorialBackend'),
      fs,
    };
    const tests: (() => void)[] = [];
    const load = (name: string): unknown => {
      if (!(name in modules)) throw new Error(`the example imports '${name}'`);
      return modules[name];
    };
    new Function('require', 'exports', 'it', 'expect', js)(load, {}, (_title: string, body: () => void) => tests.push(body), expect);
    expect(tests).toHaveLength(1);
    tests[0]();
  }, 120000);
});
