/**
 * The pointer arguments of the accel kernels: how the accelerator uses each (`ro`/`rw`) and
 * which pools its operand constraint allows (absent = any pool the accelerator can reach
 * with that mode). `runtime/accel_runtime.c` checks exactly this table before touching memory;
 * the TS simulations check it when given the pools.
 */
import { ACT_MEM, CONV_KERNEL, FETCHER_KERNEL, L2_MEM, WEI_MEM } from './names';

export type AccessMode = 'ro' | 'rw';

export interface KernelPointerArg {
  readonly name: string;
  readonly mode: AccessMode;
  readonly pools?: readonly string[];
}

export const KERNEL_POINTER_ARGS: Readonly<Record<string, readonly KernelPointerArg[]>> = {
  [FETCHER_KERNEL]: [
    { name: 'input', mode: 'ro', pools: [L2_MEM] },
    { name: 'output', mode: 'rw', pools: [ACT_MEM] },
    { name: 'line_buffer', mode: 'rw', pools: [ACT_MEM] },
  ],
  [CONV_KERNEL]: [
    { name: 'input', mode: 'ro', pools: [ACT_MEM] },
    { name: 'weights', mode: 'ro', pools: [WEI_MEM] },
    { name: 'bias', mode: 'ro', pools: [WEI_MEM] },
    { name: 'output', mode: 'rw', pools: [ACT_MEM] },
    { name: 'multipliers', mode: 'ro' },
    { name: 'shifts', mode: 'ro' },
  ],
};
