/**
 * The base class of every backend, as TVM's `UMABackend`: a subclass names its target and
 * calls the `register*` methods from its constructor.
 *
 *   class Accel extends UmaBackend {
 *     readonly targetName = 'accel';
 *     constructor() {
 *       super();
 *       this.registerTargetAttr('dimension', 16);
 *       this.registerPattern('conv2d', isOp('conv2d')(wildcard(), isConstant(), optionalArg(isConstant())));
 *       this.registerOperatorStrategy('conv2d', accelConv2d);
 *     }
 *   }
 *
 * Every registration is checked on the spot; mistakes throw RegistrationError naming the
 * target and the offending item.
 */
import { RegistrationError } from '../errors';
import { CallNode, GraphFunction, isKnownOp } from '../ir/graph';
import { OperatorStrategy } from '../lower/strategy';
import { PatternMatch } from '../partition/matcher';
import { DFPattern, hasCallRoot, patternOps } from '../partition/pattern';
import { CodegenHooks } from './codegen';
import { BackendManifest, checkedManifest } from './manifest';
import { checkConstrainedOps, MemoryDecl, validateMemoryDecl } from './memory';
import {
  GRAPH_PASS_PHASES,
  GraphPass,
  GraphPassPhase,
  TIR_PASS_PHASES,
  TirPass,
  TirPassPhase,
  isGraphPassPhase,
  isTirPassPhase,
} from './passes';
import { TargetAttrDecl, TargetAttrValue, declareTargetAttr } from './targetAttrs';

export type PatternPredicate = (match: PatternMatch) => boolean;

export interface PatternEntry {
  readonly name: string;
  /** `<target>.<name>`, the `Composite` attribute of functions this pattern creates. */
  readonly composite: string;
  readonly pattern: DFPattern;
  readonly predicate?: PatternPredicate;
}

/** Decides whether one call of a supported operator is offloaded. */
export type OpSupportPredicate = (call: CallNode, func: GraphFunction) => boolean;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export abstract class UmaBackend {
  /** The target name: `Compiler` of its external functions, `target` of its PrimFuncs. */
  abstract readonly targetName: string;

  private readonly attrDecls = new Map<string, TargetAttrDecl>();
  private readonly patternEntries: PatternEntry[] = [];
  private readonly supported = new Map<string, OpSupportPredicate | undefined>();
  private readonly graphPassList: GraphPass[] = [];
  private readonly strategies = new Map<string, OperatorStrategy>();
  private readonly tirPassList: TirPass[] = [];
  private readonly globalTirPassList: TirPass[] = [];
  private codegen?: CodegenHooks;
  private memory?: MemoryDecl;

  private fail(message: string, extra: Record<string, unknown> = {}): never {
    throw new RegistrationError(`target '${this.targetName}': ${message}`, { target: this.targetName, ...extra });
  }

  // ------------------------------------------------------------------ registration

  /** A target attribute with its default; its type (string, int, float, boolean) is the default's. */
  protected registerTargetAttr(name: string, defaultValue: TargetAttrValue): void {
    this.attrDecls.set(name, declareTargetAttr(this.targetName, name, defaultValue, this.attrDecls));
  }

  /**
   * A pattern whose matches become composite functions `<target>.<name>`. Patterns are tried
   * in registration order; `predicate` can still reject a structural match.
   */
  protected registerPattern(name: string, pattern: DFPattern, predicate?: PatternPredicate): void {
    if (!NAME.test(name)) this.fail(`pattern name '${name}' is not an identifier`, { pattern: name });
    if (this.patternEntries.some((p) => p.name === name)) {
      this.fail(`pattern '${name}' is already registered`, { pattern: name });
    }
    if (!(pattern instanceof DFPattern)) this.fail(`pattern '${name}' is not a DFPattern`, { pattern: name });
    if (!hasCallRoot(pattern)) {
      this.fail(`pattern '${name}' must have an operator call at its root, e.g. isOp('conv2d')(...)`, { pattern: name });
    }
    for (const op of patternOps(pattern)) {
      if (!isKnownOp(op)) this.fail(`pattern '${name}' uses unknown operator '${op}'`, { pattern: name, op });
    }
    const entry: PatternEntry = { name, composite: `${this.targetName}.${name}`, pattern, predicate };
    this.patternEntries.push(entry);
  }

  /**
   * Offloads single calls of `op` outside any pattern (what TVM's `target.<op>` annotation
   * functions do). Patterns alone never make a bare operator offloadable.
   */
  protected registerSupportedOp(op: string, predicate?: OpSupportPredicate): void {
    if (!isKnownOp(op)) this.fail(`supported operator '${op}' is not a known operator`, { op });
    if (this.supported.has(op)) this.fail(`operator '${op}' is already registered as supported`, { op });
    this.supported.set(op, predicate);
  }

  protected registerGraphPass(phase: GraphPassPhase, pass: GraphPass): void {
    if (!isGraphPassPhase(phase)) {
      this.fail(`unknown graph pass phase '${String(phase)}' (expected ${GRAPH_PASS_PHASES.join(', ')})`);
    }
    if (pass.phase !== phase) {
      this.fail(`graph pass '${pass.name}' declares phase '${pass.phase}' but is registered for '${phase}'`);
    }
    this.graphPassList.push(pass);
  }

  /**
   * How this target lowers `op` (an operator, or a composite `<target>.<pattern>` lowered as
   * one unit). Scoped to this target: other targets' `op` are unaffected.
   */
  protected registerOperatorStrategy(op: string, strategy: OperatorStrategy): void {
    const composite = op.startsWith(`${this.targetName}.`);
    if (!composite && !isKnownOp(op)) this.fail(`operator strategy for unknown operator '${op}'`, { op });
    if (typeof strategy !== 'function') this.fail(`operator strategy for '${op}' is not a function`, { op });
    if (this.strategies.has(op)) this.fail(`an operator strategy for '${op}' is already registered`, { op });
    this.strategies.set(op, strategy);
  }

  /** A TIR pass that sees only this target's PrimFuncs (`attrs.target === targetName`). */
  protected registerTirPass(phase: TirPassPhase, pass: TirPass): void {
    this.checkTirPhase(phase, pass);
    this.tirPassList.push(pass);
  }

  /** A TIR pass that sees the whole module, `__tvm_main__` and host functions included. */
  protected registerGlobalTirPass(phase: TirPassPhase, pass: TirPass): void {
    this.checkTirPhase(phase, pass);
    this.globalTirPassList.push(pass);
  }

  protected registerCodegen(hooks: CodegenHooks): void {
    if (this.codegen !== undefined) this.fail('codegen is already registered');
    if (typeof hooks.includes !== 'function') this.fail('codegen hooks need an includes() function');
    this.codegen = hooks;
  }

  /** Pools the target reaches and where its operators' operands may live (validated by schema). */
  protected registerMemory(decl: MemoryDecl): void {
    if (this.memory !== undefined) this.fail('memory is already registered');
    this.memory = validateMemoryDecl(this.targetName, decl);
  }

  private checkTirPhase(phase: TirPassPhase, pass: TirPass): void {
    if (!isTirPassPhase(phase)) {
      this.fail(`TIR pass phase ${String(phase)} is not one of ${TIR_PASS_PHASES.join(', ')}`);
    }
    if (pass.phase !== phase) {
      this.fail(`TIR pass '${pass.name}' declares phase ${pass.phase} but is registered for phase ${phase}`);
    }
  }

  // ------------------------------------------------------------------ queries

  targetAttrs(): readonly TargetAttrDecl[] {
    return [...this.attrDecls.values()];
  }

  /** Attribute defaults by name. */
  defaultAttrs(): Readonly<Record<string, TargetAttrValue>> {
    return Object.fromEntries([...this.attrDecls.values()].map((d) => [d.name, d.default]));
  }

  patterns(): readonly PatternEntry[] {
    return [...this.patternEntries];
  }

  supportedOps(): ReadonlyMap<string, OpSupportPredicate | undefined> {
    return new Map(this.supported);
  }

  graphPasses(phase?: GraphPassPhase): readonly GraphPass[] {
    return this.graphPassList.filter((p) => phase === undefined || p.phase === phase);
  }

  operatorStrategy(op: string): OperatorStrategy | undefined {
    return this.strategies.get(op);
  }

  operatorStrategies(): ReadonlyMap<string, OperatorStrategy> {
    return new Map(this.strategies);
  }

  /** This target's own TIR passes (unscoped; BackendRegistry.tirPasses scopes them). */
  tirPasses(phase?: TirPassPhase): readonly TirPass[] {
    return this.tirPassList.filter((p) => phase === undefined || p.phase === phase);
  }

  globalTirPasses(phase?: TirPassPhase): readonly TirPass[] {
    return this.globalTirPassList.filter((p) => phase === undefined || p.phase === phase);
  }

  codegenHooks(): CodegenHooks | undefined {
    return this.codegen;
  }

  memoryDecl(): MemoryDecl {
    return this.memory ?? { pools: [], operandConstraints: [] };
  }

  /** What this target can be handed: its composites, supported operators and strategy keys. */
  offloadedNames(): string[] {
    return [...new Set([...this.patternEntries.map((p) => p.composite), ...this.supported.keys(), ...this.strategies.keys()])];
  }

  /** Operator -> composites holding it whose own strategy lowers them whole (for error hints). */
  private opsInsideWholeComposites(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const p of this.patternEntries) {
      if (!this.strategies.has(p.composite)) continue;
      for (const op of patternOps(p.pattern)) out.set(op, [...(out.get(op) ?? []), p.composite]);
    }
    return out;
  }

  /** Everything registered, as JSON valid against `schemas/backend-manifest.schema.json`. */
  manifest(): BackendManifest {
    const mem = this.memoryDecl();
    // Checked here, once everything is registered: registerMemory may come before the patterns.
    checkConstrainedOps(this.targetName, mem, this.offloadedNames(), this.opsInsideWholeComposites());
    return checkedManifest(this.targetName, {
      target: this.targetName,
      attrs: this.targetAttrs().map((d) => ({ name: d.name, type: d.type, default: d.default })),
      patterns: this.patternEntries.map((p) => p.name),
      supportedOps: [...this.supported.keys()],
      graphPasses: this.graphPassList.map((p) => ({ name: p.name, phase: p.phase })),
      tirPasses: [
        ...this.tirPassList.map((p) => ({ name: p.name, phase: p.phase, scope: 'target' as const })),
        ...this.globalTirPassList.map((p) => ({ name: p.name, phase: p.phase, scope: 'global' as const })),
      ],
      operatorStrategies: [...this.strategies.keys()],
      codegen: this.codegen !== undefined,
      pools: mem.pools.map((p) => ({ pool: p.pool, access: p.access })),
      operandConstraints: JSON.parse(JSON.stringify(mem.operandConstraints)),
    });
  }
}
