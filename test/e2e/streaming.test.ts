/**
 * Streaming semantics in generated C: variable tensors (SVDF state) are persistent static
 * arrays, so successive `tvmgen_default_run` calls continue from the state the previous
 * one left, exactly as an interpreter session does.
 */
import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';
import { compileModel } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { IRModule } from '../../src/ir/graph/types';
import { createSession, interpret } from '../../src/interpreter';
import { modelInputs } from './harness';
import { runStreaming } from './streamingHarness';
import { f32, tinySvdf, withSvdfOutputs } from '../interpreter/tinySvdf';

class NothingBackend extends UmaBackend {
  readonly targetName = 'nothing';
}

function compile(graph: IRModule): ReturnType<typeof compileModel> {
  const registry = new BackendRegistry();
  registry.register(NothingBackend);
  return compileModel(graph, { backend: 'nothing', registry });
}

const bytes = (bs: readonly Uint8Array[]): number[][] => bs.map((b) => Array.from(b));


describe('streaming SVDF in C', () => {
  it('a hand-sized float SVDF: each run contracts the features of the last two runs', () => {
    const graph = tinySvdf(true);
    const runs = runStreaming(compile(graph), [[f32(1, 1)], [f32(2, 0)], [f32(0, 1)]]);
    // features 3, 2, 2; out = 3 * older + 5 * newer
    expect(runs.map((r) => Array.from(new Float32Array(r[0].slice().buffer)))).toEqual([[15], [19], [16]]);
  });

  it.each(['keyword_scrambled', 'keyword_scrambled_8bit'])('%s: three runs match an interpreter session byte for byte', (model) => {
    const graph = withSvdfOutputs(loadTfliteFile(`models/${model}.tflite`));
    const result = compile(graph);
    const states = result.usmp.unplanned.filter((u) => u.reason.startsWith('persistent state'));
    const svdfCount = graph.functions.get('main')!.outputs.length - 1;
    expect(states).toHaveLength(svdfCount);
    // persistent state is never placed in a workspace pool
    for (const s of states) expect(result.usmp.buffers.some((b) => b.name === s.name)).toBe(false);

    const invocations = [11, 12, 13].map((seed) => modelInputs(graph, seed));
    const session = createSession(graph);
    const expected = invocations.map((inputs) => session.invoke(inputs));
    const runs = runStreaming(result, invocations);
    runs.forEach((run, k) => expect(bytes(run)).toEqual(bytes(expected[k])));
    // the program's first run is the one-shot result
    expect(bytes(runs[0])).toEqual(bytes(interpret(graph, invocations[0])));
  });
});
