/**
 * I/O in the workspace (TVM `tir.usmp.transform.CreateAllocatesForIO`, U4): main's tensor
 * params become Allocates annotated `input_tensor` / `output_tensor` with the tensor name,
 * so the planner places model inputs and outputs in the pools with everything else and the
 * application reaches them through `map_inputs` / `map_outputs` instead of passing them in.
 *
 * Direction comes from main's `num_inputs` attribute when lowering sets it (params are
 * inputs then outputs); otherwise from how the program uses each param, through calls:
 * a param that is stored to, or handed to an external kernel as its last argument (the
 * output slot by the kernel calling convention), is an output; any other is an input.
 */
import { MemoryPlanningError } from '../errors';
import { allocate, intImm } from '../ir/tir/builder';
import { StmtExprMutator } from '../ir/tir/mutator';
import { StmtExprVisitor } from '../ir/tir/visitor';
import {
  ANN_INPUT_TENSOR,
  ANN_OUTPUT_TENSOR,
  ATTR_PARAM_TENSORS,
  Buffer,
  BufferStore,
  Call,
  Expr,
  MAIN_PRIM_FUNC,
  PrimFunc,
  Stmt,
  TirModule,
  Var,
} from '../ir/tir/nodes';
import { calledModuleFunction } from './extractBufferInfo';
import { TENSOR_ANNOTATION } from '../lower/bodyLowering';

/** Optional main attribute: how many leading params are model inputs. */
export const ATTR_NUM_INPUTS = 'num_inputs';

/** Follows main's tensor params into callees and records which ones get written. */
class WrittenParamFinder extends StmtExprVisitor {
  readonly written = new Set<number>();
  /** Var id in the current function → main param id it stands for. */
  private aliases: Map<number, number>;
  private readonly active: string[] = [MAIN_PRIM_FUNC];

  constructor(
    private readonly module: TirModule,
    main: PrimFunc,
  ) {
    super();
    this.aliases = new Map();
    for (const [param, buffer] of main.bufferMap) {
      this.aliases.set(param.id, param.id);
      this.aliases.set(buffer.data.id, param.id);
    }
  }

  override visitBufferStore(s: BufferStore): void {
    this.markWritten(s.buffer.data);
    super.visitBufferStore(s);
  }

  override visitCall(e: Call): void {
    super.visitCall(e);
    const callee = calledModuleFunction(e, this.module);
    if (callee !== undefined) {
      this.descend(callee, e.args.slice(1));
    } else if (e.op === 'tir.call_extern') {
      const last = e.args[e.args.length - 1];
      if (e.args.length > 1 && last.kind === 'Var') this.markWritten(last);
    }
  }

  private markWritten(v: Var): void {
    const param = this.aliases.get(v.id);
    if (param !== undefined) this.written.add(param);
  }

  private descend(name: string, args: readonly Expr[]): void {
    if (this.active.includes(name)) return;
    const f = this.module.functions.get(name)!;
    const inner = new Map<number, number>();
    f.params.forEach((p, i) => {
      const arg = args[i];
      const param = arg?.kind === 'Var' ? this.aliases.get(arg.id) : undefined;
      if (param === undefined) return;
      inner.set(p.id, param);
      const view = f.bufferMap.find(([v]) => v.id === p.id)?.[1];
      if (view !== undefined) inner.set(view.data.id, param);
    });
    const saved = this.aliases;
    this.aliases = inner;
    this.active.push(name);
    this.visitStmt(f.body);
    this.active.pop();
    this.aliases = saved;
  }
}

/** Replaces the data vars of main's param buffers by the params themselves. */
class DataVarUnifier extends StmtExprMutator {
  constructor(private readonly replace: ReadonlyMap<number, Var>) {
    super();
  }
  override mutateVar(v: Var): Expr {
    return this.replace.get(v.id) ?? v;
  }
  override mutateBuffer(b: Buffer): Buffer {
    const inner = super.mutateBuffer(b);
    const data = this.replace.get(b.data.id);
    return data === undefined ? inner : { ...inner, data };
  }
}

function flatExtent(b: Buffer): Expr[] {
  if (b.shape.every((d) => d.kind === 'IntImm')) {
    return [intImm(b.shape.reduce((n, d) => n * (d.kind === 'IntImm' ? d.value : 1), 1))];
  }
  return [...b.shape];
}

/** Moves main's tensor params into Allocates annotated as model inputs/outputs. */
export function createIoAllocates(module: TirModule): TirModule {
  const main = module.functions.get(MAIN_PRIM_FUNC);
  if (main === undefined) {
    throw new MemoryPlanningError(`module has no '${MAIN_PRIM_FUNC}' function`, { func: MAIN_PRIM_FUNC });
  }
  const tensorParams = main.params.filter((p) => main.bufferMap.some(([v]) => v.id === p.id));
  const numInputs = main.attrs[ATTR_NUM_INPUTS];
  let isOutput: (p: Var) => boolean;
  if (typeof numInputs === 'number') {
    isOutput = (p) => tensorParams.indexOf(p) >= numInputs;
  } else {
    const finder = new WrittenParamFinder(module, main);
    finder.visitStmt(main.body);
    isOutput = (p) => finder.written.has(p.id);
  }

  const replace = new Map<number, Var>();
  for (const [param, buffer] of main.bufferMap) {
    if (buffer.data.id !== param.id) replace.set(buffer.data.id, param);
  }
  let body: Stmt = replace.size > 0 ? new DataVarUnifier(replace).mutateStmt(main.body) : main.body;
  const tensors = main.attrs[ATTR_PARAM_TENSORS];
  const tensorOf = (param: Var): string | undefined => (Array.isArray(tensors) ? tensors[main.params.indexOf(param)] : undefined);
  for (const param of [...tensorParams].reverse()) {
    const buffer = main.bufferMap.find(([v]) => v.id === param.id)![1];
    const tensor = tensorOf(param);
    body = allocate({
      bufferVar: param,
      dtype: buffer.dtype,
      extents: flatExtent(buffer),
      body,
      annotations: { [isOutput(param) ? ANN_OUTPUT_TENSOR : ANN_INPUT_TENSOR]: param.name, ...(tensor !== undefined ? { [TENSOR_ANNOTATION]: tensor } : {}) },
    });
  }
  const tensorIds = new Set(tensorParams.map((p) => p.id));
  const newMain: PrimFunc = {
    ...main,
    params: main.params.filter((p) => !tensorIds.has(p.id)),
    bufferMap: main.bufferMap.filter(([v]) => !tensorIds.has(v.id)),
    body,
  };
  const functions = new Map(module.functions);
  functions.set(MAIN_PRIM_FUNC, newMain);
  return { ...module, functions };
}
