/**
 * The comparison the LiteRT operator suites share: each case's model runs in LiteRT (one
 * batch), in our interpreter and as lowered TIR; the interpreter must match LiteRT within the
 * suite's tolerance and the lowered TIR must match the interpreter byte for byte.
 */
import { importTflite } from '../../src/frontend/tflite';
import { interpret } from '../../src/interpreter';
import { runMain } from '../../src/ir/tir/eval';
import { LOWERING_EXTERN_SIMULATIONS } from '../../src/lower/cpu';
import { lowerForCpu } from '../lower/helpers';
import { Closeness, elementsOf, firstMismatch, runLiteRtBatch } from '../oracle/litert';

export interface LiteRtCase {
  readonly name: string;
  readonly model: Uint8Array;
  readonly inputs: Uint8Array[];
  readonly outDtype: string;
}

export interface LiteRtSuiteOptions {
  readonly tolerance: Closeness;
  /** Also require more than 3 distinct output values, so a constant output cannot pass. */
  readonly varied: boolean;
}

/** One `describe(title)` with one test per case. */
export function describeAgainstLiteRt(title: string, cases: () => readonly LiteRtCase[], options: LiteRtSuiteOptions): void {
  describe(title, () => {
    const all = cases();
    let results: ReturnType<typeof runLiteRtBatch>;
    beforeAll(() => {
      results = runLiteRtBatch(all.map((c) => ({ model: c.model, inputs: c.inputs })));
    });
    it.each(all.map((c, i) => [c.name, i] as const))('%s', (_name, i) => {
      const c = all[i];
      const r = results[i];
      if ('error' in r) throw new Error(r.error);
      const graph = importTflite(c.model, c.name);
      const mine = interpret(graph, c.inputs);
      expect(r.outputs[0].dtype).toBe(c.outDtype);
      expect(firstMismatch(c.outDtype, mine[0], r.outputs[0].data, options.tolerance)).toBeNull();
      if (options.varied) expect(new Set(elementsOf(c.outDtype, mine[0])).size).toBeGreaterThan(3);
      const lowered = runMain(lowerForCpu(graph), c.inputs, { externs: LOWERING_EXTERN_SIMULATIONS });
      expect(Buffer.from(lowered[0]).equals(Buffer.from(mine[0]))).toBe(true);
    });
  });
}
