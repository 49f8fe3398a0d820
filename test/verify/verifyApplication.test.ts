/**
 * verifyApplication: person_detect and kws_ref_model compiled as one application, built once
 * with a harness that runs them in turn on one shared workspace, each compared with the
 * interpreter; and a corrupted program is caught (the harness runs the compiled code).
 */
import { registerExampleBackends } from '../../backends';
import { BackendRegistry } from '../../src/backend/registry';
import { compileApplication } from '../../src/driver/application';
import { ioSpecs } from '../../src/driver/compile';
import { loadTfliteFile } from '../../src/frontend/tflite';
import { createSession } from '../../src/interpreter';
import { randomInvocations } from '../../src/verify/inputs';
import { writeApplicationHarnessMain } from '../../src/verify/applicationHarness';
import { runApplication, verifyApplication } from '../../src/verify/verifyApplication';

const MODELS = [
  { model: 'models/person_detect.tflite', moduleName: 'pd' },
  { model: 'models/kws_ref_model.tflite', moduleName: 'kws' },
];

describe('verifyApplication', () => {
  it('runs both models in turn on the shared workspace, byte-exact, 2 runs (accel)', () => {
    const report = verifyApplication(MODELS, { backend: 'accel', runs: 2, seed: 3 });
    expect(report.models.map((m) => m.moduleName)).toEqual(['pd', 'kws']);
    for (const m of report.models) {
      expect(m.failure).toBeUndefined();
      expect(m.comparisons.length).toBe(2);
      expect(m.comparisons.every((c) => c.equal)).toBe(true);
      expect(m.timesNs.length).toBe(2);
    }
    expect(report.ok).toBe(true);
    // One shared workspace used by both models.
    expect(report.application.sharedPools.some((p) => Object.keys(p.perModel).length === 2)).toBe(true);
  }, 300000);

  it('sees a corrupted program: the changed model differs, the other still matches', () => {
    const registry = new BackendRegistry();
    registerExampleBackends(registry);
    const app = compileApplication(MODELS, { backend: 'vanilla', registry });
    // kws's constants all zero: its outputs cannot be the interpreter's any more.
    const kws = app.models[1];
    const entry = kws.artifacts.files.find((f) => /static const uint8_t \w+\[\d+\][^=]*= \{/.test(f.content));
    expect(entry).toBeDefined();
    const corrupted = entry!.content.replace(/(static const uint8_t \w+\[\d+\][^=]*= )\{[\s\S]*?\};/g, '$1{0};');
    expect(corrupted).not.toBe(entry!.content);
    const files = kws.artifacts.files.map((f) => (f === entry ? { ...f, content: corrupted } : f));
    const broken = { ...app, models: [app.models[0], { ...kws, artifacts: { ...kws.artifacts, files } }] };

    const graphs = MODELS.map((m) => loadTfliteFile(m.model));
    const invocations = graphs.map((g, m) => randomInvocations(ioSpecs(g).inputs, 5 + m, 1));
    const main = writeApplicationHarnessMain(broken.models.map((m) => m.artifacts.metadata), broken.sharedPools, { invocations });
    expect(main).toContain('#include "uma_app.h"');
    const run = runApplication(broken, { invocations });
    expect(run.status).toBe(0);
    const same = graphs.map((g, m) => {
      const expected = createSession(g).invoke(invocations[m][0]);
      return expected.every((e, i) => Buffer.from(e).equals(Buffer.from(run.models[m].outputs[0][i])));
    });
    expect(same).toEqual([true, false]);
  }, 300000);
});
