/**
 * The bundled backends as the whole-network suites compile for them: a registry with a
 * host-only backend (every operator on the CPU strategies) next to vanilla, accel and dma_local,
 * and each backend's pools as an application passes them (external), with model I/O in the
 * workspace where the accelerator reads it in place.
 */
import * as fs from 'fs';
import { AccelBackend } from '../../backends/accel';
import { DmaLocalBackend } from '../../backends/dma_local';
import { VanillaBackend } from '../../backends/vanilla';
import { BackendRegistry } from '../../src/backend/registry';
import { defaultPools, parsePoolsJson } from '../../src/usmp/pools';
import { PoolInfo } from '../../src/usmp/types';
import { HostOnlyBackend } from '../helpers/hostOnlyRegistry';

export function bundledBackendRegistry(): BackendRegistry {
  const registry = new BackendRegistry();
  registry.register(HostOnlyBackend);
  registry.register(VanillaBackend);
  registry.register(AccelBackend);
  registry.register(DmaLocalBackend);
  return registry;
}

const external = (pools: readonly PoolInfo[]): PoolInfo[] => pools.map((p) => ({ ...p, internal: false }));

/** A backend's pools (undefined for host_only: the CPU's defaults). */
export function bundledBackendPools(backend: string): PoolInfo[] | undefined {
  if (backend === 'host_only') return undefined;
  if (backend === 'vanilla') return external(defaultPools(['c', 'vanilla']));
  return external(parsePoolsJson(fs.readFileSync(`backends/${backend}/pools.json`, 'utf8'), `${backend} pools`));
}

/** Per bundled backend: its pools and whether model I/O goes in the workspace. */
export const BACKEND_SETUPS: Record<string, { pools?: () => PoolInfo[] | undefined; ioInWorkspace: boolean }> = {
  host_only: { ioInWorkspace: false },
  vanilla: { pools: () => bundledBackendPools('vanilla'), ioInWorkspace: false },
  accel: { pools: () => bundledBackendPools('accel'), ioInWorkspace: true },
  dma_local: { pools: () => bundledBackendPools('dma_local'), ioInWorkspace: true },
};
