import { BackendRegistry } from '../../src/backend/registry';
import { UmaBackend } from '../../src/backend/umaBackend';

/** A backend that offloads nothing: every operator runs as the CPU strategies' C. */
export class HostOnlyBackend extends UmaBackend {
  readonly targetName = 'host_only';
}

/** A registry holding only HostOnlyBackend (`backend: 'host_only'`). */
export function hostOnlyRegistry(): BackendRegistry {
  const r = new BackendRegistry();
  r.register(HostOnlyBackend);
  return r;
}
