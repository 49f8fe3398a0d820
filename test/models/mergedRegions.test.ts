/**
 * Merged regions (a backend's consecutive offloaded operators in one function, UMA's default)
 * plan no more workspace than the same operators called one by one: a buffer handed to a
 * function is live where the function's body touches it, so a merged call's input dies after
 * its first operator reads it and its output lives from its last operator's write.
 */
import { compileModel } from '../../src/driver/compile';
import { importTflite } from '../../src/frontend/tflite';
import { buildNet } from './netBuilder';
import { floats, NETWORKS } from './realisticNets';
import { bundledBackendRegistry } from './bundledBackends';

const registry = bundledBackendRegistry();

describe('merged regions and the workspace', () => {
  it.each(['mobilenet_v3_small', 'unet_segmenter', 'detector_head'])('%s (int8, vanilla): merged no larger than unmerged', (name) => {
    const n = NETWORKS.find((x) => x.name === name)!;
    const b = buildNet(n.net, 'int8', n.inputs(), 17);
    const graph = importTflite(b.model, 'net.tflite');
    const workspace = (mergeRegions: boolean) => {
      const r = compileModel(graph, { backend: 'vanilla', registry, mergeRegions, ioInWorkspace: true });
      return r.usmp.pools.filter((p) => p.pool.kind === 'workspace').reduce((a, p) => a + p.sizeBytes, 0);
    };
    expect(workspace(true)).toBeLessThanOrEqual(workspace(false));
  });

  it('a chain of dense layers offloaded as one function plans what the layers called one by one do', () => {
    const b = buildNet(
      (nb) => {
        let x = nb.input('x', [1, 256]);
        for (const [i, units] of [64, 16, 64, 256].entries()) x = nb.fc(x, `fc${i}`, units, { activation: 'RELU' });
        nb.output(x);
      },
      'int8',
      { values: [floats([1, 256], 3)] },
      17,
    );
    const graph = importTflite(b.model, 'fc.tflite');
    // Model I/O in the workspace: the merged call's input and output are planned buffers too.
    const merged = compileModel(graph, { backend: 'vanilla', registry, ioInWorkspace: true });
    const unmerged = compileModel(graph, { backend: 'vanilla', registry, mergeRegions: false, ioInWorkspace: true });
    const sum = (r: typeof merged) => r.usmp.pools.filter((p) => p.pool.kind === 'workspace').reduce((a, p) => a + p.sizeBytes, 0);
    expect(sum(merged)).toBe(sum(unmerged));
  });
});
