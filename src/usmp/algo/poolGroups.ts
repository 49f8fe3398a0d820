/**
 * Independent parts of a planning problem: buffers whose candidate pools never meet cannot
 * share memory, so their conflicts bind nothing and each part plans on its own. A compiled
 * model's problem is always at least two such parts (workspace buffers and constants have
 * pools of different kinds), and planned together the workspace part lost what only a part's
 * own structure gives: constants are listed against each other whatever their live ranges, so
 * the whole problem's conflicts were not its live-range overlaps and `auto` could not use its
 * exact core on the workspace (measured on all bundled networks in one int8 model: workspace
 * 2976 bytes, TVM's hill_climb 2944; planned alone, 2902 at its bound, proven).
 */
import { asIntervalGroup } from '../conflicts';
import { ascending, compactPartOf, restrictCompact } from '../compactConflicts';
import { intervalGroupOf } from '../intervalConflicts';
import { BufferInfo } from '../types';

/**
 * The problem's independent parts (buffers whose candidate pools are linked by some buffer), in
 * the order of their first buffer, each with its conflicts restricted to itself; undefined
 * when there is only one.
 */
export function independentPoolGroups(buffers: readonly BufferInfo[]): BufferInfo[][] | undefined {
  const parent = new Map<string, string>();
  const find = (p: string): string => {
    let root = p;
    while (parent.get(root) !== root) root = parent.get(root)!;
    for (let x = p; x !== root; ) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  for (const b of buffers) {
    for (const p of b.poolCandidates) if (!parent.has(p.name)) parent.set(p.name, p.name);
    for (const p of b.poolCandidates.slice(1)) parent.set(find(p.name), find(b.poolCandidates[0].name));
  }
  const byRoot = new Map<string, BufferInfo[]>();
  for (const b of buffers) {
    const root = find(b.poolCandidates[0].name);
    const group = byRoot.get(root) ?? [];
    group.push(b);
    byRoot.set(root, group);
  }
  if (byRoot.size < 2) return undefined;
  const groups = [...byRoot.values()];
  // An interval group's parts stay interval groups (conflicts from the ranges, no lists built).
  if (intervalGroupOf(buffers)) return groups.map((g) => asIntervalGroup(g));
  // A compiled model's parts stay compact: the same lists, built only if read.
  const compact = compactPartOf(buffers);
  if (compact && ascending(compact.indices)) return groups.map((g) => restrictCompact(g, compactPartOf(g)!));
  return groups.map((g) => {
    const names = new Set(g.map((b) => b.name));
    return g.map((b) => ({ ...b, conflicts: b.conflicts.filter((c) => names.has(c)) }));
  });
}
