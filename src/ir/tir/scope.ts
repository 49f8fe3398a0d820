/**
 * Scope statements: the four kinds that declare something (a buffer, a constant, a view, a
 * value) for a single body. The AoT `main` nests one per tensor, each holding the rest of the
 * function, so a large model's main is a chain thousands deep. Every traversal walks such a
 * chain with a loop (`scopeChain` down, then back up over the list), never by recursing into
 * `body`: the call stack then only grows with the nesting of loops, branches and sequences.
 */
import { Allocate, AllocateConst, DeclBuffer, LetStmt, Stmt } from './nodes';

export type ScopeStmt = Allocate | AllocateConst | DeclBuffer | LetStmt;

export function isScopeStmt(s: Stmt): s is ScopeStmt {
  return s.kind === 'Allocate' || s.kind === 'AllocateConst' || s.kind === 'DeclBuffer' || s.kind === 'LetStmt';
}

/** The scope statements from `s` down through their bodies (outermost first) and the first statement below them that is not one. */
export function scopeChain(s: Stmt): { readonly scopes: readonly ScopeStmt[]; readonly inner: Stmt } {
  const scopes: ScopeStmt[] = [];
  let cur = s;
  while (isScopeStmt(cur)) {
    scopes.push(cur);
    cur = cur.body;
  }
  return { scopes, inner: cur };
}

/** `s` with `body` (the same object when the body is). */
export function withScopeBody<S extends ScopeStmt>(s: S, body: Stmt): S {
  return body === s.body ? s : { ...s, body };
}
