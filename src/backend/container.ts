/**
 * The dependency-injection container backends are bound into.
 *
 * It is inversify's `Container` whenever inversify can be loaded. inversify 8 ships as ES
 * modules only: compiled uma-ts (CommonJS) loads it through Node's require(esm) (Node
 * >= 20.19), but Jest's sandboxed `require` on Node 20 cannot, so there the registry falls
 * back to `MapContainer`, which offers the same three calls with the same semantics.
 * This file imports nothing from the project so a test can load it in a plain Node process.
 */

/** The part of inversify's Container API the registry uses. */
export interface BackendContainer {
  bind<T>(id: symbol): { toConstantValue(value: T): unknown };
  isBound(id: symbol): boolean;
  get<T>(id: symbol): T;
}

export type ContainerKind = 'inversify' | 'map';

/** Constant bindings only, as the registry needs; mirrors inversify's behaviour for them. */
export class MapContainer implements BackendContainer {
  private readonly values = new Map<symbol, unknown>();

  bind<T>(id: symbol): { toConstantValue(value: T): unknown } {
    return {
      toConstantValue: (value: T) => {
        this.values.set(id, value);
        return value;
      },
    };
  }

  isBound(id: symbol): boolean {
    return this.values.has(id);
  }

  get<T>(id: symbol): T {
    if (!this.values.has(id)) throw new Error(`No bindings found for service: "${String(id)}"`);
    return this.values.get(id) as T;
  }
}

type ContainerCtor = new () => BackendContainer;

function loadInversify(): ContainerCtor | undefined {
  try {
    // A plain require keeps the output CommonJS; see the file comment for when it fails.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('reflect-metadata');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require('inversify') as { Container?: ContainerCtor };
    return typeof mod.Container === 'function' ? mod.Container : undefined;
  } catch {
    return undefined;
  }
}

let inversifyCtor: ContainerCtor | undefined | null = null;

/** A new container: inversify's when loadable, else a MapContainer. */
export function createBackendContainer(): { container: BackendContainer; kind: ContainerKind } {
  if (inversifyCtor === null) inversifyCtor = loadInversify();
  return inversifyCtor === undefined
    ? { container: new MapContainer(), kind: 'map' }
    : { container: new inversifyCtor(), kind: 'inversify' };
}
