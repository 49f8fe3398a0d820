/**
 * TFLite model → graph IR: subgraph 0 becomes the function `main`.
 *
 * - params: the subgraph inputs (VarNode), named after their tensors;
 * - constants: tensors with buffer data, each placed right before its first consumer;
 * - one CallNode per operator, named after its output tensor, in TFLite execution order.
 *
 * Variable tensors (`is_variable`, e.g. the SVDF state) become ConstantNodes of zeros:
 * TFLite Micro zero-fills them at allocation, so this is their value on the first invoke,
 * and the model's input interface stays exactly TFLite's. Persisting the state across
 * invocations is not modelled by the dataflow graph.
 */
import { ModelFormatError, UnsupportedOperatorError } from '../../errors';
import { CallNode, ConstantNode, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION, TensorType, tensorBytes, VarNode } from '../../ir/graph/types';
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { convertOperator, isSupportedBuiltin } from './operators';
import { Model, Operator, OperatorCode, SubGraph, Tensor } from './schema';
import { constantData, tensorType, uniqueTensorNames } from './tensors';

/** Per-import state: tensors of subgraph 0, their names and cached types. */
class SubgraphReader {
  readonly tensors: Tensor[];
  readonly names: string[];
  private readonly types = new Map<number, TensorType>();

  constructor(
    readonly model: Model,
    readonly subgraph: SubGraph,
    readonly bytes: Uint8Array,
  ) {
    this.tensors = subgraph.tensors;
    this.names = uniqueTensorNames(this.tensors);
  }

  get source(): string {
    return this.model.source;
  }

  tensor(index: number, where: string, offset: number): Tensor {
    if (!Number.isInteger(index) || index < 0 || index >= this.tensors.length) {
      throw new ModelFormatError(
        `${where} refers to tensor ${index} of ${this.tensors.length} in ${this.source} (byte offset ${offset})`,
        { file: this.source, offset },
      );
    }
    return this.tensors[index];
  }

  type(index: number): TensorType {
    let t = this.types.get(index);
    if (!t) {
      t = tensorType(this.tensors[index], index, this.source);
      this.types.set(index, t);
    }
    return t;
  }
}

function operatorCode(codes: readonly OperatorCode[], op: Operator, index: number, source: string): OperatorCode {
  const i = op.opcodeIndex;
  if (i >= codes.length) {
    throw new ModelFormatError(
      `operator #${index} in ${source} has opcode_index ${i} but the model has ${codes.length} operator codes (byte offset ${op.pos})`,
      { file: source, offset: op.pos },
    );
  }
  return codes[i];
}

function unsupported(code: OperatorCode, builtin: number, index: number, op: Operator, source: string): never {
  const name =
    builtin === BuiltinOperatorCode.CUSTOM
      ? `custom operator '${code.customCode ?? ''}'`
      : `operator ${builtinOperatorName(builtin)} (builtin ${builtin})`;
  throw new UnsupportedOperatorError(`unsupported TFLite ${name} at operator #${index} in ${source}`, {
    file: source,
    offset: op.pos,
    op: builtinOperatorName(builtin),
  });
}

/** Builds main's node list while tracking which tensors already have a node. */
class FunctionBuilder {
  readonly nodes: GraphNode[] = [];
  private readonly defined = new Set<number>();

  constructor(private readonly r: SubgraphReader) {}

  addParam(index: number): VarNode {
    const node: VarNode = { kind: 'var', name: this.r.names[index], type: this.r.type(index) };
    this.define(index, node, 'subgraph input');
    return node;
  }

  /** Makes sure tensor `index` has a node before it is read, adding a constant if needed. */
  require(index: number, reader: string): void {
    if (this.defined.has(index)) return;
    const tensor = this.r.tensors[index];
    const type = this.r.type(index);
    const data = constantData(tensor, index, type, this.r.model.buffers, this.r.bytes, this.r.source);
    if (data) {
      this.define(index, { kind: 'constant', name: this.r.names[index], type, data }, reader);
    } else if (tensor.isVariable) {
      const zeros: ConstantNode = { kind: 'constant', name: this.r.names[index], type, data: new Uint8Array(tensorBytes(type)) };
      this.define(index, zeros, reader);
    } else {
      throw new ModelFormatError(
        `${reader} in ${this.r.source} reads tensor #${index} '${tensor.name}' before anything produces it`,
        { file: this.r.source, offset: tensor.pos },
      );
    }
  }

  define(index: number, node: GraphNode, by: string): void {
    if (this.defined.has(index)) {
      throw new ModelFormatError(`${by} in ${this.r.source} redefines tensor #${index} '${this.r.tensors[index].name}'`, {
        file: this.r.source,
      });
    }
    this.defined.add(index);
    this.nodes.push(node);
  }
}

function importOperator(
  r: SubgraphReader,
  b: FunctionBuilder,
  codes: readonly OperatorCode[],
  op: Operator,
  index: number,
): void {
  const code = operatorCode(codes, op, index, r.source);
  const builtin = code.effectiveBuiltinCode;
  if (!isSupportedBuiltin(builtin)) unsupported(code, builtin, index, op, r.source);
  const tfliteName = builtinOperatorName(builtin);
  const where = `${tfliteName} at operator #${index}`;

  const outputs = op.outputs;
  if (outputs.length !== 1) {
    throw new ModelFormatError(`${where} in ${r.source} has ${outputs.length} outputs, expected 1`, {
      file: r.source,
      offset: op.pos,
    });
  }
  const inputs = op.inputs;
  const inputTypes = inputs.map((t) => {
    if (t === -1) return null;
    r.tensor(t, where, op.pos);
    return r.type(t);
  });
  const out = outputs[0];
  r.tensor(out, where, op.pos);

  const converted = convertOperator(builtin, {
    index,
    tfliteName,
    operator: op,
    inputTypes,
    outputType: r.type(out),
    source: r.source,
  });
  const argTensors = converted.argPositions.map((p) => inputs[p]);
  for (const t of argTensors) b.require(t, where);
  const call: CallNode = {
    kind: 'call',
    name: r.names[out],
    callee: { kind: 'op', op: converted.op },
    args: argTensors.map((t) => r.names[t]),
    attrs: converted.attrs,
    type: r.type(out),
  };
  b.define(out, call, where);
}

/** Imports subgraph 0 of a `.tflite` model. `source` names the file in error messages. */
export function importTflite(bytes: Uint8Array, source = '<memory>'): IRModule {
  const model = Model.open(bytes, source);
  const subgraphs = model.subgraphs;
  if (subgraphs.length === 0) {
    throw new ModelFormatError(`TFLite file ${source} has no subgraphs`, { file: source, offset: model.pos });
  }
  const r = new SubgraphReader(model, subgraphs[0], bytes);
  const b = new FunctionBuilder(r);
  const codes = model.operatorCodes;

  const inputIndices = r.subgraph.inputs;
  const params = inputIndices.map((t) => {
    r.tensor(t, 'subgraph input', r.subgraph.pos);
    return b.addParam(t).name;
  });
  r.subgraph.operators.forEach((op, i) => importOperator(r, b, codes, op, i));

  const outputIndices = r.subgraph.outputs;
  for (const t of outputIndices) {
    r.tensor(t, 'subgraph output', r.subgraph.pos);
    b.require(t, 'subgraph output');
  }

  const main: GraphFunction = {
    name: MAIN_FUNCTION,
    params,
    nodes: b.nodes,
    outputs: outputIndices.map((t) => r.names[t]),
    attrs: {
      tflite_input_names: inputIndices.map((t) => r.tensors[t].name),
      tflite_output_names: outputIndices.map((t) => r.tensors[t].name),
    },
  };
  return { functions: new Map([[MAIN_FUNCTION, main]]), source };
}
