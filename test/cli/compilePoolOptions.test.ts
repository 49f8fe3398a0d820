import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ConfigError, FileAccessError } from '../../src/errors';
import { poolsFromFlags, resolvePools } from '../../src/cli/poolOptions';

const TARGETS = ['c', 'accel'];

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  throw new Error('expected a ConfigError');
}

describe('tvmc-style pool flags', () => {
  it('builds workspace and constant pools with targets, access, size and alignment', () => {
    const pools = poolsFromFlags(
      {
        workspacePools: 'sram,dtcm',
        workspacePoolsTargets: ['sram:c,accel=ro', 'dtcm:accel'],
        workspacePoolsSizeHintBytes: ['sram:1024'],
        workspacePoolsAlignment: ['dtcm:64'],
        constantPools: 'flash',
        constantPoolsTargets: ['flash:c,accel'],
      },
      TARGETS,
    );
    expect(pools.map((p) => [p.name, p.kind])).toEqual([
      ['sram', 'workspace'],
      ['dtcm', 'workspace'],
      ['flash', 'constant'],
    ]);
    expect(pools[0].targetAccess).toEqual({ c: 'rw', accel: 'ro' });
    expect(pools[0].sizeHintBytes).toBe(1024);
    expect(pools[0].alignment).toBe(16);
    expect(pools[1].targetAccess).toEqual({ accel: 'rw' });
    expect(pools[1].alignment).toBe(64);
    expect(pools[1].sizeHintBytes).toBeUndefined();
    // Constant pools default to read-only access; named pools belong to the application.
    expect(pools[2].targetAccess).toEqual({ c: 'ro', accel: 'ro' });
    expect(pools.every((p) => p.internal === false)).toBe(true);
  });

  it.each([
    [{ workspacePools: 'sram' }, '--workspace-pools-targets', "pool 'sram' needs its targets"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:c'], workspacePoolsSizeHintBytes: ['dram:10'] }, '--workspace-pools-size-hint-bytes', "pool 'dram' is not declared"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:c'], workspacePoolsSizeHintBytes: ['sram:1k'] }, '--workspace-pools-size-hint-bytes', "'1k' is not a non-negative integer"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:c', 'sram:accel'] }, '--workspace-pools-targets', "pool 'sram' is given twice"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:npu'] }, '--workspace-pools-targets', "unknown target 'npu'"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:c=wo'] }, '--workspace-pools-targets', "'c=wo' is not a target"],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram'] }, '--workspace-pools-targets', 'expected <pool>:<value>'],
    [{ workspacePools: 'sram,', workspacePoolsTargets: ['sram:c'] }, '--workspace-pools', 'empty pool name'],
    [{ workspacePools: 'sram', workspacePoolsTargets: ['sram:c'], workspacePoolsAlignment: ['sram:24'] }, '--workspace-pools', 'not a power of two'],
    [{ constantPools: 'flash', constantPoolsTargets: ['flash:c'], workspacePools: 'flash', workspacePoolsTargets: ['flash:c'] }, '--constant-pools', "duplicate pool name 'flash'"],
    [{ workspacePools: 'my-pool', workspacePoolsTargets: ['my-pool:c'] }, '--workspace-pools', 'must be a C identifier'],
  ])('rejects %j naming %s', (flags, flag, message) => {
    const e = configError(() => poolsFromFlags(flags, TARGETS));
    expect(e.message.startsWith(flag + ':')).toBe(true);
    expect(e.message).toContain(message);
  });
});

describe('resolvePools', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-pools-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  function file(name: string, data: unknown): string {
    const p = path.join(dir, name);
    fs.writeFileSync(p, typeof data === 'string' ? data : JSON.stringify(data));
    return p;
  }

  it('prefers --pools, then flags, then the bundled file, then the pipeline default', () => {
    const user = file('user.json', { workspacePools: [{ name: 'u', targets: ['c'] }] });
    const bundled = file('bundled.json', { workspacePools: [{ name: 'b', targets: ['c'] }] });
    const flags = { workspacePools: 'f', workspacePoolsTargets: ['f:c'] };
    expect(resolvePools({ poolsFile: user, flags: {}, bundledPoolsFile: bundled, knownTargets: TARGETS }).pools!.map((p) => p.name)).toEqual(['u']);
    expect(resolvePools({ flags, bundledPoolsFile: bundled, knownTargets: TARGETS }).pools!.map((p) => p.name)).toEqual(['f']);
    const fromBundle = resolvePools({ flags: {}, bundledPoolsFile: bundled, knownTargets: TARGETS });
    expect(fromBundle.pools!.map((p) => p.name)).toEqual(['b']);
    expect(fromBundle.origin).toBe(bundled);
    const none = resolvePools({ flags: {}, knownTargets: TARGETS });
    expect(none.pools).toBeUndefined();
  });

  it('refuses --pools together with pool flags', () => {
    const user = file('user2.json', { workspacePools: [{ name: 'u', targets: ['c'] }] });
    const e = configError(() =>
      resolvePools({ poolsFile: user, flags: { workspacePools: 'f', workspacePoolsTargets: ['f:c'] }, knownTargets: TARGETS }),
    );
    expect(e.message).toContain('not both');
  });

  it('names the file and the JSON path of a broken pools file, and missing files', () => {
    const broken = file('broken.json', { workspacePools: [{ name: 'a', targets: ['c'] }, { name: 'b', targets: ['c'], sizeHintBytes: 'big' }] });
    const e = configError(() => resolvePools({ poolsFile: broken, flags: {}, knownTargets: TARGETS }));
    expect(e.message).toContain(broken);
    expect(e.message).toContain('/workspacePools/1/sizeHintBytes');
    const unknownTarget = file('npu.json', { workspacePools: [{ name: 'a', targets: ['npu'] }] });
    expect(configError(() => resolvePools({ poolsFile: unknownTarget, flags: {}, knownTargets: TARGETS })).message).toContain("unknown target 'npu'");
    const missing = path.join(dir, 'nope.json');
    expect(() => resolvePools({ poolsFile: missing, flags: {}, knownTargets: TARGETS })).toThrow(FileAccessError);
    expect(() => resolvePools({ poolsFile: missing, flags: {}, knownTargets: TARGETS })).toThrow(/nope\.json: no such file or directory \(ENOENT\)/);
  });
});
