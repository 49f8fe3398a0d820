/**
 * The backend manifest: a JSON summary of what a backend registered, for tooling and docs
 * (`schemas/backend-manifest.schema.json`).
 */
import { ConfigError, RegistrationError } from '../errors';
import { OperandConstraint, PoolAccessDecl } from './memory';
import { GraphPassPhase, TirPassPhase } from './passes';
import { TargetAttrType, TargetAttrValue } from './targetAttrs';
import { checkManifest } from './schemaValidation';

export interface BackendManifest {
  readonly target: string;
  readonly attrs: ReadonlyArray<{ readonly name: string; readonly type: TargetAttrType; readonly default: TargetAttrValue }>;
  readonly patterns: readonly string[];
  readonly supportedOps: readonly string[];
  readonly graphPasses: ReadonlyArray<{ readonly name: string; readonly phase: GraphPassPhase }>;
  readonly tirPasses: ReadonlyArray<{
    readonly name: string;
    readonly phase: TirPassPhase;
    readonly scope: 'target' | 'global';
  }>;
  readonly operatorStrategies: readonly string[];
  readonly codegen: boolean;
  readonly pools: readonly PoolAccessDecl[];
  readonly operandConstraints: readonly OperandConstraint[];
}

/** Validates a manifest a backend produced; a failure is a registration bug of that backend. */
export function checkedManifest(target: string, manifest: BackendManifest): BackendManifest {
  const problem = checkManifest(manifest);
  if (problem !== undefined) {
    throw new RegistrationError(`target '${target}': manifest ${problem.jsonPath}: ${problem.message}`, {
      target,
      jsonPath: problem.jsonPath,
    });
  }
  return manifest;
}

/** Validates a manifest read from a file. */
export function validateManifest(data: unknown, file = '<manifest>'): BackendManifest {
  const problem = checkManifest(data);
  if (problem !== undefined) {
    throw new ConfigError(`${file}: ${problem.jsonPath}: ${problem.message}`, { file, jsonPath: problem.jsonPath });
  }
  return data as BackendManifest;
}
