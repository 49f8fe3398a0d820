/**
 * `--target cortex-m55`: person_detect on accel built with arm-none-eabi-gcc for QEMU's
 * mps3-an547 and run there under semihosting, every pool in its own section and memory
 * region, outputs compared with the interpreter exactly as on the host. Needs
 * arm-none-eabi-gcc, newlib and qemu-system-arm (.ci/run installs them).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { assignPoolRegions, checkPoolAddresses, linkerScript, verifyModel } from '../../src';
import { sizeToolOf } from '../../src/verify/cortexM55';
import { MlfMetadata, PoolMetadata } from '../../src/codegen/types';
import { ConfigError } from '../../src/errors';
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

  it('reads the section sizes with the size tool beside a --cc given with flags', () => {
    // Fuzzed: `--cc "arm-none-eabi-gcc -Os"` ran the "size tool" `-Os`, whose failure was
    // swallowed: "code 0 bytes, data 0 bytes" and an empty table.
    const report = verifyModel('models/hello_world_int8.tflite', { backend: 'vanilla', target: 'cortex-m55', cc: 'arm-none-eabi-gcc -Os' });
    expect(report.ok).toBe(true);
    expect(report.sections!.unmeasured).toBeUndefined();
    expect(report.sections!.codeBytes).toBeGreaterThan(1000);
  }, 180000);

  it('says the sizes were not measured when the size tool cannot run', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-wrapcc-'));
    try {
      // A compiler named wrap-gcc: its sibling wrap-size does not exist.
      const cc = path.join(dir, 'wrap-gcc');
      fs.writeFileSync(cc, '#!/bin/sh\nexec arm-none-eabi-gcc "$@"\n', { mode: 0o755 });
      const report = verifyModel('models/hello_world_int8.tflite', { backend: 'vanilla', target: 'cortex-m55', cc });
      expect(report.ok).toBe(true);
      expect(report.sections!.unmeasured).toBe(`${path.join(dir, 'wrap-size')} could not run (ENOENT)`);
      expect(report.sections!.sections).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
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

  it('maps each pool section to its own region; pools that fit no on-chip memory get packed DDR ranges', () => {
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
    expect(ld).toMatch(/POOL_BIG \(rw\) : ORIGIN = 0x74000000, LENGTH = 41943040/);

    // pools.json addresses: exactly there, and the other pools keep clear of them.
    const placed = { ...meta, pools: [{ ...pool('a', 1000), address: 0x30000000 }, pool('b', 100)] };
    expect(assignPoolRegions(placed).map((r) => [r.pool, r.origin.toString(16), r.length])).toEqual([
      ['a', '30000000', 1024],
      ['b', '31000000', 2 * 1024 * 1024],
    ]);

    // More pools than on-chip memories: packed in DDR's pool part, each at its array's
    // alignment, clear of a pool placed there by address. (Fuzzed: 16 MiB slices put the
    // thirteenth past 0x80000000, and a hundred-pool model's c111 at 0xe0000000.)
    const many = {
      ...meta,
      pools: [
        ...Array.from({ length: 120 }, (_, k) => pool(`c${k}`, 3000 + k, 'constant')),
        { ...pool('x', 100), address: 0x74000040 },
        { ...pool('y', 5000), alignment: 4096 },
      ],
    };
    const packed = assignPoolRegions(many);
    const ddr = packed.filter((r) => r.origin >= 0x74000000);
    expect(ddr.length).toBe(120 + 2 - 4);
    for (const r of packed) {
      expect(r.origin % 64).toBe(0);
      expect(r.origin + r.length).toBeLessThanOrEqual(r.origin >= 0x74000000 ? 0x80000000 : 0x40000000);
      for (const q of packed) if (q !== r) expect(q.origin >= r.origin + r.length || r.origin >= q.origin + q.length).toBe(true);
    }
    expect(packed.find((r) => r.pool === 'y')!.origin % 4096).toBe(0);
    expect(Math.max(...ddr.map((r) => r.origin + r.length))).toBeLessThan(0x74000000 + 1024 * 1024);
    // Past DDR's pool part: an error naming the pool, not a region outside the map.
    const huge = { ...meta, pools: Array.from({ length: 8 }, (_, k) => pool(`h${k}`, 32 * 1024 * 1024)) };
    expect(() => assignPoolRegions(huge, 'pools.json')).toThrow(/^pools\.json: pool h\d \(size 33554432\) does not fit the cortex-m55 memory map/);
    const clash = { ...meta, pools: [{ ...pool('a', 1000), address: 0x30000000 }, { ...pool('b', 100), address: 0x30000100 }] };
    expect(() => assignPoolRegions(clash)).toThrow('pool b at 0x30000100 (size 100) overlaps pool a at 0x30000000 (size 1000, linked as 1024 bytes)');
  });

  it('reads a pool address from pools.json and rejects a negative one', () => {
    const pools = parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], address: 0x31000000 }] }), 'p.json');
    expect(pools[0].address).toBe(0x31000000);
    expect(() => parsePoolsJson(JSON.stringify({ workspacePools: [{ name: 'sram', targets: ['c'], address: -1 }] }), 'p.json')).toThrow(/address/);
  });
});

/**
 * Pool `address`es checked against uma-ts's cortex-m55 memory map before anything is built
 * (no toolchain needed). Fuzzing found each of these linked and run without a word: a
 * misaligned address moved by the linker's ALIGN(64), a range past 2^32 wrapped to 0, a
 * pool outside RAM ending in a bare hard fault, a workspace pool in QSPI flash dropping its
 * writes (only "outputs differ").
 */
describe('the cortex-m55 size tool', () => {
  it('is the binutils size beside the compiler word of --cc', () => {
    expect(sizeToolOf(['arm-none-eabi-gcc', '-Os'])).toBe('arm-none-eabi-size');
    expect(sizeToolOf(['ccache', '/opt/arm/bin/arm-none-eabi-gcc', '-O2'])).toBe('/opt/arm/bin/arm-none-eabi-size');
    expect(sizeToolOf(['clang', '--target=arm-none-eabi'])).toBe('arm-none-eabi-size');
  });
});

describe('cortex-m55 pool addresses', () => {
  const pool = (name: string, address: number, sizeBytes: number, kind: 'workspace' | 'constant' = 'workspace'): PoolMetadata => ({
    name,
    cName: name,
    kind,
    internal: false,
    sizeBytes,
    alignment: 16,
    targets: { c: kind === 'constant' ? 'ro' : 'rw' },
    address,
  });
  function configError(pools: readonly PoolMetadata[], file?: string): ConfigError {
    try {
      checkPoolAddresses(pools, file);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return e as ConfigError;
    }
    throw new Error('checkPoolAddresses accepted the pools');
  }

  it('accepts aligned pools inside writable memories, and constant pools in read-only QSPI flash', () => {
    expect(() =>
      checkPoolAddresses([
        pool('l2_mem', 0x30000000, 4096),
        pool('act_mem', 0x30040000, 0x40000), // up to the last byte of DTCM
        pool('big', 0x74000000, 32 << 20),
        pool('top', 0x7fffffc0, 64),
        pool('wei_mem', 0x38000000, 300000, 'constant'),
      ]),
    ).not.toThrow();
    expect(() => checkPoolAddresses([{ ...pool('free', 0, 100), address: undefined }])).not.toThrow();
  });

  it('refuses an address that is not a multiple of the 64-byte section alignment', () => {
    const e = configError([pool('act_mem', 0x30000020, 4096)], 'pools.json');
    expect(e.message).toBe(
      'pools.json: pool act_mem at 0x30000020 (size 4096) is misaligned: the address must be a multiple of 64 for cortex-m55 (the linker aligns each pool section to 64 bytes)',
    );
    expect(e.context).toMatchObject({ file: 'pools.json', pool: 'act_mem', target: 'cortex-m55', address: 0x30000020, sizeBytes: 4096 });
    expect(configError([pool('sram', 0xfffffff0, 4096)]).message).toMatch(/^pool sram at 0xfffffff0 \(size 4096\) is misaligned/);
  });

  it("refuses an address that is not a multiple of the pool's own alignment", () => {
    // Fuzzed: alignment 4096 at 0x30000040 passed, then the linker moved the 4096-aligned array
    // past its region ("will not fit in region").
    const e = configError([{ ...pool('ws', 0x30000040, 4096), alignment: 4096 }], 'pools.json');
    expect(e.message).toBe(
      "pools.json: pool ws at 0x30000040 (size 4096) is misaligned: the pool's alignment 4096 puts its array at a multiple of 4096, so its address must be one",
    );
    expect(() => checkPoolAddresses([{ ...pool('ws', 0x30001000, 4096), alignment: 4096 }])).not.toThrow();
    expect(() => checkPoolAddresses([{ ...pool('ws', 0x30000040, 4096), alignment: 64 }])).not.toThrow();
  });

  it('refuses a pool that ends past the 32-bit address space', () => {
    expect(configError([pool('sram', 0xffffffc0, 4096)], 'p.json').message).toBe(
      'p.json: pool sram at 0xffffffc0 (size 4096) ends at 0x100000fc0, past the 32-bit address space',
    );
    expect(configError([pool('sram', 0xffffffc0, 100)]).message).toBe(
      'pool sram at 0xffffffc0 (size 100) ends at 0x100000040, linked as 128 bytes, past the 32-bit address space',
    );
  });

  it('refuses an address in no memory of the map, naming the memories', () => {
    const e = configError([pool('sram', 0xffffffc0, 32)]);
    expect(e.message).toMatch(/^pool sram at 0xffffffc0 \(size 32\) is in no memory of the cortex-m55 map a pool may use: DTCM 0x30000000-0x3007ffff, /);
    expect(e.message).toContain('QSPI flash 0x38000000-0x387fffff');
    // The non-secure DTCM alias: the memory protection controller lets only secure accesses through.
    expect(configError([pool('ns', 0x20000000, 32)]).message).toMatch(/^pool ns at 0x20000000 \(size 32\) is in no memory/);
  });

  it('refuses a workspace pool in QSPI flash, which ignores writes', () => {
    expect(configError([pool('sram', 0x38000000, 4096)], 'pools.json').message).toBe(
      'pools.json: pool sram at 0x38000000 (size 4096) lies in QSPI flash, which the program cannot write (only constant pools may be placed there)',
    );
  });

  it('refuses a pool that runs past the end of its memory', () => {
    expect(configError([pool('act', 0x3007ff00, 4096)]).message).toBe(
      'pool act at 0x3007ff00 (size 4096) runs past the end of DTCM 0x30000000-0x3007ffff (by 3840 bytes)',
    );
    expect(configError([pool('w', 0x387fffc0, 100, 'constant')]).message).toMatch(/^pool w at 0x387fffc0 \(size 100\) runs past the end of QSPI flash/);
  });

  it('refuses pools that overlap each other or the memory the program needs', () => {
    expect(configError([pool('a', 0x31000000, 4096), pool('b', 0x31000fc0, 64)], 'pools.json').message).toBe(
      'pools.json: pool b at 0x31000fc0 (size 64) overlaps pool a at 0x31000000 (size 4096)',
    );
    expect(configError([pool('code', 0x70000000, 64)]).message).toBe(
      "pool code at 0x70000000 (size 64) overlaps the program's code, data and stack (DDR) at 0x70000000-0x73ffffff",
    );
    expect(configError([pool('vec', 0x10000000, 64)]).message).toBe('pool vec at 0x10000000 (size 64) overlaps the vector table (ITCM) at 0x10000000-0x1007ffff');
  });

  it('refuses an address that is not a 32-bit integer (API callers skip the schema)', () => {
    expect(configError([pool('x', 0x30000000 + 0.5, 64)]).message).toMatch(/^pool x at 805306368\.5 \(size 64\) is not an address/);
    expect(configError([pool('x', 2 ** 32, 64)]).message).toMatch(/^pool x at 0x100000000 \(size 64\) is not an address/);
  });

  it('is checked by assignPoolRegions, before the linker script and the build', () => {
    const meta: MlfMetadata = {
      schemaVersion: 1,
      modelName: 'default',
      targets: ['c'],
      pools: [pool('sram', 0x30000020, 32)],
      functions: [],
      inputs: [],
      outputs: [],
    };
    expect(() => assignPoolRegions(meta, 'pools.json')).toThrow(
      'pools.json: pool sram at 0x30000020 (size 32) is misaligned: the address must be a multiple of 64 for cortex-m55',
    );
  });

  it('stops verifyModel before the build, naming the pools file (no toolchain needed)', () => {
    const pools = parsePoolsJson(
      JSON.stringify({
        workspacePools: [{ name: 'sram', targets: ['c', 'vanilla'], address: 0x38000000 }],
        constantPools: [{ name: 'flash', targets: { c: 'ro', vanilla: 'ro' } }],
      }),
      'qspi.json',
    );
    // A compiler that cannot exist: reaching the build would be a different error.
    const run = () => verifyModel('models/hello_world_int8.tflite', { backend: 'vanilla', target: 'cortex-m55', compile: { pools }, poolsFile: 'qspi.json', cc: 'no-such-compiler-xyz' });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(/^qspi\.json: pool sram at 0x38000000 \(size \d+\) lies in QSPI flash, which the program cannot write/);
  });
});
