import { BackendRegistry, BUILTIN_TARGET_ATTRS, GraphPass, TirPass } from '../../src/backend';
import { RegistrationError } from '../../src/errors';
import { isConstant, isOp, isVar, optionalArg, wildcard } from '../../src/partition';
import { ConfigurableBackend, Registrar } from '../partition/helpers';

function registrationError(setup: (r: Registrar) => void, target = 'accel'): RegistrationError {
  try {
    new ConfigurableBackend(target, setup);
  } catch (e) {
    expect(e).toBeInstanceOf(RegistrationError);
    return e as RegistrationError;
  }
  throw new Error('registration was accepted');
}

const graphPass = (name: string, phase: GraphPass['phase']): GraphPass => ({ name, phase, run: (m) => m });
const tirPass = (name: string, phase: TirPass['phase']): TirPass => ({ name, phase, run: (m) => m });

describe('target attributes', () => {
  it.each([
    [{}, 'object'],
    [[1], 'array'],
    [null, 'null'],
    [undefined, 'undefined'],
    [NaN, 'non-finite number'],
    [() => 1, 'function'],
  ])('rejects default %p (%s)', (value, described) => {
    const e = registrationError((r) => r.attr('dimension', value));
    expect(e.message).toBe(
      `target 'accel': attribute 'dimension' has unsupported default type ${described}; only string, number and boolean are supported`,
    );
    expect(e.context).toMatchObject({ target: 'accel', attr: 'dimension' });
  });

  it.each(['keys', 'device', 'model', 'mcpu', 'mattr', 'from_device', 'libs', 'tag', 'target_device_type'])(
    'rejects the built-in attribute name %s',
    (name) => {
      expect(BUILTIN_TARGET_ATTRS).toContain(name);
      expect(registrationError((r) => r.attr(name, 'x')).message).toBe(
        `target 'accel': attribute '${name}' clashes with a built-in target attribute`,
      );
    },
  );

  it('rejects a duplicate attribute and a non-identifier name', () => {
    expect(
      registrationError((r) => {
        r.attr('dimension', 16);
        r.attr('dimension', 8);
      }).message,
    ).toBe(`target 'accel': attribute 'dimension' is already registered`);
    expect(registrationError((r) => r.attr('9lives', 1)).message).toBe(
      `target 'accel': attribute name '9lives' is not an identifier (letters, digits, '_' or '-', not starting with a digit)`,
    );
  });

  it.each(['__proto__', 'constructor', 'toString'])('rejects %s, a property every JavaScript object has', (name) => {
    expect(registrationError((r) => r.attr(name, 1)).message).toBe(`target 'accel': attribute name '${name}' is reserved (a property of every JavaScript object)`);
  });

  it('records the declared types from the defaults', () => {
    const b = new ConfigurableBackend('accel', (r) => {
      r.attr('dimension', 16);
      r.attr('scale', 0.5);
      r.attr('fast', false);
      r.attr('mode', 'dense');
    });
    expect(b.targetAttrs().map((d) => [d.name, d.type, d.default])).toEqual([
      ['dimension', 'int', 16],
      ['scale', 'float', 0.5],
      ['fast', 'boolean', false],
      ['mode', 'string', 'dense'],
    ]);
    expect(b.defaultAttrs()).toEqual({ dimension: 16, scale: 0.5, fast: false, mode: 'dense' });
  });
});

describe('patterns', () => {
  const conv = () => isOp('conv2d')(wildcard(), isConstant());
  it('rejects duplicates, non-call roots, unknown operators and bad names', () => {
    expect(
      registrationError((r) => {
        r.pattern('conv2d', conv());
        r.pattern('conv2d', conv());
      }).message,
    ).toBe(`target 'accel': pattern 'conv2d' is already registered`);
    expect(registrationError((r) => r.pattern('any', wildcard().or(isVar()))).message).toBe(
      `target 'accel': pattern 'any' must have an operator call at its root, e.g. isOp('conv2d')(...)`,
    );
    expect(registrationError((r) => r.pattern('half', conv().or(wildcard()))).message).toBe(
      `target 'accel': pattern 'half' must have an operator call at its root, e.g. isOp('conv2d')(...)`,
    );
    expect(registrationError((r) => r.pattern('c3', isOp('conv3d')(wildcard()))).message).toBe(
      `target 'accel': pattern 'c3' uses unknown operator 'conv3d'`,
    );
    expect(registrationError((r) => r.pattern('conv.2d', conv())).message).toBe(
      `target 'accel': pattern name 'conv.2d' is not an identifier`,
    );
  });

  it('rejects a required argument after an optional one', () => {
    expect(() => isOp('conv2d')(wildcard(), optionalArg(isConstant()), isConstant())).toThrow(
      new RegistrationError(`pattern isOp('conv2d'): argument 2 is required but follows an optional argument`),
    );
  });

  it('keeps registration order and names composites <target>.<name>', () => {
    const b = new ConfigurableBackend('accel', (r) => {
      r.pattern('conv2d_add', isOp('add')(conv(), wildcard()));
      r.pattern('conv2d', conv());
    });
    expect(b.patterns().map((p) => [p.name, p.composite])).toEqual([
      ['conv2d_add', 'accel.conv2d_add'],
      ['conv2d', 'accel.conv2d'],
    ]);
  });
});

describe('passes, strategies, codegen', () => {
  it('rejects unknown or mismatched graph pass phases', () => {
    expect(registrationError((r) => r.graphPass('post' as never, graphPass('p', 'post' as never))).message).toBe(
      `target 'accel': unknown graph pass phase 'post' (expected pre_partitioning, post_partitioning_0, post_partitioning_1)`,
    );
    expect(registrationError((r) => r.graphPass('pre_partitioning', graphPass('fold', 'post_partitioning_1'))).message).toBe(
      `target 'accel': graph pass 'fold' declares phase 'post_partitioning_1' but is registered for 'pre_partitioning'`,
    );
  });

  it('rejects TIR pass phases outside 0..3 and mismatches, for both kinds', () => {
    expect(registrationError((r) => r.tirPass(4 as never, tirPass('t', 4 as never))).message).toBe(
      `target 'accel': TIR pass phase 4 is not one of 0, 1, 2, 3`,
    );
    expect(registrationError((r) => r.globalTirPass(1, tirPass('g', 2))).message).toBe(
      `target 'accel': TIR pass 'g' declares phase 2 but is registered for phase 1`,
    );
  });

  it('rejects duplicate or unknown operator strategies and accepts composite names', () => {
    const s = () => ({ kind: 'SeqStmt', seq: [] }) as never;
    expect(
      registrationError((r) => {
        r.strategy('conv2d', s);
        r.strategy('conv2d', s);
      }).message,
    ).toBe(`target 'accel': an operator strategy for 'conv2d' is already registered`);
    expect(registrationError((r) => r.strategy('conv3d', s)).message).toBe(
      `target 'accel': operator strategy for unknown operator 'conv3d'`,
    );
    const b = new ConfigurableBackend('accel', (r) => r.strategy('accel.conv2d_add', s));
    expect([...b.operatorStrategies().keys()]).toEqual(['accel.conv2d_add']);
  });

  it('rejects unknown supported ops and a second codegen', () => {
    expect(registrationError((r) => r.supportedOp('gelu')).message).toBe(
      `target 'accel': supported operator 'gelu' is not a known operator`,
    );
    expect(
      registrationError((r) => {
        r.codegen({ includes: () => '' });
        r.codegen({ includes: () => '' });
      }).message,
    ).toBe(`target 'accel': codegen is already registered`);
  });
});

describe('memory declaration', () => {
  const pools = [
    { pool: 'sram', access: 'rw' as const },
    { pool: 'flash', access: 'ro' as const },
  ];
  it('accepts a valid declaration and stores it', () => {
    const b = new ConfigurableBackend('accel', (r) =>
      r.memory({
        pools,
        operandConstraints: [
          { op: 'accel.accel_input_fetcher', allInputs: ['sram'], outputs: { 0: ['sram'] } },
          { op: 'conv2d', inputs: { 1: ['flash', 'sram'] }, scratch: ['sram'] },
        ],
      }),
    );
    expect(b.memoryDecl().operandConstraints.map((c) => c.op)).toEqual(['accel.accel_input_fetcher', 'conv2d']);
  });

  it.each([
    [{ pools: [{ pool: 'sram', access: 'rx' }], operandConstraints: [] }, `/pools/0/access: must be one of "rw", "ro"`],
    [{ pools, operandConstraints: [{ op: 'conv2d', inputs: { first: ['sram'] } }] }, `/operandConstraints/0/inputs: must match pattern "^(0|[1-9][0-9]*)$"`],
    [{ pools, operandConstraints: [{ op: 'conv2d', inputs: { 0: 'sram' } }] }, `/operandConstraints/0/inputs/0: must be array`],
    [{ pools, operandConstraints: [{ op: 'conv2d', scratch: [] }] }, `/operandConstraints/0/scratch: must NOT have fewer than 1 items`],
    [{ pools, operandConstraints: [{ op: 'conv2d', scratch: ['sram'], pinned: ['sram'] }] }, `/operandConstraints/0/pinned: is not an allowed property`],
    [{ pools, operandConstraints: [{ op: 'conv2d' }] }, `/operandConstraints/0: must have at least one of 'inputs', 'outputs', 'scratch', 'allInputs', 'allOutputs'`],
    [{ pools }, `/: must have property 'operandConstraints'`],
  ])('schema rejects %j', (decl, where) => {
    const e = registrationError((r) => r.memory(decl as never));
    expect(e.message).toBe(`target 'accel': memory declaration ${where}`);
    expect(e.context.jsonPath).toBe(where.slice(0, where.indexOf(':')));
  });

  it('rejects undeclared pools, writes to read-only pools, duplicates', () => {
    expect(registrationError((r) => r.memory({ pools, operandConstraints: [{ op: 'dense', allInputs: ['dram'] }] })).message).toBe(
      `target 'accel': operand constraint for 'dense' (allInputs) names pool 'dram', which the target does not declare`,
    );
    expect(registrationError((r) => r.memory({ pools, operandConstraints: [{ op: 'dense', outputs: { 0: ['flash'] } }] })).message).toBe(
      `target 'accel': operand constraint for 'dense' (output 0) is written but pool 'flash' is read-only for the target`,
    );
    expect(registrationError((r) => r.memory({ pools, operandConstraints: [{ op: 'dense', scratch: ['flash'] }] })).message).toBe(
      `target 'accel': operand constraint for 'dense' (scratch) is written but pool 'flash' is read-only for the target`,
    );
    expect(
      registrationError((r) =>
        r.memory({
          pools,
          operandConstraints: [
            { op: 'dense', allInputs: ['sram'] },
            { op: 'dense', allOutputs: ['sram'] },
          ],
        }),
      ).message,
    ).toBe(`target 'accel': operand constraints for 'dense' are given twice`);
    expect(
      registrationError((r) => r.memory({ pools, operandConstraints: [{ op: 'dense', inputs: { 0: ['sram'] }, optionalInputs: [2] }] })).message,
    ).toBe(`target 'accel': operand constraint for 'dense' lists input 2 as optional, but constrains no input 2`);
    expect(registrationError((r) => r.memory({ pools: [...pools, pools[0]], operandConstraints: [] })).message).toBe(
      `target 'accel': pool 'sram' is declared twice`,
    );
    expect(
      registrationError((r) => {
        r.memory({ pools, operandConstraints: [] });
        r.memory({ pools, operandConstraints: [] });
      }).message,
    ).toBe(`target 'accel': memory is already registered`);
  });
});

describe('registry registration', () => {
  it('rejects duplicate targets, the host name and non-identifiers', () => {
    const reg = new BackendRegistry();
    reg.register(new ConfigurableBackend('accel'));
    expect(() => reg.register(new ConfigurableBackend('accel'))).toThrow(
      new RegistrationError(`target 'accel' is already registered`),
    );
    expect(() => reg.register(new ConfigurableBackend('c'))).toThrow(
      new RegistrationError(`target name 'c' is reserved for the host CPU`),
    );
    expect(() => reg.register(new ConfigurableBackend('my-accel'))).toThrow(
      new RegistrationError(`target name 'my-accel' is not an identifier`),
    );
    expect(reg.targets()).toEqual(['accel']);
  });
});
