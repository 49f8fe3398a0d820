/**
 * The Cortex-M55 target of a verification run: QEMU's `mps3-an547` machine (Arm's SSE-300
 * FPGA image), built with `arm-none-eabi-gcc` and newlib's semihosting library (printf and
 * exit reach the host through QEMU). Each memory pool gets its own linker output section
 * `.uma_pool_<name>` in its own memory region, so the program really runs with its pools in
 * separate memories; the ELF's section sizes are reported per section and pool.
 *
 * Addresses are the secure aliases (the core starts in secure state and the memory
 * protection controllers default every block to secure): ITCM 0x10000000 holds the vector
 * table, code and data run from DDR 0x70000000, and pools take the free on-chip memories
 * (DTCM, internal SRAM, FPGA SRAM; QSPI flash, read-only at run time, for constant pools
 * only) in pool order while they fit, then ranges of DDR packed one after another.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { poolBaseAlignment } from '../codegen/c/poolBase';
import { MlfMetadata, PoolMetadata } from '../codegen/types';
import { ConfigError, VerifyError } from '../errors';
import { poolSection } from './harnessMain';
import { firstErrorLine, runTool, splitCommand } from './tools';
import { alignUp } from '../util/align';

export const CORTEX_M55_CC = 'arm-none-eabi-gcc';
export const CORTEX_M55_SIZE = 'arm-none-eabi-size';
export const QEMU_SYSTEM_ARM = 'qemu-system-arm';
export const CORTEX_M55_CFLAGS = ['-mcpu=cortex-m55', '-mthumb', '-mfloat-abi=soft', '-std=c99', '-O2', '-Wall', '-Wextra', '-ffunction-sections', '-fdata-sections'];

interface Memory {
  readonly name: string;
  readonly origin: number;
  readonly length: number;
  /** QSPI flash takes what the ELF loader puts there but ignores writes at run time. */
  readonly writable?: boolean;
  /** How errors name the memory, e.g. `QSPI flash`. */
  readonly label?: string;
}

/** On-chip memories of mps3-an547 a pool may take whole, in preference order. */
const POOL_MEMORIES: readonly Memory[] = [
  { name: 'DTCM', origin: 0x30000000, length: 512 * 1024, writable: true },
  { name: 'ISRAM', origin: 0x31000000, length: 2 * 1024 * 1024, writable: true, label: 'internal SRAM (ISRAM)' },
  { name: 'SRAM', origin: 0x11000000, length: 2 * 1024 * 1024, writable: true, label: 'FPGA SRAM' },
  { name: 'QSPI', origin: 0x38000000, length: 8 * 1024 * 1024, writable: false, label: 'QSPI flash' },
];
const ITCM: Memory = { name: 'ITCM', origin: 0x10000000, length: 512 * 1024 };
/** Code, data, heap and stack. */
const DDR_MAIN: Memory = { name: 'DDR', origin: 0x70000000, length: 64 * 1024 * 1024 };
/** Pools that fit no on-chip memory are packed from here to the end of DDR's pool part. */
const DDR_POOLS = 0x74000000;
/** The rest of the secure DDR alias (0x70000000-0x7FFFFFFF) after the program's part: pools given an address may lie there too. */
const DDR_POOL_MEMORY: Memory = { name: 'DDR', origin: DDR_POOLS, length: 0x80000000 - DDR_POOLS, writable: true, label: 'DDR (pool part)' };
/** Every memory a pool given an `address` may lie in, and the parts of the map the program itself needs. */
const ADDRESSABLE_MEMORIES: readonly Memory[] = [...POOL_MEMORIES, DDR_POOL_MEMORY];
const PROGRAM_MEMORIES: readonly { readonly what: string; readonly memory: Memory }[] = [
  { what: 'the vector table (ITCM)', memory: ITCM },
  { what: "the program's code, data and stack (DDR)", memory: DDR_MAIN },
];
/** Every pool section is linked with `ALIGN(POOL_SECTION_ALIGNMENT)`, and its region is a multiple of it long. */
export const POOL_SECTION_ALIGNMENT = 64;

export interface PoolRegion {
  readonly pool: string;
  readonly section: string;
  readonly region: string;
  readonly origin: number;
  readonly length: number;
}

/** Bytes of each output section, and which pool a section holds. */
export interface SectionSizes {
  readonly sections: readonly { readonly name: string; readonly sizeBytes: number; readonly address: number; readonly pool?: string }[];
  readonly codeBytes: number;
  readonly dataBytes: number;
  /** Why the sizes could not be read (the `size` tool missing or failing): then none are given. */
  readonly unmeasured?: string;
}

const hex = (n: number): string => `0x${n.toString(16).padStart(8, '0')}`;

const overlaps = (a: { origin: number; length: number }, b: { origin: number; length: number }): boolean =>
  a.origin < b.origin + b.length && b.origin < a.origin + a.length;

const range = (m: Memory): string => `${m.label ?? m.name} ${hex(m.origin)}-${hex(m.origin + m.length - 1)}`;

/** Bytes a pool given an `address` takes: its planned size rounded up to the section alignment (at least one unit). */
const reservedBytes = (sizeBytes: number): number =>
  Math.max(POOL_SECTION_ALIGNMENT, Math.ceil(sizeBytes / POOL_SECTION_ALIGNMENT) * POOL_SECTION_ALIGNMENT);

/**
 * Checks every pool `address` (pools.json) against uma-ts's memory map of the cortex-m55
 * target, before anything is built: the address is a multiple of the section alignment, the
 * pool's [address, address + size) lies inside one memory of the map (a writable one unless
 * the pool is a constant pool, which the ELF loader fills and the program only reads), does
 * not run past 2^32, and overlaps neither another pool nor what the program needs (vector
 * table, code, data and stack). Without this the linker moves a misaligned section, a range
 * past 2^32 wraps to 0, and a pool outside RAM faults or silently drops writes.
 * `poolsFile` (the pools JSON the addresses come from) prefixes every message.
 */
export function checkPoolAddresses(
  pools: readonly (Pick<PoolMetadata, 'name' | 'kind' | 'sizeBytes' | 'address'> & Partial<Pick<PoolMetadata, 'alignment'>>)[],
  poolsFile?: string,
): void {
  const placed: { name: string; origin: number; length: number; sizeBytes: number }[] = [];
  for (const p of pools) {
    if (p.address === undefined) continue;
    const address = p.address;
    const size = `size ${p.sizeBytes}`;
    const fail = (reason: string): never => {
      const at = Number.isInteger(address) && address >= 0 ? hex(address) : String(address);
      throw new ConfigError(`${poolsFile !== undefined ? `${poolsFile}: ` : ''}pool ${p.name} at ${at} (${size}) ${reason}`, {
        ...(poolsFile !== undefined ? { file: poolsFile } : {}),
        pool: p.name,
        target: 'cortex-m55',
        address,
        sizeBytes: p.sizeBytes,
      });
    };
    if (!Number.isSafeInteger(address) || address < 0 || address > 0xffffffff) fail('is not an address: expected an integer from 0 to 0xffffffff');
    if (address % POOL_SECTION_ALIGNMENT !== 0) {
      fail(`is misaligned: the address must be a multiple of ${POOL_SECTION_ALIGNMENT} for cortex-m55 (the linker aligns each pool section to ${POOL_SECTION_ALIGNMENT} bytes)`);
    }
    // The pool's array is declared aligned to its alignment (a power of two, at least 16), and
    // the linker moves the section up to it: past the region's end at an address in between.
    const base = poolBaseAlignment(p.alignment ?? 1);
    if (address % base !== 0) {
      fail(`is misaligned: the pool's alignment ${p.alignment} puts its array at a multiple of ${base}, so its address must be one`);
    }
    const length = reservedBytes(p.sizeBytes);
    const linked = length !== p.sizeBytes ? `, linked as ${length} bytes` : '';
    const end = address + length;
    if (end > 0x100000000) fail(`ends at 0x${end.toString(16)}${linked}, past the 32-bit address space`);
    const pool = { origin: address, length };
    for (const { what, memory } of PROGRAM_MEMORIES) {
      if (overlaps(pool, memory)) fail(`overlaps ${what} at ${hex(memory.origin)}-${hex(memory.origin + memory.length - 1)}`);
    }
    const memory = ADDRESSABLE_MEMORIES.find((m) => address >= m.origin && address < m.origin + m.length);
    if (memory === undefined) {
      fail(`is in no memory of the cortex-m55 map a pool may use: ${ADDRESSABLE_MEMORIES.map(range).join(', ')}`);
    } else {
      if (end > memory.origin + memory.length) fail(`runs past the end of ${range(memory)} (by ${end - memory.origin - memory.length} bytes${linked})`);
      if (memory.writable !== true && p.kind !== 'constant') {
        fail(`lies in ${memory.label ?? memory.name}, which the program cannot write (only constant pools may be placed there)`);
      }
    }
    const other = placed.find((q) => overlaps(pool, q));
    if (other !== undefined) fail(`overlaps pool ${other.name} at ${hex(other.origin)} (size ${other.sizeBytes}${other.length !== other.sizeBytes ? `, linked as ${other.length} bytes` : ''})`);
    placed.push({ name: p.name, origin: address, length, sizeBytes: p.sizeBytes });
  }
}

/**
 * A memory region per pool (see the module comment); a pool with an `address` (pools.json)
 * gets exactly its planned size there (checked by `checkPoolAddresses`), and the other pools
 * avoid those ranges. `poolsFile` names the pools JSON in errors.
 */
export function assignPoolRegions(meta: MlfMetadata, poolsFile?: string): PoolRegion[] {
  checkPoolAddresses(meta.pools, poolsFile);
  const fixed = meta.pools
    .filter((p) => p.address !== undefined)
    .map((p) => ({ pool: p.name, origin: p.address as number, length: reservedBytes(p.sizeBytes) }));
  const free = POOL_MEMORIES.filter((m) => !fixed.some((f) => overlaps(f, m)));
  let ddrCursor = DDR_POOLS;
  return meta.pools.map((p) => {
    const need = Math.max(1, p.sizeBytes);
    const section = poolSection(p.name);
    const regionName = `POOL_${p.name.replace(/[^A-Za-z0-9_]/g, '_').toUpperCase()}`;
    const at = fixed.find((f) => f.pool === p.name);
    if (at !== undefined) return { pool: p.name, section, region: regionName, origin: at.origin, length: at.length };
    // Constant pools are loaded with the program (static data), so read-only flash suits them.
    const i = free.findIndex((m) => m.length >= need && (m.writable === true || p.kind === 'constant'));
    if (i >= 0) {
      const m = free.splice(i, 1)[0];
      return { pool: p.name, section, region: regionName, origin: m.origin, length: m.length };
    }
    // Packed one after another in DDR's pool part, each at its array's alignment and clear of the
    // pools placed by address. (Fixed 16 MiB slices ran past the part after twelve pools: a
    // model with a hundred constant pools had one linked over the System Control Space at
    // 0xe0000000, and its run compared wrong outputs.)
    const length = reservedBytes(p.sizeBytes);
    const align = Math.max(POOL_SECTION_ALIGNMENT, poolBaseAlignment(p.alignment));
    let origin = alignUp(ddrCursor, align);
    for (let clash = fixed.find((f) => overlaps(f, { origin, length })); clash; clash = fixed.find((f) => overlaps(f, { origin, length }))) {
      origin = alignUp(clash.origin + clash.length, align);
    }
    if (origin + length > DDR_POOL_MEMORY.origin + DDR_POOL_MEMORY.length) {
      throw new ConfigError(
        `${poolsFile !== undefined ? `${poolsFile}: ` : ''}pool ${p.name} (size ${p.sizeBytes}) does not fit the cortex-m55 memory map: ` +
          `the on-chip memories are taken and ${range(DDR_POOL_MEMORY)} has ${Math.max(0, DDR_POOL_MEMORY.origin + DDR_POOL_MEMORY.length - origin)} bytes left; ` +
          'give some pools an address (pools.json), or merge pools',
        { ...(poolsFile !== undefined ? { file: poolsFile } : {}), pool: p.name, target: 'cortex-m55', sizeBytes: p.sizeBytes },
      );
    }
    ddrCursor = origin + length;
    return { pool: p.name, section, region: regionName, origin, length };
  });
}


/** The linker script: vectors in ITCM, program in DDR, each pool's section in its region. */
export function linkerScript(meta: MlfMetadata, regions: readonly PoolRegion[]): string {
  const mem = (m: { name: string; origin: number; length: number }, attrs: string) => `  ${m.name} (${attrs}) : ORIGIN = ${hex(m.origin)}, LENGTH = ${m.length}`;
  const lines = [
    '/* Generated by uma-ts run --target cortex-m55 (QEMU mps3-an547). */',
    'MEMORY',
    '{',
    mem(ITCM, 'rx'),
    mem(DDR_MAIN, 'rwx'),
    ...regions.map((r) => mem({ name: r.region, origin: r.origin, length: r.length }, 'rw')),
    '}',
    'ENTRY(uma_reset_handler)',
    'SECTIONS',
    '{',
    '  .vectors : { KEEP(*(.vectors)) } > ITCM',
  ];
  for (const r of regions) {
    const p = meta.pools.find((x) => x.name === r.pool)!;
    // Internal pools are static arrays of the generated entry file (-fdata-sections gives
    // each its own input section); external ones are the harness's arrays in `section`.
    const inputs = [`*(${r.section})`, ...(p.internal && p.cName ? [`*(.bss.${p.cName})`, `*(.rodata.${p.cName})`, `*(.data.${p.cName})`] : [])];
    lines.push(`  ${r.section} (NOLOAD) : ALIGN(64) { ${inputs.join(' ')} } > ${r.region}`);
    if (p.kind === 'constant') lines[lines.length - 1] = lines[lines.length - 1].replace(' (NOLOAD)', '');
  }
  lines.push(
    '  .text : { *(.text*) *(.init) *(.fini) KEEP(*(.init_array*)) KEEP(*(.fini_array*)) } > DDR',
    '  .ARM.exidx : { *(.ARM.exidx*) } > DDR',
    '  .rodata : { *(.rodata*) } > DDR',
    '  .data : { *(.data*) } > DDR',
    '  .bss (NOLOAD) : { __bss_start__ = .; *(.bss*) *(COMMON) . = ALIGN(8); __bss_end__ = .; } > DDR',
    '  . = ALIGN(8);',
    '  end = .;',
    '  __end__ = .;',
    `  __stack_top = ORIGIN(DDR) + LENGTH(DDR);`,
    '}',
    '',
  );
  return lines.join('\n');
}

/** Vector table and reset handler: enable the FPU/MVE, zero .bss, open semihosting, run main. */
export const CORTEX_M55_STARTUP = `/* Generated by uma-ts run --target cortex-m55. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

extern uint32_t __bss_start__, __bss_end__, __stack_top;
extern int main(void);
extern void initialise_monitor_handles(void);

void uma_reset_handler(void);
void uma_fault_handler(void);

__attribute__((section(".vectors"), used)) static void (*const uma_vectors[16])(void) = {
  (void (*)(void))&__stack_top, uma_reset_handler, uma_fault_handler, uma_fault_handler,
  uma_fault_handler, uma_fault_handler, uma_fault_handler, uma_fault_handler,
  0, 0, 0, uma_fault_handler, uma_fault_handler, 0, uma_fault_handler, uma_fault_handler,
};

/* newlib's exit runs __libc_fini_array, which calls these; nothing to construct or destroy. */
void _init(void) {}
void _fini(void) {}

void uma_fault_handler(void) {
  static const char msg[] = "cortex-m55: hard fault\\n";
  write(2, msg, sizeof(msg) - 1);
  _exit(4);
}

void uma_reset_handler(void) {
  uint32_t* p;
  /* CPACR: full access to CP10/CP11 (FPU and MVE). */
  *(volatile uint32_t*)0xE000ED88u |= 0xFu << 20;
  __asm volatile("dsb\\n\\tisb");
  for (p = &__bss_start__; p < &__bss_end__; ++p) *p = 0;
  initialise_monitor_handles();
  exit(main());
}
`;

export interface CortexM55Build {
  readonly elf: string;
  readonly sections: SectionSizes;
  readonly regions: readonly PoolRegion[];
}

/** Reads `arm-none-eabi-size -A`: code = text + vectors + exidx, data = everything else allocated. */
export function parseSizeA(text: string, regions: readonly PoolRegion[]): SectionSizes {
  const sections: { name: string; sizeBytes: number; address: number; pool?: string }[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\.\S+)\s+(\d+)\s+(\d+)\s*$/.exec(line.trim());
    if (!m || /^\.(comment|debug|ARM\.attributes)/.test(m[1])) continue;
    const pool = regions.find((r) => r.section === m[1])?.pool;
    sections.push({ name: m[1], sizeBytes: Number(m[2]), address: Number(m[3]), ...(pool !== undefined ? { pool } : {}) });
  }
  const code = sections.filter((s) => ['.text', '.vectors', '.ARM.exidx'].includes(s.name)).reduce((a, s) => a + s.sizeBytes, 0);
  const data = sections.reduce((a, s) => a + s.sizeBytes, 0) - code;
  return { sections, codeBytes: code, dataBytes: data };
}

export function buildCortexM55(
  dir: string,
  meta: MlfMetadata,
  sources: readonly string[],
  includeDirs: readonly string[],
  cc: string | undefined,
  cflags: readonly string[],
  poolsFile?: string,
  timeoutMs?: number,
): CortexM55Build {
  const regions = assignPoolRegions(meta, poolsFile);
  fs.writeFileSync(path.join(dir, 'link.ld'), linkerScript(meta, regions));
  fs.writeFileSync(path.join(dir, 'startup.c'), CORTEX_M55_STARTUP);
  const compiler = splitCommand(cc ?? CORTEX_M55_CC);
  runTool(
    [
      ...compiler,
      ...CORTEX_M55_CFLAGS,
      ...cflags,
      ...includeDirs.map((d) => `-I${d}`),
      'startup.c',
      ...sources,
      '--specs=rdimon.specs',
      '-nostartfiles',
      '-Wl,-T,link.ld',
      '-Wl,--gc-sections',
      '-o',
      'prog.elf',
      '-lm',
    ],
    dir,
    'C build (cortex-m55)',
    { output: 'prog.elf', ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
  );
  const sizeTool = sizeToolOf(compiler);
  const r = spawnSync(sizeTool, ['-A', '-d', 'prog.elf'], { cwd: dir, encoding: 'utf8' });
  const sections =
    r.status === 0
      ? parseSizeA(r.stdout, regions)
      : { sections: [], codeBytes: 0, dataBytes: 0, unmeasured: `${sizeTool} ${r.error !== undefined ? `could not run (${(r.error as NodeJS.ErrnoException).code ?? r.error.message})` : `failed: ${firstErrorLine(r.stderr ?? '')}`}` };
  return { elf: path.join(dir, 'prog.elf'), sections, regions };
}

/**
 * The binutils `size` beside the compiler: the compiler is the last word of `--cc` that is not
 * a flag (`arm-none-eabi-gcc -Os`, `ccache arm-none-eabi-gcc`), its `gcc` suffix made `size`;
 * a compiler of another name gets the toolchain's default.
 */
export function sizeToolOf(compiler: readonly string[]): string {
  const word = [...compiler].reverse().find((w) => !w.startsWith('-'));
  return word !== undefined && /gcc$/.test(word) ? word.replace(/gcc$/, 'size') : CORTEX_M55_SIZE;
}

export function runCortexM55(elf: string, dir: string, timeoutMs: number): { status: number; stdout: string; stderr: string } {
  const args = ['-M', 'mps3-an547', '-cpu', 'cortex-m55', '-nographic', '-monitor', 'none', '-serial', 'none', '-semihosting-config', 'enable=on,target=native', '-kernel', elf];
  const r = spawnSync(QEMU_SYSTEM_ARM, args, { cwd: dir, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 256 << 20 });
  if (r.error !== undefined) {
    const code = (r.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new VerifyError(`cannot run ${QEMU_SYSTEM_ARM} (not installed or not on PATH)`, { file: QEMU_SYSTEM_ARM });
    if (code === 'ETIMEDOUT') return { status: 124, stdout: r.stdout ?? '', stderr: `${r.stderr ?? ''}timed out after ${timeoutMs / 1000} s under QEMU\n` };
    throw new VerifyError(`running QEMU failed: ${r.error.message}`);
  }
  return { status: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
}
