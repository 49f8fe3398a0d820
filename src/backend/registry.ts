/**
 * The backend registry: an inversify container holding one UmaBackend per target name, and
 * the queries the rest of the compiler asks ("which strategy lowers conv2d on accel?",
 * "which TIR passes run at phase 1 on accel?").
 */
import { ConfigError, RegistrationError } from '../errors';
import { HOST_TARGET, OperatorStrategy } from '../lower/strategy';
import { CodegenHooks } from './codegen';
import { BackendContainer, createBackendContainer } from './container';
import { MemoryDecl, OperandConstraint } from './memory';
import { GraphPass, GraphPassPhase, TirPass, TirPassPhase, scopeTirPassToTarget } from './passes';
import { TargetAttrDecl, TargetAttrSource } from './targetAttrs';
import { UmaBackend } from './umaBackend';
import { checkTirPassResult, guardGraphPass, guardTirPass } from './userCode';

const TARGET_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Service identifier a backend is bound under in the container. */
export function backendServiceId(target: string): symbol {
  return Symbol.for(`uma-ts.backend.${target}`);
}

export interface TargetOperandConstraint {
  readonly target: string;
  readonly constraint: OperandConstraint;
}

export class BackendRegistry implements TargetAttrSource {
  private readonly order: string[] = [];
  readonly container: BackendContainer;

  /** Pass an inversify Container to share one with the rest of an application. */
  constructor(container?: BackendContainer) {
    this.container = container ?? createBackendContainer();
  }

  /** Registers a backend instance, or constructs one from its class. */
  register(backend: UmaBackend | (new () => UmaBackend)): UmaBackend {
    const instance = typeof backend === 'function' ? new backend() : backend;
    if (!(instance instanceof UmaBackend)) {
      throw new RegistrationError('only UmaBackend instances can be registered');
    }
    const target = instance.targetName;
    if (typeof target !== 'string' || !TARGET_NAME.test(target)) {
      throw new RegistrationError(`target name '${String(target)}' is not an identifier`, { target: String(target) });
    }
    if (target === HOST_TARGET) {
      throw new RegistrationError(`target name '${HOST_TARGET}' is reserved for the host CPU`, { target });
    }
    const id = backendServiceId(target);
    if (this.container.isBound(id)) {
      throw new RegistrationError(`target '${target}' is already registered`, { target });
    }
    // Validates the whole registration once more (e.g. attr names unusable in JSON).
    instance.manifest();
    this.container.bind<UmaBackend>(id).toConstantValue(instance);
    this.order.push(target);
    return instance;
  }

  has(target: string): boolean {
    return this.container.isBound(backendServiceId(target));
  }

  get(target: string): UmaBackend {
    if (!this.has(target)) {
      throw new ConfigError(`unknown target '${target}' (registered: ${this.order.join(', ') || 'none'})`, { target });
    }
    return this.container.get<UmaBackend>(backendServiceId(target));
  }

  /** Registered target names, in registration order. */
  targets(): readonly string[] {
    return [...this.order];
  }

  targetAttrs(target: string): readonly TargetAttrDecl[] {
    return this.get(target).targetAttrs();
  }

  /** The strategy `target` registered for `op`, or undefined (the host default then applies). */
  strategyFor(target: string, op: string): OperatorStrategy | undefined {
    if (target === HOST_TARGET || !this.has(target)) return undefined;
    return this.get(target).operatorStrategy(op);
  }

  /**
   * Graph passes of `phase` of one target, or of all targets in registration order. Like all
   * passes handed out here, each reports what its backend's code throws as that backend's
   * failure (BackendHookError, see `userCode.ts`).
   */
  graphPasses(phase: GraphPassPhase, target?: string): readonly GraphPass[] {
    const targets = target === undefined ? this.order : [target];
    return targets.flatMap((t) => this.get(t).graphPasses(phase).map((p) => guardGraphPass(t, p)));
  }

  /** The target's TIR passes of `phase`, each restricted to that target's PrimFuncs. */
  tirPasses(target: string, phase: TirPassPhase): readonly TirPass[] {
    return this.get(target)
      .tirPasses(phase)
      .map((p) => checkTirPassResult(target, scopeTirPassToTarget(guardTirPass(target, p), target), this.targets()));
  }

  /** Whole-module TIR passes of `phase` from every backend, in registration order. */
  globalTirPasses(phase: TirPassPhase): readonly TirPass[] {
    return this.order.flatMap((t) => this.get(t).globalTirPasses(phase).map((p) => checkTirPassResult(t, guardTirPass(t, p), this.targets())));
  }

  codegenFor(target: string): CodegenHooks | undefined {
    if (target === HOST_TARGET || !this.has(target)) return undefined;
    return this.get(target).codegenHooks();
  }

  memoryFor(target: string): MemoryDecl {
    return this.get(target).memoryDecl();
  }

  /** Operand constraints of one target, or of every target. */
  operandConstraints(target?: string): readonly TargetOperandConstraint[] {
    const targets = target === undefined ? this.order : [target];
    return targets.flatMap((t) => this.get(t).memoryDecl().operandConstraints.map((constraint) => ({ target: t, constraint })));
  }
}
