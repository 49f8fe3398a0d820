import { Container } from 'inversify';
import {
  BackendContainer,
  BackendRegistry,
  TirPass,
  UmaBackend,
  backendServiceId,
  forEachTargetFunction,
  validateManifest,
} from '../../src/backend';
import { ConfigError, RegistrationError } from '../../src/errors';
import { OperatorStrategy } from '../../src/lower/strategy';
import { evaluate, intImm, makeVar, primFunc, tirModule } from '../../src/ir/tir/builder';
import { PrimFunc, TirModule } from '../../src/ir/tir/nodes';
import { isConstant, isOp, wildcard } from '../../src/partition';
import { ConfigurableBackend } from '../partition/helpers';

const strategyA: OperatorStrategy = () => evaluate(intImm(1));
const strategyB: OperatorStrategy = () => evaluate(intImm(2));

function fn(target?: string): PrimFunc {
  return primFunc({ params: [makeVar('x', 'handle', 'int8')], body: evaluate(intImm(0)), attrs: target ? { target } : {} });
}

function sampleModule(): TirModule {
  return tirModule([
    ['__tvm_main__', { ...fn(), attrs: { runner_function: true } }],
    ['tvmgen_default_fused_add', fn('c')],
    ['accel_main_0', fn('accel')],
    ['npu_main_0', fn('npu')],
    ['accel_main_1', fn('accel')],
  ]);
}

/** A TIR pass that records what it saw and tags every function it was given. */
function taggingPass(name: string, phase: TirPass['phase'], seen: string[][]): TirPass {
  return {
    name,
    phase,
    run: (m) => {
      seen.push([...m.functions.keys()]);
      return { functions: new Map([...m.functions].map(([k, f]) => [k, { ...f, attrs: { ...f.attrs, [name]: true } }])) };
    },
  };
}

describe('BackendRegistry', () => {
  it('binds backends into the container by target name', () => {
    const shared = new Container();
    const reg = new BackendRegistry(shared as unknown as BackendContainer);
    const accel = reg.register(new ConfigurableBackend('accel'));
    expect(shared.get(backendServiceId('accel'))).toBe(accel);
    expect(reg.container.get(backendServiceId('accel'))).toBe(accel);
    expect(reg.get('accel')).toBe(accel);
    expect(() => reg.get('npu')).toThrow(new ConfigError(`unknown target 'npu' (registered: accel)`));
  });

  it('registers a backend class by constructing it', () => {
    class Npu extends UmaBackend {
      readonly targetName = 'npu';
      constructor() {
        super();
        this.registerPattern('dense', isOp('dense')(wildcard(), isConstant()));
      }
    }
    const reg = new BackendRegistry();
    const npu = reg.register(Npu);
    expect(npu).toBeInstanceOf(Npu);
    expect(reg.get('npu').patterns().map((p) => p.composite)).toEqual(['npu.dense']);
  });

  it('scopes operator strategies to their target', () => {
    const reg = new BackendRegistry();
    reg.register(new ConfigurableBackend('accel', (r) => r.strategy('conv2d', strategyA)));
    reg.register(new ConfigurableBackend('npu', (r) => r.strategy('conv2d', strategyB)));
    expect(reg.strategyFor('accel', 'conv2d')).toBe(strategyA);
    expect(reg.strategyFor('npu', 'conv2d')).toBe(strategyB);
    expect(reg.strategyFor('accel', 'dense')).toBeUndefined();
    expect(reg.strategyFor('c', 'conv2d')).toBeUndefined();
  });

  it('returns graph passes by phase in registration order', () => {
    const pass = (name: string, phase: 'pre_partitioning' | 'post_partitioning_1') => ({ name, phase, run: (m: never) => m });
    const reg = new BackendRegistry();
    reg.register(
      new ConfigurableBackend('accel', (r) => {
        r.graphPass('pre_partitioning', pass('a1', 'pre_partitioning'));
        r.graphPass('post_partitioning_1', pass('a2', 'post_partitioning_1'));
        r.graphPass('pre_partitioning', pass('a3', 'pre_partitioning'));
      }),
    );
    reg.register(new ConfigurableBackend('npu', (r) => r.graphPass('pre_partitioning', pass('n1', 'pre_partitioning'))));
    expect(reg.graphPasses('pre_partitioning').map((p) => p.name)).toEqual(['a1', 'a3', 'n1']);
    expect(reg.graphPasses('pre_partitioning', 'npu').map((p) => p.name)).toEqual(['n1']);
    expect(reg.graphPasses('post_partitioning_0')).toEqual([]);
  });

  it('runs target TIR passes on that target only and global passes on everything', () => {
    const seen: string[][] = [];
    const reg = new BackendRegistry();
    reg.register(
      new ConfigurableBackend('accel', (r) => {
        r.tirPass(1, taggingPass('accel_pass', 1, seen));
        r.globalTirPass(1, taggingPass('global_pass', 1, seen));
      }),
    );
    const ctx = { target: 'accel', attrs: {} };
    let mod = sampleModule();
    expect(reg.tirPasses('accel', 0)).toEqual([]);
    for (const p of reg.tirPasses('accel', 1)) mod = p.run(mod, ctx);
    expect(seen).toEqual([['accel_main_0', 'accel_main_1']]);
    expect([...mod.functions.keys()]).toEqual([...sampleModule().functions.keys()]);
    for (const [name, f] of mod.functions) expect([name, f.attrs.accel_pass === true]).toEqual([name, name.startsWith('accel_')]);
    for (const p of reg.globalTirPasses(1)) mod = p.run(mod, ctx);
    expect(seen[1]).toContain('__tvm_main__');
    expect(mod.functions.get('__tvm_main__')?.attrs.global_pass).toBe(true);
  });

  it('lets a scoped TIR pass add and drop its own functions without touching others', () => {
    const reg = new BackendRegistry();
    const split: TirPass = {
      name: 'split',
      phase: 2,
      run: (m) => tirModule([['accel_main_0', m.functions.get('accel_main_0') as PrimFunc], ['accel_kernel', fn('accel')]]),
    };
    reg.register(new ConfigurableBackend('accel', (r) => r.tirPass(2, split)));
    const out = reg.tirPasses('accel', 2)[0].run(sampleModule(), { target: 'accel', attrs: {} });
    expect([...out.functions.keys()]).toEqual(['__tvm_main__', 'tvmgen_default_fused_add', 'accel_main_0', 'npu_main_0', 'accel_kernel']);
  });

  it('forEachTargetFunction rewrites the target functions only', () => {
    const mod = sampleModule();
    const out = forEachTargetFunction(mod, 'npu', (f, name) => ({ ...f, attrs: { ...f.attrs, global_symbol: name } }));
    for (const [name, f] of out.functions) {
      expect(f === mod.functions.get(name)).toBe(name !== 'npu_main_0');
    }
    expect(out.functions.get('npu_main_0')?.attrs.global_symbol).toBe('npu_main_0');
    expect(forEachTargetFunction(mod, 'accel', (f) => f)).toBe(mod);
  });

  it('serves codegen hooks, memory and operand constraints per target', () => {
    const reg = new BackendRegistry();
    const includes = () => '#include "accel.h"\n';
    reg.register(
      new ConfigurableBackend('accel', (r) => {
        r.codegen({ includes });
        r.pattern('conv2d', isOp('conv2d')(wildcard(), isConstant()));
        r.memory({
          pools: [{ pool: 'sram', access: 'rw' }],
          operandConstraints: [{ op: 'accel.conv2d', allInputs: ['sram'], allOutputs: ['sram'] }],
        });
      }),
    );
    reg.register(
      new ConfigurableBackend('npu', (r) => {
        r.supportedOp('dense');
        r.memory({ pools: [{ pool: 'tcm', access: 'rw' }], operandConstraints: [{ op: 'dense', scratch: ['tcm'] }] });
      }),
    );
    expect(reg.codegenFor('accel')?.includes()).toBe('#include "accel.h"\n');
    expect(reg.codegenFor('npu')).toBeUndefined();
    expect(reg.codegenFor('c')).toBeUndefined();
    expect(reg.memoryFor('npu').pools).toEqual([{ pool: 'tcm', access: 'rw' }]);
    expect(reg.operandConstraints().map((c) => [c.target, c.constraint.op])).toEqual([
      ['accel', 'accel.conv2d'],
      ['npu', 'dense'],
    ]);
    expect(reg.operandConstraints('npu')).toHaveLength(1);
  });
});

describe('manifest', () => {
  const backend = () =>
    new ConfigurableBackend('accel', (r) => {
      r.attr('dimension', 16);
      r.pattern('conv2d', isOp('conv2d')(wildcard(), isConstant()));
      r.supportedOp('add');
      r.strategy('conv2d', strategyA);
      r.tirPass(1, { name: 'kernels', phase: 1, run: (m) => m });
      r.globalTirPass(3, { name: 'audit', phase: 3, run: (m) => m });
      r.codegen({ includes: () => '' });
      r.memory({ pools: [{ pool: 'sram', access: 'rw' }], operandConstraints: [{ op: 'conv2d', inputs: { 0: ['sram'] } }] });
    });

  it('describes everything registered and passes its schema', () => {
    const m = backend().manifest();
    expect(m).toEqual({
      target: 'accel',
      attrs: [{ name: 'dimension', type: 'int', default: 16 }],
      patterns: ['conv2d'],
      supportedOps: ['add'],
      graphPasses: [],
      tirPasses: [
        { name: 'kernels', phase: 1, scope: 'target' },
        { name: 'audit', phase: 3, scope: 'global' },
      ],
      operatorStrategies: ['conv2d'],
      codegen: true,
      pools: [{ pool: 'sram', access: 'rw' }],
      operandConstraints: [{ op: 'conv2d', inputs: { 0: ['sram'] } }],
    });
    expect(validateManifest(JSON.parse(JSON.stringify(m)))).toEqual(m);
  });

  it('rejects broken manifests with the JSON path', () => {
    const m = JSON.parse(JSON.stringify(backend().manifest()));
    m.tirPasses[0].phase = 7;
    expect(() => validateManifest(m, 'accel.json')).toThrow(new ConfigError('accel.json: /tirPasses/0/phase: must be one of 0, 1, 2, 3'));
    const n = JSON.parse(JSON.stringify(backend().manifest()));
    n.operandConstraints[0].inputs['0'] = ['no such pool!'];
    expect(() => validateManifest(n)).toThrow(ConfigError);
  });
});

describe('inversify container', () => {
  it('binds every backend in an inversify Container', () => {
    const reg = new BackendRegistry();
    expect(reg.container).toBeInstanceOf(Container);
    const accel = reg.register(new ConfigurableBackend('accel'));
    expect(reg.container.isBound(backendServiceId('accel'))).toBe(true);
    expect(reg.container.get(backendServiceId('accel'))).toBe(accel);
  });
});

describe('operand constraints name what the target offloads', () => {
  const memory = (op: string) => ({ pools: [{ pool: 'sram', access: 'rw' as const }], operandConstraints: [{ op, allInputs: ['sram'] }] });

  it('a misspelt operator is a registration error, with the close name suggested', () => {
    const reg = new BackendRegistry();
    const backend = new ConfigurableBackend('mynpu', (r) => {
      r.memory(memory('mynpu.conv2D'));
      r.pattern('conv2d', isOp('conv2d')(wildcard(), isConstant()));
    });
    expect(() => reg.register(backend)).toThrow(RegistrationError);
    expect(() => reg.register(backend)).toThrow(
      "target 'mynpu': operand constraint /operandConstraints/0 names 'mynpu.conv2D', which the target never offloads (did you mean 'mynpu.conv2d'?); known: mynpu.conv2d",
    );
    expect(reg.targets()).toEqual([]);
  });

  it('an operator the target neither supports nor has a strategy or pattern for', () => {
    const backend = new ConfigurableBackend('npu', (r) => {
      r.supportedOp('dense');
      r.memory(memory('conv2d'));
    });
    expect(() => new BackendRegistry().register(backend)).toThrow(/names 'conv2d', which the target never offloads; known: dense/);
  });

  it('an operator offloaded only inside a composite lowered whole: the constraint must name the composite', () => {
    const backend = new ConfigurableBackend('npu', (r) => {
      r.pattern('fc', isOp('dense')(wildcard(), isConstant()));
      r.strategy('npu.fc', () => evaluate(0));
      r.memory(memory('dense'));
    });
    expect(() => new BackendRegistry().register(backend)).toThrow(
      "target 'npu': operand constraint /operandConstraints/0 names 'dense', which the target runs only inside 'npu.fc', lowered whole by its composite strategy: constrain 'npu.fc' instead; known: npu.fc",
    );
  });

  it('accepts composites, supported operators, strategy keys and globs over them, in any registration order', () => {
    const reg = new BackendRegistry();
    reg.register(
      new ConfigurableBackend('npu', (r) => {
        r.memory({
          pools: [{ pool: 'sram', access: 'rw' }],
          operandConstraints: [
            { op: 'npu.conv2d', allInputs: ['sram'] },
            { op: 'dense', allInputs: ['sram'] },
            { op: 'npu.fetch*', allInputs: ['sram'] },
          ],
        });
        r.pattern('conv2d', isOp('conv2d')(wildcard(), isConstant()));
        r.supportedOp('dense');
        r.strategy('npu.fetcher', (() => undefined) as unknown as OperatorStrategy);
      }),
    );
    expect(reg.operandConstraints('npu')).toHaveLength(3);
  });
});

