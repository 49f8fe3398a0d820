/**
 * Inputs a TIR pass made a function overwrite while something still reads them. A strategy that
 * stores into an input is refused when it is lowered (userCode.ts, guardStrategy); a pass can add
 * such a store later (an in-place rewrite that reuses its input as scratch, say). Pool pinning
 * then gives the buffer a pool the target can write, so no access check fires, and where no
 * later operator reads the buffer nothing is wrong. Where one does, it reads the changed bytes:
 * the model's results are silently wrong, and only a comparison of outputs would show it.
 */
import { Expr, MAIN_PRIM_FUNC, PERSISTENT_SCOPE, PrimFunc, TirModule, Var } from '../ir/tir/nodes';
import { collectAllocates, collectCallExterns, mayWriteBuffers, pointedBuffer, storedBuffers } from '../ir/tir/analysis';

export interface ClobberedInput {
  /** The function that now stores into its parameter. */
  readonly func: string;
  readonly param: string;
  /** The function whose call hands it the buffer, and that buffer's name there. */
  readonly caller: string;
  readonly argument: string;
  /** Who reads the buffer after that call. */
  readonly reader: string;
}

/**
 * The parameters (by index) each changed function of `after` stores into, directly, where its
 * version in `before` never wrote them (no store, and no call given a pointer to them); then,
 * through the call graph, every parameter a function hands on to such a parameter of a callee.
 */
function newlyStoredParams(before: TirModule, after: TirModule): Map<string, Set<number>> {
  const stored = new Map<string, Set<number>>();
  for (const [name, f] of after.functions) {
    const old = before.functions.get(name);
    if (old === undefined || old === f || old.params.length !== f.params.length) continue;
    const wrote = mayWriteBuffers(old.body);
    const stores = storedBuffers(f.body);
    const params = new Set<number>();
    f.params.forEach((p, i) => {
      if (stores.has(p.id) && !wrote.has(old.params[i].id)) params.add(i);
    });
    if (params.size > 0) stored.set(name, params);
  }
  // A function that passes its own parameter on to one of those overwrites it too (to its callers).
  for (let changed = stored.size > 0; changed; ) {
    changed = false;
    for (const [name, f] of after.functions) {
      const index = new Map(f.params.map((p, i) => [p.id, i] as const));
      for (const call of collectCallExterns(f.body)) {
        const callee = stored.get(call.name);
        if (callee === undefined) continue;
        for (const i of callee) {
          const j = index.get(argumentVar(call.args[i])?.id ?? -1);
          if (j === undefined) continue;
          const own = stored.get(name) ?? new Set<number>();
          if (own.has(j)) continue;
          own.add(j);
          stored.set(name, own);
          changed = true;
        }
      }
    }
  }
  return stored;
}

/** The buffer a call argument points to (the handle, `address_of`, `tvm_access_ptr`). */
function argumentVar(arg: Expr | undefined): Var | undefined {
  return arg === undefined ? undefined : pointedBuffer(arg);
}

/**
 * Who reads `v`, a buffer of `caller`, after its call number `k`: a later call given it, the
 * application (a model output of main), or the next invocation (persistent state).
 */
function laterReader(caller: string, f: PrimFunc, calls: ReturnType<typeof collectCallExterns>, k: number, v: Var): string | undefined {
  for (let m = k + 1; m < calls.length; m++) {
    if (calls[m].args.some((a) => argumentVar(a)?.id === v.id)) return `${calls[m].name} reads afterwards`;
  }
  if (caller === MAIN_PRIM_FUNC) {
    const inputs = f.attrs.num_inputs;
    const j = f.params.findIndex((p) => p.id === v.id);
    if (j >= 0 && typeof inputs === 'number' && j >= inputs) return 'the application reads as a model output';
  }
  if (collectAllocates(f.body).some((a) => a.bufferVar.id === v.id && a.storageScope === PERSISTENT_SCOPE)) return 'the next invocation reads (persistent state)';
  return undefined;
}

/** The first input of `after` overwritten by a change from `before` while still read, if any. */
export function clobberedInput(before: TirModule, after: TirModule): ClobberedInput | undefined {
  const stored = newlyStoredParams(before, after);
  if (stored.size === 0) return undefined;
  for (const [caller, f] of after.functions) {
    const calls = collectCallExterns(f.body);
    for (const [k, call] of calls.entries()) {
      const params = stored.get(call.name);
      const callee = after.functions.get(call.name);
      if (params === undefined || callee === undefined) continue;
      for (const i of params) {
        const v = argumentVar(call.args[i]);
        if (v === undefined) continue;
        const reader = laterReader(caller, f, calls, k, v);
        if (reader !== undefined) return { func: call.name, param: callee.params[i].name, caller, argument: v.name, reader };
      }
    }
  }
  return undefined;
}
