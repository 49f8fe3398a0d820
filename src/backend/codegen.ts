/**
 * What a backend hands to the C code generator (UMA's `_register_codegen(fmt="c", ...)`).
 * Replacing loop nests by kernel calls happens earlier, as a TIR pass (see `tirRewrite.ts`);
 * codegen only needs the declarations of those kernels and, optionally, custom C text for
 * a `call_extern`.
 */
import type { RuntimePool } from '../codegen/types';

export interface CodegenHooks {
  /** C text put at the top of every file holding this target's functions (`#include ...`). */
  readonly includes: () => string;
  /**
   * Custom C for `call_extern(name, args...)`; `args` are already rendered C expressions.
   * Returning undefined keeps the default `name(args...)`.
   */
  readonly replaceCallExtern?: (name: string, args: readonly string[]) => string | undefined;
  /**
   * C files shipped with the generated code (the backend's kernels and their headers):
   * `.h` files go to `runtime/include/`, others to `runtime/src/`. They must not depend on
   * the model: an application links one copy for all its models.
   */
  readonly runtimeSources?: () => readonly { readonly name: string; readonly content: string }[];
  /**
   * For a runtime that keeps its own table of the memory its kernels may touch (a simulator
   * that checks every pointer, a driver that maps regions): a C expression registering one
   * pool, evaluating to 0 on success. The generated `run` registers every pool the target
   * can access before each inference, internal ones included, and model I/O this target
   * touches is planned in the workspace unless the caller says otherwise (it must lie in a
   * registered pool).
   */
  readonly registerPool?: (pool: RuntimePool) => string;
}
