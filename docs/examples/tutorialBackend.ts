/**
 * The backend built step by step in docs/tutorial-first-backend.md: a "tutorial" accelerator
 * with one float32 dense kernel (tutorial/tutorial_kernels.c) and one SRAM it shares with the
 * CPU. It only uses the public API, imported by the package name `uma-ts` exactly as a backend
 * in its own project would (in this repository jest and tsc map the name to `src/index.ts`).
 */
import {
  CodegenHooks,
  LoweringError,
  OpLoweringInput,
  OperatorStrategy,
  TirPass,
  UmaBackend,
  forEachTargetFunction,
  isConstant,
  isOp,
  nestBuffers,
  readRuntimeSources,
  replaceLoopNestWithCallExtern,
  tir,
  wildcard,
} from 'uma-ts';

export const TUTORIAL_TARGET = 'tutorial';
/** The accelerator's SRAM: every dense output must live here. */
export const TUTORIAL_SRAM = 'tut_sram';
export const DENSE_KERNEL = 'tutorial_dense_f32';

/** Activation codes understood by the C kernel (TUTORIAL_ACT_* in tutorial_kernels.h). */
export const ACTIVATION_CODES: Readonly<Record<string, number>> = { NONE: 0, RELU: 1, RELU6: 2 };

// --- step 3: strategy --------------------------------------------------------------------

const KERNEL_ANN = 'tutorial.kernel';
const OPERANDS_ANN = 'tutorial.operands';
const DIMS_ANN = 'tutorial.dims';
const ACTIVATION_ANN = 'tutorial.activation';

function dims(buffer: tir.Buffer): number[] {
  return buffer.shape.map((e) => {
    if (e.kind !== 'IntImm') throw new LoweringError(`tutorial: buffer '${buffer.name}' has a symbolic shape`, { buffer: buffer.name });
    return e.value;
  });
}

/**
 * Lowers dense to a plain float32 loop nest (correct on its own, so the TIR evaluator can run
 * it) and tags the outer loop so the TIR pass can find it and swap in the kernel.
 */
export const tutorialDenseStrategy: OperatorStrategy = (input: OpLoweringInput) => {
  const { call, args, out } = input;
  const activation = String(call.attrs.activation ?? 'NONE');
  if (!(activation in ACTIVATION_CODES)) {
    throw new LoweringError(`tutorial: dense activation ${activation} is not supported`, { op: call.name, target: TUTORIAL_TARGET });
  }
  const [units, depth] = dims(args[1]);
  const batches = dims(args[0]).reduce((a, b) => a * b, 1) / depth;
  // 2-d views on the same memory: the kernel sees flat row-major arrays.
  const data = tir.makeBuffer(args[0].name, 'float32', [batches, depth], args[0].data);
  const result = tir.makeBuffer(out.name, 'float32', [batches, units], out.data);
  const [weight, bias] = [args[1], args[2]];

  const b = tir.makeVar('b');
  const u = tir.makeVar('u');
  const d = tir.makeVar('d');
  const acc = () => tir.bufferLoad(result, [b, u]);
  const lo = activation === 'NONE' ? -3.4028234663852886e38 : 0;
  const hi = activation === 'RELU6' ? 6 : 3.4028234663852886e38;
  const body = tir.seq([
    tir.bufferStore(result, tir.floatImm(0), [b, u]),
    tir.forLoop(d, 0, depth, tir.bufferStore(result, tir.add(acc(), tir.mul(tir.bufferLoad(data, [b, d]), tir.bufferLoad(weight, [u, d]))), [b, u])),
    tir.bufferStore(result, tir.min(tir.max(tir.add(acc(), tir.bufferLoad(bias, [u])), tir.floatImm(lo)), tir.floatImm(hi)), [b, u]),
  ]);
  return tir.forLoop(b, 0, batches, tir.forLoop(u, 0, units, body), 'serial', {
    [KERNEL_ANN]: 'dense',
    [OPERANDS_ANN]: [data.name, weight.name, bias.name, result.name],
    [DIMS_ANN]: [batches, units, depth],
    [ACTIVATION_ANN]: ACTIVATION_CODES[activation],
  });
};

// --- step 4: TIR pass ----------------------------------------------------------------------

/**
 * Replaces every tagged dense loop nest with `tutorial_dense_f32(data, weight, bias, out, ...)`.
 * Nests deeper than the target attribute `max_depth` stay loops (the kernel's limit).
 */
export const replaceDenseWithKernel: TirPass = {
  name: 'tutorial.ReplaceDenseWithKernel',
  phase: 0,
  run: (module, ctx) =>
    forEachTargetFunction(module, ctx.target, (func) =>
      replaceLoopNestWithCallExtern(
        func,
        (nest) => {
          const fits = ((nest.annotations[DIMS_ANN] as readonly number[] | undefined)?.[2] ?? Infinity) <= Number(ctx.attrs.max_depth);
          return nest.annotations[KERNEL_ANN] === 'dense' && fits ? nest.annotations : undefined;
        },
        (nest, ann) => {
          const { reads, writes } = nestBuffers(nest);
          const byName = new Map([...reads, ...writes].map((buf) => [buf.name, buf.data]));
          const operands = (ann[OPERANDS_ANN] as readonly string[]).map((n) => byName.get(n)!);
          const [batches, units, depth] = ann[DIMS_ANN] as readonly number[];
          return tir.callExtern(DENSE_KERNEL, [...operands, batches, units, depth, ann[ACTIVATION_ANN] as number]);
        },
      ),
    ),
};

// --- step 5: codegen -----------------------------------------------------------------------

export const tutorialCodegen: CodegenHooks = {
  includes: () => '#include "tutorial_kernels.h"',
  // The C files sit in ./tutorial next to this module (also found from a compiled dist/ copy).
  runtimeSources: () => readRuntimeSources(__dirname, ['tutorial_kernels.h', 'tutorial_kernels.c'], TUTORIAL_TARGET, 'tutorial'),
};

// --- steps 1, 2, 6: the backend ------------------------------------------------------------

export class TutorialBackend extends UmaBackend {
  readonly targetName = TUTORIAL_TARGET;

  constructor() {
    super();
    // 1. target attributes: `--target-attr max_depth=512` on the command line.
    this.registerTargetAttr('max_depth', 4096);
    // 2. pattern: float32 dense with a constant weight and bias, as one composite `tutorial.dense`.
    this.registerPattern('dense', isOp('dense')(wildcard(), isConstant(), isConstant()).hasDtype('float32'));
    // 3. strategy, 4. TIR pass, 5. codegen.
    this.registerOperatorStrategy('dense', tutorialDenseStrategy);
    this.registerTirPass(0, replaceDenseWithKernel);
    this.registerCodegen(tutorialCodegen);
    // 6. memory: the accelerator reaches tut_sram; its dense writes there and nowhere else.
    this.registerMemory({
      pools: [{ pool: TUTORIAL_SRAM, access: 'rw' }],
      operandConstraints: [{ op: 'tutorial.dense', allOutputs: [TUTORIAL_SRAM] }],
    });
  }
}
