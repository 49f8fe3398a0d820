/**
 * `--target cortex-m55`: person_detect on accel built with arm-none-eabi-gcc for QEMU's
 * mps3-an547 and run there under semihosting, every pool in its own section and memory
 * region, outputs compared with the interpreter exactly as on the host. Needs
 * arm-none-eabi-gcc, newlib and qemu-system-arm (.ci/run installs them).
 */
import { spawnSync } from 'child_process';
import { assignPoolRegions, linkerScript, verifyModel } from '../../src';
import { MlfMetadata } from '../../src/codegen/types';
import { parsePoolsJson } from '../../src/usmp/pools';

function installed(tool: string): boolean {
  return spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;
}

describe('--target cortex-m55', () => {
  it('has the toolchain and QEMU (apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm)', () => {
    expect({ 'arm-none-eabi-gcc': installed('arm-none-eabi-gcc'), 'qemu-system-arm': installed('qemu-system-arm') }).toEqual({
      'arm-none-eabi-gcc': true,
      'qemu-system-arm': true,
    });
  });

  it('runs person_detect on accel under QEMU with each pool in its own region, byte-exact', () => {
    const report = verifyModel('models/person_detect.tflite', { backend: 'accel', target: 'cortex-m55', seed: 11 });
    expect(report.failure).toBeUndefined();
    expect(report.comparisons).toHaveLength(1);
    expect(report.comparisons[0].equal).toBe(true);
    expect(report.ok).toBe(true);
    const sections = report.sections!;
    const pools = sections.sections.filter((s) => s.pool !== undefined);
    expect(pools.map((s) => s.pool).sort()).toEqual(['act_mem', 'l2_mem', 'wei_mem']);
    // Distinct memories: DTCM, internal SRAM, FPGA SRAM (secure aliases).
    expect(new Set(pools.map((s) => s.address >>> 24)).size).toBe(3);
    for (const p of pools) {
      const planned = report.compile.artifacts.metadata.pools.find((m) => m.name === p.pool)!;
      expect(p.sizeBytes).toBeGreaterThanOrEqual(planned.sizeBytes);
    }
    expect(sections.codeBytes).toBeGreaterThan(1000);
  }, 180000);

  it('links pools at their pools.json addresses, external weights in read-only QSPI flash, byte-exact', () => {
    const pools = parsePoolsJson(
      JSON.stringify({
        workspacePools: [
          { name: 'l2_mem', targets: { c: 'rw', accel: 'ro' }, internal: true, address: 0x30000000 },
          { name: 'act_mem', targets: { c: 'rw', accel: 'rw' }, address: 0x30040000 },
        ],
        constantPools: [{ name: 'wei_mem', targets: { c: 'ro', accel: 'ro' }, address: 0x38000000 }],
      }),
      'pools.json',
    );
    const report = verifyModel('models/person_detect.tflite', { backend: 'accel', target: 'cortex-m55', compile: { pools }, seed: 12 });
    expect(report.failure).toBeUndefined();
    expect(report.ok).toBe(true);
    const at = Object.fromEntries(report.sections!.sections.filter((s) => s.pool).map((s) => [s.pool, s.address]));
    expect(at).toEqual({ l2_mem: 0x30000000, act_mem: 0x30040000, wei_mem: 0x38000000 });
    expect(report.compile.artifacts.metadata.pools.map((p) => p.address)).toEqual([0x30000000, 0x30040000, 0x38000000]);
  }, 180000);

  it('maps each pool section to its own region; pools too large for on-chip memory get DDR slices', () => {
    const pool = (name: string, sizeBytes: number, kind: 'workspace' | 'constant' = 'workspace') => ({
      name,
      cName: name,
      kind,
      internal: true,
      sizeBytes,
      alignment: 16,
      targets: { c: 'rw' as const },
    });
    const meta: MlfMetadata = {
      schemaVersion: 1,
      modelName: 'default',
      targets: ['c'],
      pools: [pool('a', 1000), pool('big', 40 * 1024 * 1024), pool('w', 3000, 'constant')],
      functions: [],
      inputs: [],
      outputs: [],
    };
    const regions = assignPoolRegions(meta);
    expect(regions.map((r) => [r.pool, r.origin.toString(16)])).toEqual([
      ['a', '30000000'],
      ['big', '74000000'],
      ['w', '31000000'],
    ]);
    const ld = linkerScript(meta, regions);
    expect(ld).toContain('.uma_pool_a (NOLOAD) : ALIGN(64) { *(.uma_pool_a) *(.bss.a) *(.rodata.a) *(.data.a) } > POOL_A');
    expect(ld).toContain('.uma_pool_w : ALIGN(64) { *(.uma_pool_w) *(.bss.w) *(.rodata.w) *(.data.w) } > POOL_W');
    expect(ld).toMatch(/POOL_BIG \(rw\) : ORIGIN = 0x74000000, LENGTH = 50331648/);

    // pools.json addresses: exactly there, and the other pools keep clear of them.
    const placed = { ...meta, pools: [{ ...pool('a', 1000), address: 0x30000000 }, pool('b', 100)] };
    expect(assignPoolRegions(placed).map((r) => [r.pool, r.origin.toString(16), r.length])).toEqual([
      ['a', '30000000', 1024],
      ['b', '31000000', 2 * 1024 * 1024],
    ]);
    const clash = { ...meta, pools: [{ ...pool('a', 1000), address: 0x30000000 }, { ...pool('b', 100), address: 0x30000100 }] };
    expect(() => assignPoolRegions(clash)).toThrow('pool a at 0x30000000 (1024 bytes) overlaps b at 0x30000100');
  });

  it('reads a pool address from pools.json and rejects a negative one', () => {
    const pools = parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], address: 0x31000000 }] }), 'p.json');
    expect(pools[0].address).toBe(0x31000000);
    expect(() => parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], address: -1 }] }), 'p.json')).toThrow(/address/);
  });
});
