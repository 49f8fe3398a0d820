/**
 * C codegen of the vanilla target (UMA's `_register_codegen(fmt="c", includes=...)`): the
 * target's C file includes the kernel header, and the kernel's header and source ship with
 * the generated code.
 */
import { BackendCodegenHook, CodegenHooks, readRuntimeSources, RuntimeSource } from '../../src';

export const VANILLA_HEADER = 'vanilla_conv2d.h';
export const VANILLA_SOURCE = 'vanilla_conv2d.c';

export function vanillaIncludes(): string {
  return `#include "${VANILLA_HEADER}"\n`;
}

/** The kernel header and source to ship with the generated C. */
export function vanillaRuntimeSources(): RuntimeSource[] {
  return readRuntimeSources(__dirname, [VANILLA_HEADER, VANILLA_SOURCE], 'vanilla');
}

/** What the backend registers: the includes, and the runtime sources alongside them. */
export const vanillaCodegenHooks: CodegenHooks = {
  includes: vanillaIncludes,
  runtimeSources: vanillaRuntimeSources,
};

/** The hook `generateC` takes for the vanilla target. */
export function vanillaCodegenHook(target = 'vanilla'): BackendCodegenHook {
  return { target, includes: vanillaIncludes(), runtimeSources: vanillaRuntimeSources() };
}
