/**
 * Streaming end-to-end runs: the public verify harness calls `tvmgen_<mod>_run` once per
 * given input set, in order, on one loaded program (so persistent state carries over), and
 * returns every output of every invocation.
 */
import { CompileResult } from '../../src/driver/compile';
import { runCompiled } from '../../src/verify';

/** Builds and runs the program on `invocations` (one input list each); outputs per invocation. */
export function runStreaming(result: CompileResult, invocations: readonly (readonly Uint8Array[])[]): Uint8Array[][] {
  const run = runCompiled(result.artifacts, { invocations, cflags: ['-Werror'] });
  if (run.status !== 0) throw new Error(`the program exited with ${run.status}: ${run.stderr}`);
  if (run.outputs.length !== invocations.length) throw new Error(`expected ${invocations.length} runs' outputs, got ${run.outputs.length}`);
  return run.outputs;
}
