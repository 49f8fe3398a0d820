/**
 * TypeScript versions of the DMA kernels for the TIR evaluator. Given the pools, they check
 * pointers as runtime/dma_local_runtime.c does: the source must lie in a pool the DMA may
 * read and its direction allows, the destination in one it may write and its direction allows.
 */
import { tir } from '../../src/index';
import { COPY_IN_KERNEL, COPY_OUT_KERNEL, LOCAL_MEM, SRAM } from './names';

export interface SimulatedPool {
  readonly mem: Uint8Array;
  /** What the accelerator's DMA may do in this pool. */
  readonly access: 'none' | 'ro' | 'rw';
}

export interface DmaSimulationOptions {
  readonly pools?: ReadonlyMap<string, SimulatedPool>;
}

/** Pools each direction's source and destination may lie in. */
export const DMA_DIRECTIONS: Readonly<Record<string, { readonly src: string; readonly dst: string }>> = {
  [COPY_IN_KERNEL]: { src: SRAM, dst: LOCAL_MEM },
  [COPY_OUT_KERNEL]: { src: LOCAL_MEM, dst: SRAM },
};

function trap(kernel: string, message: string, ctx: Record<string, unknown> = {}): never {
  throw new tir.TirEvalError(`dma_local trap: ${kernel} ${message}`, { op: kernel, ...ctx });
}

function checkPointer(kernel: string, arg: string, p: tir.ArgValue | undefined, bytes: number, write: boolean, allowed: string, options: DmaSimulationOptions): tir.Pointer {
  if (!tir.isPointer(p)) return trap(kernel, `argument '${arg}' is not a pointer`);
  if (options.pools === undefined) return p;
  const address = p.mem.byteOffset + p.byteOffset;
  const hit = [...options.pools].find(([, pool]) => pool.mem.buffer === p.mem.buffer && address >= pool.mem.byteOffset && address < pool.mem.byteOffset + pool.mem.byteLength);
  if (hit === undefined) return trap(kernel, `argument '${arg}' lies outside every registered pool`, { buffer: arg });
  const [name, pool] = hit;
  if (pool.access === 'none' || (write && pool.access !== 'rw')) {
    trap(kernel, `argument '${arg}' lies in pool '${name}' which dma_local cannot ${write ? 'write' : 'read'}`, { buffer: arg, pool: name });
  }
  if (address + bytes > pool.mem.byteOffset + pool.mem.byteLength) trap(kernel, `argument '${arg}' covers ${bytes} bytes, past the end of pool '${name}'`, { buffer: arg, pool: name });
  if (name !== allowed) trap(kernel, `argument '${arg}' lies in pool '${name}', its operand constraint allows {${allowed}}`, { buffer: arg, pool: name });
  return p;
}

function dmaCopy(kernel: string, options: DmaSimulationOptions): tir.ExternFn {
  const direction = DMA_DIRECTIONS[kernel];
  return (args) => {
    const bytes = args[2];
    if (typeof bytes !== 'number' || bytes < 0) return trap(kernel, `argument 'bytes' must be a non-negative integer`);
    const src = checkPointer(kernel, 'src', args[0], bytes, false, direction.src, options);
    const dst = checkPointer(kernel, 'dst', args[1], bytes, true, direction.dst, options);
    dst.mem.set(src.mem.subarray(src.byteOffset, src.byteOffset + bytes), dst.byteOffset);
    return 0;
  };
}

/** The DMA kernels by name, for `EvalOptions.externs`. */
export function dmaKernelSimulations(options: DmaSimulationOptions = {}): ReadonlyMap<string, tir.ExternFn> {
  return new Map([
    [COPY_IN_KERNEL, dmaCopy(COPY_IN_KERNEL, options)],
    [COPY_OUT_KERNEL, dmaCopy(COPY_OUT_KERNEL, options)],
  ]);
}
