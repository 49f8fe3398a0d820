/**
 * Backends whose runtime checks pointers against registered pools (accel, dma_local): the
 * generated run registers every pool the target reaches, and model I/O such a target uses in
 * place is planned in the workspace unless the caller opts out, in which case metadata.json
 * says where the application must put it.
 */
import { AccelBackend } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { compileModel } from '../../src/driver/compile';
import { schemaErrors } from '../../src/config/validateJson';
import { parsePoolsJson } from '../../src/usmp/pools';
import * as fs from 'fs';

const registry = new BackendRegistry();
registry.register(AccelBackend);
registry.register(DmaLocalBackend);
registry.register(VanillaBackend);

const bundled = (backend: string) => {
  const file = `backends/${backend}/pools.json`;
  return parsePoolsJson(fs.readFileSync(file, 'utf8'), file);
};
const lib0 = (files: readonly { path: string; content: string }[]): string => files.find((f) => f.path === 'src/default_lib0.c')!.content;

describe('pool registration by the generated run', () => {
  it('registers each pool dma_local reaches with its access, and plans the I/O it uses in place', () => {
    const r = compileModel('models/hello_world_int8.tflite', { backend: 'dma_local', registry, pools: bundled('dma_local') });
    expect(r.ioInWorkspace).toBe(true);
    expect(r.ioInWorkspaceReason).toMatch(/^model input 'serving_default_dense_input:0' is used in place by target dma_local/);
    const c = lib0(r.artifacts.files);
    expect(c).toContain('#include "dma_local_runtime.h"');
    expect(c).toMatch(/if \(\(dma_local_register_pool\("local_mem", local_mem, \d+, DMA_LOCAL_ACCESS_RW\)\) != 0\) return -1;/);
    expect(c).toMatch(/dma_local_register_pool\("flash", \(\(uint8_t\*\)flash\), \d+, DMA_LOCAL_ACCESS_RO\)/);
    const meta = r.artifacts.metadata;
    expect(meta.pools.map((p) => [p.name, p.registeredWith])).toEqual([
      ['sram', ['dma_local']],
      ['local_mem', ['dma_local']],
      ['flash', ['dma_local']],
    ]);
    expect(meta.inputs[0].pool).toBe('sram');
    expect(schemaErrors(meta, 'metadata.schema.json')).toBeUndefined();
  });

  it('with ioInWorkspace: false, metadata.json names the targets and pools application I/O must satisfy', () => {
    const r = compileModel('models/hello_world_int8.tflite', { backend: 'dma_local', registry, pools: bundled('dma_local'), ioInWorkspace: false });
    expect(r.ioInWorkspace).toBe(false);
    const input = r.artifacts.metadata.inputs[0];
    expect(input.pool).toBeUndefined();
    expect(input.usedBy).toEqual(['dma_local']);
    expect(input.requiredPools).toEqual(['sram']);
    expect(schemaErrors(r.artifacts.metadata, 'metadata.schema.json')).toBeUndefined();
  });

  it('leaves I/O to the application when no pool-checking runtime touches it (vanilla, accel on hello_world)', () => {
    for (const backend of ['vanilla', 'accel']) {
      const r = compileModel('models/hello_world_int8.tflite', { backend, registry, ...(backend === 'accel' ? { pools: bundled('accel') } : {}) });
      expect(r.ioInWorkspace).toBe(false);
      expect(r.ioInWorkspaceReason).toBeUndefined();
      expect(r.artifacts.metadata.inputs[0].pool).toBeUndefined();
    }
    const vanilla = compileModel('models/hello_world_int8.tflite', { backend: 'vanilla', registry });
    expect(lib0(vanilla.artifacts.files)).not.toMatch(/register_pool/);
  });
});
