/**
 * Where the accelerator's data may live (the seed's requirements): the fetcher reads from
 * l2_mem and writes act_mem, conv reads and writes act_mem, weights sit in wei_mem. The
 * accelerator may read l2_mem (only the fetcher does) but never write it.
 */
import { MemoryDecl } from '../../src/index';
import { ACT_MEM, CONV_COMPOSITE, FETCHER_COMPOSITE, L2_MEM, WEI_MEM } from './names';

export const ACCEL_MEMORY: MemoryDecl = {
  pools: [
    { pool: ACT_MEM, access: 'rw' },
    { pool: L2_MEM, access: 'ro' },
    { pool: WEI_MEM, access: 'ro' },
  ],
  operandConstraints: [
    { op: FETCHER_COMPOSITE, inputs: { 0: [L2_MEM] }, outputs: { 0: [ACT_MEM] }, scratch: [ACT_MEM] },
    // The bias (input 2) is optional: a convolution without one has two inputs.
    { op: CONV_COMPOSITE, inputs: { 0: [ACT_MEM], 1: [WEI_MEM], 2: [WEI_MEM] }, optionalInputs: [2], outputs: { 0: [ACT_MEM] } },
  ],
};
