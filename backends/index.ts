/**
 * The example backends bundled with uma-ts. Each is written against the public API only
 * (src/index.ts), as a user's backend would be.
 */
import { BackendRegistry } from '../src/index';
import { AccelBackend } from './accel';
import { DmaLocalBackend } from './dma_local';
import { VanillaBackend } from './vanilla';

export { AccelBackend } from './accel';
export { DmaLocalBackend } from './dma_local';
export { VanillaBackend } from './vanilla';

/** Registers every example backend into `registry`; returns the targets added. */
export function registerExampleBackends(registry: BackendRegistry): string[] {
  const added: string[] = [];
  for (const backend of [new AccelBackend(), new DmaLocalBackend(), new VanillaBackend()]) {
    if (registry.has(backend.targetName)) continue;
    registry.register(backend);
    added.push(backend.targetName);
  }
  return added;
}
