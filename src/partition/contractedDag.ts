/**
 * The dataflow graph of one function with some node sets contracted into single nodes (the
 * composites and regions formed so far), and the partitioner's question about it: "would
 * contracting these nodes too create a cycle?".
 *
 * The contracted graph stays acyclic, so it keeps a topological order of its groups, updated
 * on each contraction (the local reordering of Pearce and Kelly's dynamic topological sort).
 * A cycle through a candidate set is a path that leaves it and comes back, and every group on
 * such a path lies strictly between the set's first and last group in that order: the check
 * searches only that window. Checking the whole graph per candidate (Kahn's algorithm, as
 * before) made partitioning quadratic: 45 s of a 16,000-operator unrolled model's compile.
 */
import { LoweringError } from '../errors';
import { FunctionView, OMITTED_ARG } from './dataflow';

const EMPTY_SLOT = -1;

export class ContractedDag {
  private readonly nodeCount: number;
  /** CSR successor lists of the original graph, by node position. */
  private readonly succStart: Int32Array;
  private readonly succ: Int32Array;
  /** Representative node of each node's group (itself for singletons). */
  private readonly groupOf: Int32Array;
  /** Members of each group, by representative; absent for singletons. */
  private readonly members = new Map<number, number[]>();
  /** Topological slot of each group, by representative. */
  private readonly slotOf: Int32Array;
  /** Group in each slot, or EMPTY_SLOT where a contraction freed it. */
  private readonly slots: Int32Array;
  /** Stamps for the current query's candidate groups and visited groups, by representative. */
  private readonly candidateStamp: Int32Array;
  private readonly visitedStamp: Int32Array;
  private stamp = 0;

  constructor(private readonly view: FunctionView) {
    const nodes = view.fn.nodes;
    const n = nodes.length;
    this.nodeCount = n;
    const from: number[] = [];
    const to: number[] = [];
    nodes.forEach((node, i) => {
      if (node.kind !== 'call') return;
      for (const a of new Set(node.args)) {
        if (a === OMITTED_ARG) continue;
        const p = view.position(a);
        // Positions are the initial order: it must be topological for the window to hold.
        if (p >= i) {
          throw new LoweringError(`function '${view.fn.name}': call '${node.name}' uses '${a}', which comes after it`, {
            func: view.fn.name,
            op: node.name,
          });
        }
        from.push(p);
        to.push(i);
      }
    });
    this.succStart = new Int32Array(n + 1);
    for (const f of from) this.succStart[f + 1]++;
    for (let i = 0; i < n; i++) this.succStart[i + 1] += this.succStart[i];
    const fill = this.succStart.slice(0, n);
    this.succ = new Int32Array(from.length);
    for (let e = 0; e < from.length; e++) this.succ[fill[from[e]]++] = to[e];
    this.groupOf = new Int32Array(n);
    this.slotOf = new Int32Array(n);
    this.slots = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.groupOf[i] = i;
      this.slotOf[i] = i;
      this.slots[i] = i;
    }
    this.candidateStamp = new Int32Array(n);
    this.visitedStamp = new Int32Array(n);
  }

  /** The representatives of the groups `names` touch, stamped as this query's candidates. */
  private markCandidates(names: Iterable<string>): number[] {
    this.stamp++;
    const groups: number[] = [];
    for (const name of names) {
      const g = this.groupOf[this.view.position(name)];
      if (this.candidateStamp[g] === this.stamp) continue;
      this.candidateStamp[g] = this.stamp;
      groups.push(g);
    }
    return groups;
  }

  private membersOf(g: number): readonly number[] {
    return this.members.get(g) ?? [g];
  }

  /**
   * Searches forward from the candidate groups through groups before the last candidate's
   * slot, stamping each one reached. Returns false when the search gets back into a candidate
   * (contracting them would close a cycle).
   */
  private searchWindow(groups: readonly number[]): boolean {
    let last = 0;
    for (const g of groups) last = Math.max(last, this.slotOf[g]);
    const stack: number[] = [];
    const expand = (g: number, fromCandidate: boolean): boolean => {
      for (const m of this.membersOf(g)) {
        for (let k = this.succStart[m]; k < this.succStart[m + 1]; k++) {
          const h = this.groupOf[this.succ[k]];
          if (h === g) continue;
          if (this.candidateStamp[h] === this.stamp) {
            if (!fromCandidate) return false;
            continue;
          }
          if (this.visitedStamp[h] === this.stamp || this.slotOf[h] >= last) continue;
          this.visitedStamp[h] = this.stamp;
          stack.push(h);
        }
      }
      return true;
    };
    for (const g of groups) expand(g, true);
    while (stack.length > 0) if (!expand(stack.pop()!, false)) return false;
    return true;
  }

  /**
   * True when contracting `names` (with the groups they belong to) into one node keeps the
   * graph acyclic, i.e. no path leaves the set and comes back into it.
   */
  isConvex(names: Iterable<string>): boolean {
    return this.searchWindow(this.markCandidates(names));
  }

  /** Contracts `names` (with the groups they belong to) into one group; they must be convex. */
  contract(names: Iterable<string>): void {
    const groups = this.markCandidates(names);
    if (groups.length < 2) return;
    if (!this.searchWindow(groups)) {
      throw new LoweringError(`function '${this.view.fn.name}': contracting these nodes would create a cycle`, { func: this.view.fn.name });
    }
    let first = this.nodeCount;
    let last = 0;
    let rep = groups[0];
    for (const g of groups) {
      first = Math.min(first, this.slotOf[g]);
      last = Math.max(last, this.slotOf[g]);
      if (this.membersOf(g).length > this.membersOf(rep).length) rep = g;
    }
    // Union by size: only the smaller groups' members are relabelled.
    const merged = [...this.membersOf(rep)];
    for (const g of groups) {
      if (g === rep) continue;
      for (const m of this.membersOf(g)) {
        this.groupOf[m] = rep;
        merged.push(m);
      }
      this.members.delete(g);
    }
    this.members.set(rep, merged);
    // Within the window: groups the candidates reach go after the new group, the rest before.
    const before: number[] = [];
    const after: number[] = [];
    for (let t = first; t <= last; t++) {
      const g = this.slots[t];
      if (g === EMPTY_SLOT || this.candidateStamp[g] === this.stamp) continue;
      (this.visitedStamp[g] === this.stamp ? after : before).push(g);
    }
    let t = first;
    const put = (g: number): void => {
      this.slots[t] = g;
      this.slotOf[g] = t++;
    };
    before.forEach(put);
    put(rep);
    after.forEach(put);
    while (t <= last) this.slots[t++] = EMPTY_SLOT;
  }
}
