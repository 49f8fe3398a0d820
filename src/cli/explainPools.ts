/**
 * `uma-ts explain-pools <model.tflite> --backend <name>`: runs the pipeline up to pool
 * pinning (no planning, no output) and prints, per buffer, its candidate pools and which
 * constraint removed each other pool.
 */
import { Command } from 'commander';
import { pathValue } from './optionValues';
import { compileToTir } from '../driver/compileToTir';
import { codegenHooksOf, ioNeededByRuntimes, ioSpecs, namingModelFile } from '../driver/compile';
import { loadTfliteFile } from '../frontend/tflite';
import { createIoAllocates } from '../usmp/ioAllocates';
import { moduleTargets } from '../usmp/pipeline';
import { defaultPools, withDefaultConstantPool } from '../usmp/pools';
import { PoolInfo } from '../usmp/types';
import {
  constraintsFromMemoryDecl,
  explainPools,
  formatExplanation,
  InsertedCopy,
  insertCopiesForPinning,
  mergeConstraints,
  mergeTargetAccess,
  NO_CONSTRAINTS,
  PoolExplanation,
  runPoolPinning,
} from '../../passes/poolPinning';
import { addCommonOptions, CommonCliOptions, formatInsertedCopies, resolveInputs } from './compile';
import { CliIO } from './io';

export interface PoolsExplanation {
  readonly model: string;
  readonly backend: string;
  readonly pools: readonly string[];
  readonly buffers: readonly PoolExplanation[];
  /** Model inputs/outputs the application owns (not planned unless --io-in-workspace). */
  readonly external: readonly string[];
  /** Copies `--insert-copies` inserted (absent without the flag). */
  readonly insertedCopies?: readonly InsertedCopy[];
}

/** The same pool and constraint set-up `compileModel` gives the pinning pass. */
export async function explainModelPools(model: string, options: CommonCliOptions): Promise<PoolsExplanation> {
  const inputs = await resolveInputs(options);
  const graph = loadTfliteFile(model);
  // A problem in the model found while lowering names the file, as compile's does.
  const { tir } = namingModelFile(model, () =>
    compileToTir(graph, inputs.registry, inputs.backend, {
      mergeRegions: options.mergeRegions,
      attrs: inputs.targetAttrs,
    }),
  );
  const targets = moduleTargets(tir);
  const memory = inputs.registry.memoryFor(inputs.backend);
  let pools: PoolInfo[] = mergeTargetAccess(inputs.pools ?? defaultPools(targets), inputs.backend, memory);
  pools = withDefaultConstantPool(pools, targets);
  const backendConstraints =
    memory.pools.length > 0 || memory.operandConstraints.length > 0
      ? constraintsFromMemoryDecl(inputs.backend, memory)
      : NO_CONSTRAINTS;
  const constraints = mergeConstraints(backendConstraints, inputs.pins ?? NO_CONSTRAINTS);
  const io = ioSpecs(graph);
  // As compile decides: I/O a pool-registering runtime touches is planned in the workspace.
  const ioInWorkspace = options.ioInWorkspace === true || ioNeededByRuntimes(tir, codegenHooksOf(inputs.registry, targets), io) !== undefined;
  const lowered = ioInWorkspace ? createIoAllocates(tir) : tir;
  const copied = options.insertCopies ? insertCopiesForPinning(lowered, pools, constraints) : undefined;
  const { solution } = runPoolPinning(copied?.module ?? lowered, pools, constraints);
  return {
    model,
    backend: inputs.backend,
    pools: pools.map((p) => p.name),
    buffers: explainPools(solution, pools),
    external: ioInWorkspace ? [] : [...io.inputs, ...io.outputs].map((s) => s.name),
    ...(copied ? { insertedCopies: copied.inserted } : {}),
  };
}

export function register(program: Command, io: CliIO): void {
  const command = program
    .command('explain-pools')
    .description('show, for every buffer, its candidate pools and the constraint that removed each other pool')
    .argument('<model>', 'path to a .tflite file', pathValue);
  addCommonOptions(command).action(async (model: string, options: CommonCliOptions) => {
    const explanation = await explainModelPools(model, options);
    if (options.json) {
      io.out(JSON.stringify(explanation, null, 2));
      return;
    }
    io.out(
      [
        `Pools for ${model} on ${explanation.backend} (preference order): ${explanation.pools.join(', ')}`,
        ...formatInsertedCopies(explanation.insertedCopies),
        '',
        formatExplanation(explanation.buffers, explanation.external),
      ].join('\n'),
    );
  });
}
