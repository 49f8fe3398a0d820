/**
 * Writes the solved `candidate_memory_pools` onto every Allocate/AllocateConst of the module,
 * main and offloaded functions alike. AssignPoolInfo keeps existing annotations, so what is
 * written here is what the planner honours.
 */
import { Allocate, AllocateConst, ANN_CANDIDATE_POOLS, PrimFunc, Stmt, TirModule } from '../../src/ir/tir/nodes';
import { StmtExprMutator } from '../../src/ir/tir/mutator';
import { PinningSolution } from './solve';

export function writeCandidatePools(module: TirModule, solution: PinningSolution): TirModule {
  const byKey = new Map(solution.decisions.map((d) => [d.buffer.key, d.candidates]));
  const functions = new Map<string, PrimFunc>();
  for (const [name, f] of module.functions) {
    const annotate = new (class extends StmtExprMutator {
      override mutateAllocate(s: Allocate, body: Stmt): Stmt {
        return this.withPools(s, super.mutateAllocate(s, body) as Allocate);
      }
      override mutateAllocateConst(s: AllocateConst, body: Stmt): Stmt {
        return this.withPools(s, super.mutateAllocateConst(s, body) as AllocateConst);
      }
      withPools<T extends Allocate | AllocateConst>(original: T, rewritten: T): T {
        const pools = byKey.get(`${name}/${original.bufferVar.id}`);
        if (!pools) return rewritten;
        return { ...rewritten, annotations: { ...rewritten.annotations, [ANN_CANDIDATE_POOLS]: pools } };
      }
    })();
    functions.set(name, annotate.mutatePrimFunc(f));
  }
  return { functions };
}
