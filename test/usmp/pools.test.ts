import { ConfigError } from '../../src/errors';
import {
  defaultPools,
  makePool,
  parsePoolsJson,
  poolsForTarget,
  validatePools,
  withDefaultConstantPool,
} from '../../src/usmp/pools';

describe('makePool', () => {
  it('fills defaults: workspace, alignment 16, external, no size cap, list targets rw', () => {
    const p = makePool({ name: 'sram', targets: ['c', 'accel'] });
    expect(p).toEqual({ name: 'sram', kind: 'workspace', targetAccess: { c: 'rw', accel: 'rw' }, alignment: 16, internal: false });
    expect('sizeHintBytes' in p).toBe(false);
  });

  it('gives listed targets ro access on constant pools and carries performance fields', () => {
    const p = makePool({
      name: 'flash',
      kind: 'constant',
      targets: ['c'],
      sizeHintBytes: 1024,
      clockFrequencyHz: 100,
      readBandwidthBytesPerCycle: 4,
      targetBurstBytes: { c: 8 },
    });
    expect(p.targetAccess).toEqual({ c: 'ro' });
    expect(p.sizeHintBytes).toBe(1024);
    expect(p.clockFrequencyHz).toBe(100);
    expect(p.readBandwidthBytesPerCycle).toBe(4);
    expect(p.targetBurstBytes).toEqual({ c: 8 });
  });

  it('rejects an alignment that is not a power of two and a name that is not a C identifier', () => {
    expect(() => makePool({ name: 'x', targets: ['c'], alignment: 12 })).toThrow(/alignment 12 is not a power of two/);
    expect(() => makePool({ name: 'my-pool', targets: ['c'] })).toThrow(ConfigError);
  });
});

describe('defaultPools', () => {
  it('is one internal unlimited workspace pool and one constant pool reachable by every target', () => {
    const [ws, cst, ...rest] = defaultPools(['c', 'accel', 'c']);
    expect(rest).toEqual([]);
    expect(ws).toMatchObject({ name: 'global_workspace', kind: 'workspace', internal: true, targetAccess: { c: 'rw', accel: 'rw' } });
    expect(cst).toMatchObject({ name: 'global_const_workspace', kind: 'constant', internal: true, targetAccess: { c: 'ro', accel: 'ro' } });
    expect(ws.sizeHintBytes).toBeUndefined();
  });

  it('adds the default constant pool only when the user named none', () => {
    const ws = makePool({ name: 'sram', targets: ['c'] });
    expect(withDefaultConstantPool([ws], ['c']).map((p) => p.name)).toEqual(['sram', 'global_const_workspace']);
    const flash = makePool({ name: 'flash', kind: 'constant', targets: ['c'] });
    expect(withDefaultConstantPool([ws, flash], ['c']).map((p) => p.name)).toEqual(['sram', 'flash']);
  });
});

describe('parsePoolsJson', () => {
  const good = JSON.stringify({
    workspacePools: [
      { name: 'l2_mem', targets: { c: 'rw' }, sizeHintBytes: 4096 },
      { name: 'act_mem', targets: ['c', 'accel'], alignment: 32, internal: true },
    ],
    constantPools: [{ name: 'wei_mem', targets: ['c', 'accel'] }],
  });

  it('reads workspace then constant pools in file order', () => {
    const pools = parsePoolsJson(good, 'pools.json', { knownTargets: ['c', 'accel'] });
    expect(pools.map((p) => [p.name, p.kind, p.alignment, p.internal])).toEqual([
      ['l2_mem', 'workspace', 16, false],
      ['act_mem', 'workspace', 32, true],
      ['wei_mem', 'constant', 16, false],
    ]);
    expect(pools[1].targetAccess).toEqual({ c: 'rw', accel: 'rw' });
    expect(pools[2].targetAccess).toEqual({ c: 'ro', accel: 'ro' });
  });

  it('names the file and JSON path of a schema violation', () => {
    const bad = JSON.stringify({ workspacePools: [{ name: 'a', targets: ['c'] }, { name: 'b', targets: ['c'], sizeHintBytes: 1.5 }] });
    expect(() => parsePoolsJson(bad, 'pools.json')).toThrow('pools.json: /workspacePools/1/sizeHintBytes: must be integer');
    try {
      parsePoolsJson(bad, 'pools.json');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).context).toMatchObject({ file: 'pools.json', jsonPath: '/workspacePools/1/sizeHintBytes' });
    }
  });

  it('rejects unknown properties, bad access modes and broken JSON', () => {
    expect(() => parsePoolsJson(JSON.stringify({ pools: [] }), 'p.json')).toThrow(/p\.json: \/pools/);
    expect(() => parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'a', targets: { c: 'wr' } }] }), 'p.json')).toThrow(
      /\/workspacePools\/0\/targets/,
    );
    expect(() => parsePoolsJson('{', 'p.json')).toThrow(/p\.json: not valid JSON/);
  });

  it('rejects duplicate names across workspace and constant pools', () => {
    const dup = JSON.stringify({ workspacePools: [{ name: 'm', targets: ['c'] }], constantPools: [{ name: 'm', targets: ['c'] }] });
    expect(() => parsePoolsJson(dup, 'pools.json')).toThrow(
      "pools.json: /constantPools/0/name: duplicate pool name 'm' (first declared at /workspacePools/0)",
    );
  });

  it('rejects a target that does not exist', () => {
    expect(() => parsePoolsJson(good, 'pools.json', { knownTargets: ['c'] })).toThrow(
      "pools.json: /workspacePools/1/targets: pool 'act_mem' names unknown target 'accel' (known: c)",
    );
  });
});

describe('poolsForTarget', () => {
  it('keeps order, needs rw for workspace buffers and any access for constants', () => {
    const pools = [
      makePool({ name: 'a', targets: { c: 'ro', accel: 'rw' } }),
      makePool({ name: 'b', targets: ['c'] }),
      makePool({ name: 'k', kind: 'constant', targets: { c: 'rw' } }),
    ];
    expect(poolsForTarget(pools, 'c', 'workspace').map((p) => p.name)).toEqual(['b']);
    expect(poolsForTarget(pools, 'accel', 'workspace').map((p) => p.name)).toEqual(['a']);
    expect(poolsForTarget(pools, 'c', 'constant').map((p) => p.name)).toEqual(['k']);
    expect(() => validatePools([pools[1], pools[1]])).toThrow(/duplicate pool name 'b'/);
  });
});
