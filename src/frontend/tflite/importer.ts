/**
 * TFLite model → graph IR: subgraph 0 becomes the function `main`.
 *
 * - params: the subgraph inputs (VarNode), named after their tensors;
 * - constants: tensors with buffer data, each placed right before its first consumer;
 * - one CallNode per operator, named after its output tensor, in TFLite execution order.
 *
 * Variable tensors (`is_variable`, e.g. the SVDF state) become ConstantNodes marked
 * `variable: true`, filled as TFLite Micro resets them (int8: the zero point; else 0): their
 * value on the first invoke, and the model's input interface stays exactly TFLite's. The
 * flag tells the interpreter session and lowering that the owning operator writes the
 * value back, so it persists across invocations.
 */
import { UnsupportedOperatorError } from '../../errors';
import { modelFormatError } from './flatbuf';
import { CallNode, ConstantNode, GraphFunction, GraphNode, IRModule, MAIN_FUNCTION, TensorType, tensorBytes, VarNode } from '../../ir/graph/types';
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { convertOperator, isSupportedBuiltin } from './converters';
import { Model, Operator, OperatorCode, SubGraph, Tensor } from './schema';
import { constantData, tensorType, uniqueTensorNames } from './tensors';

/** Larger variable tensors only come from corrupt shapes; refuse before allocating them. */
const MAX_VARIABLE_BYTES = 1 << 30;

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
      throw modelFormatError(this.source, offset, `${where} refers to tensor ${index} of ${this.tensors.length}`);
    }
    return this.tensors[index];
  }

  /** `user`: who first asks (`input of CONV_2D at operator #3`), named by quantization errors. */
  type(index: number, user?: string): TensorType {
    let t = this.types.get(index);
    if (!t) {
      t = tensorType(this.tensors[index], index, this.source, user);
      this.types.set(index, t);
    }
    return t;
  }
}

function operatorCode(codes: readonly OperatorCode[], op: Operator, index: number, source: string): OperatorCode {
  const i = op.opcodeIndex;
  if (i >= codes.length) {
    throw modelFormatError(source, op.pos, `operator #${index} has opcode_index ${i} but the model has ${codes.length} operator codes`);
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
    const node: VarNode = { kind: 'var', name: this.r.names[index], type: this.r.type(index, 'model input') };
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
      const bytes = tensorBytes(type);
      if (bytes > MAX_VARIABLE_BYTES) {
        throw modelFormatError(
          this.r.source,
          tensor.pos,
          `variable tensor #${index} '${tensor.name}' would need ${bytes} bytes (shape [${type.shape}])`,
        );
      }
      // TFLite Micro resets variable tensors with memset: to the zero point for int8, else 0.
      const fill = type.dtype === 'int8' && type.quant ? type.quant.zeroPoint[0] & 0xff : 0;
      const initial: ConstantNode = {
        kind: 'constant',
        name: this.r.names[index],
        type,
        data: new Uint8Array(bytes).fill(fill),
        variable: true,
      };
      this.define(index, initial, reader);
    } else {
      throw modelFormatError(this.r.source, tensor.pos, `${reader} reads tensor #${index} '${tensor.name}' before anything produces it`);
    }
  }

  define(index: number, node: GraphNode, by: string): void {
    if (this.defined.has(index)) {
      const tensor = this.r.tensors[index];
      throw modelFormatError(this.r.source, tensor.pos, `${by} redefines tensor #${index} '${tensor.name}'`);
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
    throw modelFormatError(r.source, op.pos, `${where} has ${outputs.length} outputs, expected 1`);
  }
  const inputs = op.inputs;
  const inputTypes = inputs.map((t) => {
    if (t === -1) return null;
    r.tensor(t, where, op.pos);
    return r.type(t, `input of ${where}`);
  });
  const out = outputs[0];
  r.tensor(out, where, op.pos);
  r.type(out, `output of ${where}`);

  const converted = convertOperator(builtin, {
    index,
    tfliteName,
    operator: op,
    inputTypes,
    outputType: r.type(out),
    source: r.source,
    constantInput: (p) => {
      const t = inputs[p];
      if (t === undefined || t === -1) return null;
      return constantData(r.tensors[t], t, r.type(t), r.model.buffers, r.bytes, r.source);
    },
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
    throw modelFormatError(source, model.pos, 'the model has no subgraphs');
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
