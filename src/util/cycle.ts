/**
 * A cycle of a directed graph given as successor lists, by a depth-first search with an
 * explicit stack: the import's call-graph check and the graph IR's cycle check both meet
 * graphs deep enough (a 20,000-operator chain) to overflow a recursive search.
 */

/**
 * A cycle reachable from `roots` as the nodes on it, the first repeated last, or null.
 * `successors[v]` lists the nodes v has an edge to.
 */
export function findCycleFrom(successors: readonly (readonly number[])[], roots: Iterable<number>): number[] | null {
  const state = new Uint8Array(successors.length); // 0 new, 1 on the path, 2 done
  for (const root of roots) {
    if (state[root] !== 0) continue;
    const path = [root];
    const next = [0];
    state[root] = 1;
    while (path.length > 0) {
      const v = path[path.length - 1];
      const k = next[next.length - 1]++;
      if (k >= successors[v].length) {
        state[v] = 2;
        path.pop();
        next.pop();
        continue;
      }
      const w = successors[v][k];
      if (state[w] === 1) return [...path.slice(path.indexOf(w)), w];
      if (state[w] === 0) {
        state[w] = 1;
        path.push(w);
        next.push(0);
      }
    }
  }
  return null;
}
