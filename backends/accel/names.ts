/** The names the accel backend shares between its passes, patterns, kernels and tests. */
export const ACCEL_TARGET = 'accel';

/** `copy` kinds the accel flow uses. */
export const FETCHER_KIND = 'accel_input_fetcher';
export const LAYOUT_TRANSFORM_KIND = 'layout_transform';

/** Pattern names; the composites are `accel.<pattern>`. */
export const FETCHER_PATTERN = 'accel_input_fetcher';
export const CONV_PATTERN = 'accel_conv2d';
export const FETCHER_COMPOSITE = `${ACCEL_TARGET}.${FETCHER_PATTERN}`;
export const CONV_COMPOSITE = `${ACCEL_TARGET}.${CONV_PATTERN}`;

/** C kernels of `runtime/accel_runtime.c` (and their TS simulations). */
export const FETCHER_KERNEL = 'accel_input_fetcher';
export const CONV_KERNEL = 'accel_conv2d';

/** Memory pools the accelerator reaches. */
export const ACT_MEM = 'act_mem';
export const L2_MEM = 'l2_mem';
export const WEI_MEM = 'wei_mem';
