/**
 * The dependency-injection container backends are bound into: inversify's `Container`.
 * inversify 7 is pinned because it ships a CommonJS build, which both compiled uma-ts and
 * Jest can load (8.x is ESM-only).
 */
import 'reflect-metadata';
import { Container } from 'inversify';

/** The part of inversify's Container API the registry uses (any inversify Container fits). */
export interface BackendContainer {
  bind<T>(id: symbol): { toConstantValue(value: T): unknown };
  isBound(id: symbol): boolean;
  get<T>(id: symbol): T;
}

export function createBackendContainer(): BackendContainer {
  return new Container() as unknown as BackendContainer;
}
