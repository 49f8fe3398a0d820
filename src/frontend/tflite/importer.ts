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
 * value back, so it persists across invocations. Resource variables (VAR_HANDLE,
 * READ_VARIABLE, ASSIGN_VARIABLE, CALL_ONCE and its init subgraph) are variable ConstantNodes
 * too, built by `resourceVariables.ts`.
 */
import { TypeInferenceError, UnsupportedOperatorError } from '../../errors';
import { checkFunctionTypes, inferCallType } from '../../ir/graph/typeInference';
import { modelFormatError } from './flatbuf';
import { CallNode, GraphFunction, IRModule, MAIN_FUNCTION, TensorType, tensorBytes } from '../../ir/graph/types';
import { BuiltinOperatorCode, builtinOperatorName } from './builtinOperators';
import { noTflmKernel } from './converters/tflmKernels';
import { ConvertedOperator, OperatorSite, convertCustomOperator, convertOperator, isSupportedBuiltin, isSupportedCustom } from './converters';
import { Model, Operator, OperatorCode, TensorTypeCode } from './schema';
import { float16ConstantAsFloat32 } from './tensors';
import { FreshNames, FunctionBuilder, MAX_VARIABLE_BYTES, SubgraphReader } from './subgraphBuilder';
import { RESOURCE_VARIABLE_BUILTINS, ResourceVariables } from './resourceVariables';
import { CONTROL_FLOW_BUILTINS, ControlFlow } from './controlFlow';
import { checkSignatureDefs } from './signatureDefs';
import { checkSubgraphCalls } from './subgraphCalls';

/** TFLite Micro reads int4 tensors only as the weights (input 1) of these operators with int8 inputs. */
const INT4_WEIGHT_OPERATORS: ReadonlySet<number> = new Set([
  BuiltinOperatorCode.CONV_2D,
  BuiltinOperatorCode.DEPTHWISE_CONV_2D,
  BuiltinOperatorCode.FULLY_CONNECTED,
]);

/**
 * Int4 inputs of an operator: constant weights of an int8 convolution or fully connected
 * layer are widened to int8 (exact, what TFLite Micro unpacks); any other int4 use is refused
 * by name, as TFLite Micro refuses it.
 */
function widenInt4Weights(r: SubgraphReader, op: Operator, builtin: number, where: string): void {
  op.inputs.forEach((t, position) => {
    if (t === -1) return;
    const tensor = r.tensor(t, where, op.pos);
    if (tensor.type !== TensorTypeCode.INT4) return;
    const refuse = (why: string): never => {
      throw new UnsupportedOperatorError(`unsupported int4 tensor #${t} '${tensor.name}' as input ${position} of ${where} in ${r.source}: ${why}`, {
        file: r.source,
        offset: op.pos,
        op: builtinOperatorName(builtin),
        tensor: tensor.name,
      });
    };
    if (!INT4_WEIGHT_OPERATORS.has(builtin) || position !== 1) {
      refuse('int4 is only supported as the weights of int8 CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (as TFLite Micro)');
    }
    const input = op.inputs[0];
    if (input !== undefined && input !== -1) r.tensor(input, where, op.pos);
    const inputType = input === undefined || input === -1 ? undefined : r.type(input, `input of ${where}`);
    if (inputType?.dtype !== 'int8') refuse(`int4 weights need an int8 input, not ${inputType?.dtype ?? 'none'} (as TFLite Micro)`);
    if (!r.widenInt4(t, `weights of ${where}`)) refuse('int4 weights must be constant');
  });
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
  const why = builtin === BuiltinOperatorCode.CUSTOM ? undefined : noTflmKernel(builtinOperatorName(builtin));
  throw new UnsupportedOperatorError(`unsupported TFLite ${name} at operator #${index} in ${source}${why === undefined ? '' : `: ${why}`}`, {
    file: source,
    offset: op.pos,
    op: builtinOperatorName(builtin),
  });
}

/**
 * The one call of an operator whose outputs are sliced from a packed tensor (see
 * ConvertedOperator.packed): named `<first output>_packed` (suffixed until unique), it has no
 * TFLite tensor of its own. Returns its name.
 */
function addPackedCall(
  r: SubgraphReader,
  b: FunctionBuilder,
  c: ConvertedOperator,
  type: TensorType,
  argTensors: readonly number[],
  firstOutput: string,
  origin: Record<string, string | number>,
  by: string,
  extraArgs: readonly string[] = [],
): string {
  const taken = new Set([...r.names, ...b.nodes.map((n) => n.name)]);
  let name = `${firstOutput}_packed`;
  for (let k = 1; taken.has(name); k++) name = `${firstOutput}_packed_${k}`;
  for (const t of argTensors) b.require(t, by);
  b.addNode({ kind: 'call', name, callee: { kind: 'op', op: c.op }, args: [...argTensors.map((t) => r.names[t]), ...extraArgs], attrs: { ...c.attrs, ...origin }, type });
  return name;
}

/**
 * The variable constant of an operator's own state (ConvertedOperator.state): zero-filled (or
 * its `initial` bytes), as TFLite Micro resets it, named `<first output>_<suffix>` (suffixed until unique). Returns its name.
 */
function addOperatorState(r: SubgraphReader, b: FunctionBuilder, state: NonNullable<ConvertedOperator['state']>, firstOutput: string, where: string, offset: number): string {
  const bytes = tensorBytes(state.type);
  if (!(bytes <= MAX_VARIABLE_BYTES)) {
    throw new UnsupportedOperatorError(`unsupported state of ${bytes} bytes (shape [${state.type.shape}]) on ${where} in ${r.source}: at most ${MAX_VARIABLE_BYTES}`, { file: r.source, offset });
  }
  const taken = new Set([...r.names, ...b.nodes.map((n) => n.name)]);
  let name = `${firstOutput}_${state.suffix}`;
  for (let k = 1; taken.has(name); k++) name = `${firstOutput}_${state.suffix}_${k}`;
  b.addNode({ kind: 'constant', name, type: state.type, data: state.initial ?? new Uint8Array(bytes), variable: true });
  return name;
}

/**
 * A tensor with data in the file is a constant (read-only to TFLite, never planned by TFLite
 * Micro, which leaves it in the flatbuffer): an operator writing one is a corrupt model, and
 * later operators would disagree on its value (shape-like inputs read the file's data, the
 * rest the operator's result). WHILE and IF outputs included.
 */
function refuseConstantOutputs(r: SubgraphReader, op: Operator, where: string): void {
  for (const o of op.outputs) {
    r.tensor(o, where, op.pos);
    const data = r.tensors[o].isVariable ? null : r.constant(o);
    if (data !== null && data.length > 0) throw modelFormatError(r.source, op.pos, `${where} writes tensor #${o} '${r.tensors[o].name}', which holds constant data`);
  }
}

function importOperator(
  r: SubgraphReader,
  b: FunctionBuilder,
  codes: readonly OperatorCode[],
  op: Operator,
  index: number,
  resources?: ResourceVariables,
  flow?: ControlFlow,
): void {
  const code = operatorCode(codes, op, index, r.source);
  const builtin = code.effectiveBuiltinCode;
  const customCode = builtin === BuiltinOperatorCode.CUSTOM ? code.customCode : null;
  if (customCode !== null ? !isSupportedCustom(customCode) : !isSupportedBuiltin(builtin)) unsupported(code, builtin, index, op, r.source);
  if (CONTROL_FLOW_BUILTINS.has(builtin)) {
    if (!flow) unsupported(code, builtin, index, op, r.source);
    refuseConstantOutputs(r, op, `${builtinOperatorName(builtin)} at operator #${index}`);
    flow.importOperator(r, b, builtin, op, index);
    return;
  }
  if (RESOURCE_VARIABLE_BUILTINS.has(builtin)) {
    if (!resources) unsupported(code, builtin, index, op, r.source);
    resources.importOperator(builtin, op, index);
    return;
  }
  const tfliteName = customCode ?? builtinOperatorName(builtin);
  const where = `${tfliteName} at operator #${index}`;
  if (builtin === BuiltinOperatorCode.DEQUANTIZE && (foldFloat16Dequantize(r, b, op, where) || foldPerChannelDequantize(r, b, op, where))) return;
  widenInt4Weights(r, op, builtin, where);

  const outputs = op.outputs;
  if (outputs.length === 0) {
    throw modelFormatError(r.source, op.pos, `${where} has no outputs`);
  }
  const inputs = op.inputs;
  const inputTypes = inputs.map((t) => {
    if (t === -1) return null;
    r.tensor(t, where, op.pos);
    return r.type(t, `input of ${where}`);
  });
  refuseConstantOutputs(r, op, where);
  const outputTypes = outputs.map((o) => r.type(o, `output of ${where}`));

  const site: OperatorSite = {
    index,
    tfliteName,
    operator: op,
    inputTypes,
    outputType: outputTypes[0],
    outputTypes,
    source: r.source,
    constantInput: (position) => {
      const t = inputs[position];
      if (t === undefined || t === -1) return null;
      return r.constant(t) ?? b.folded.get(t) ?? null;
    },
    knownInput: (position) => {
      const t = inputs[position];
      if (t === undefined || t === -1) return null;
      return r.constant(t) ?? b.folded.get(t) ?? shapeOutputValue(b, r.names[t]);
    },
    inputNames: inputs.map((t) => (t === -1 ? null : r.names[t])),
  };
  const converted = customCode !== null ? convertCustomOperator(customCode, site) : convertOperator(builtin, site);
  if (converted.folded !== undefined) {
    if (outputs.length !== 1) throw modelFormatError(r.source, op.pos, `${where} has ${outputs.length} outputs, expected 1`);
    b.define(outputs[0], { kind: 'constant', name: r.names[outputs[0]], type: outputTypes[0], data: converted.folded }, where);
    // Later operators see it as the constant it is (FILL's dims, another BROADCAST_ARGS...).
    b.folded.set(outputs[0], converted.folded);
    return;
  }
  const perOutput = converted.perOutput;
  if (perOutput ? perOutput.length !== outputs.length : outputs.length !== 1) {
    throw modelFormatError(r.source, op.pos, `${where} has ${outputs.length} outputs, expected ${perOutput ? perOutput.length : 1}`);
  }
  const origin = { tflite_operator: tfliteName, tflite_index: index };
  const stateName = converted.state ? addOperatorState(r, b, converted.state, r.names[outputs[0]], where, op.pos) : null;
  if (stateName !== null && !converted.packed && perOutput) throw new Error(`${where}: operator state needs one call (or a packed call)`);
  // Without a packed call, the one call takes the state as its last argument.
  const stateArgs = stateName !== null && !converted.packed ? [stateName] : [];
  const stateTypes = stateName !== null && converted.state ? [converted.state.type] : [];
  const packedName = converted.packed
    ? addPackedCall(r, b, converted, converted.packed.type, converted.argPositions.map((p) => inputs[p]), r.names[outputs[0]], origin, where, stateName === null ? [] : [stateName])
    : null;
  (perOutput ?? [converted]).forEach((c, k) => {
    const argTensors = packedName === null ? c.argPositions.map((p) => inputs[p]) : [];
    for (const t of argTensors) b.require(t, where);
    // A multi-output operator becomes one call per output; each remembers the original.
    const attrs = perOutput ? { ...c.attrs, ...origin, tflite_output: k } : c.attrs;
    const call: CallNode = {
      kind: 'call',
      name: r.names[outputs[k]],
      callee: { kind: 'op', op: c.op },
      args: packedName === null ? [...argTensors.map((t) => r.names[t]), ...stateArgs] : [packedName],
      attrs,
      type: outputTypes[k],
    };
    checkTypeRule(c.op, call, [...argTensors.map((t) => r.type(t)), ...(stateArgs.length > 0 ? stateTypes : [])], where, r.source, op.pos, tfliteName);
    b.define(outputs[k], call, where);
  });
}

/** The int32 dimensions computed by a SHAPE call named `name` (shapes are static), else null. */
function shapeOutputValue(b: FunctionBuilder, name: string): Uint8Array | null {
  const call = b.nodes.find((n) => n.name === name);
  if (call?.kind !== 'call' || call.callee.kind !== 'op' || call.callee.op !== 'shape') return null;
  const input = b.nodes.find((n) => n.name === call.args[0]);
  if (input === undefined || !('type' in input)) return null;
  const bytes = new Uint8Array(4 * input.type.shape.length);
  const view = new DataView(bytes.buffer);
  input.type.shape.forEach((d, i) => view.setInt32(4 * i, d, true));
  return bytes;
}

/**
 * Ops whose type rule can refuse a well-formed operator: operand dtypes that must combine
 * (input, weights, bias), and block shapes, crops or paddings that must fit the input (crops
 * that leave no output rows, a height that is not a multiple of the block). Their rule runs at
 * import.
 */
const IMPORT_TYPE_RULE_OPS: ReadonlySet<string> = new Set([
  'conv2d',
  'depthwise_conv2d',
  'dense',
  'transpose_conv2d',
  'batch_to_space_nd',
  'space_to_batch_nd',
  'depth_to_space',
  'space_to_depth',
]);

/**
 * The graph type rule compile checks the call against, applied at import for those operators:
 * a weight dtype that does not go with the input, or crops that leave nothing, is an
 * unsupported use of this operator, named by its index, so `inspect` lists it with the others
 * instead of compile failing on the first with only the tensor's name.
 */
function checkTypeRule(op: string, call: CallNode, argTypes: TensorType[], where: string, source: string, offset: number, tfliteName: string): void {
  if (!IMPORT_TYPE_RULE_OPS.has(op)) return;
  try {
    inferCallType(op, call.attrs, argTypes, call.type);
  } catch (e) {
    if (!(e instanceof TypeInferenceError)) throw e;
    throw new UnsupportedOperatorError(`unsupported ${e.message} on ${where} in ${source}`, { file: source, offset, op: tfliteName });
  }
}

/**
 * DEQUANTIZE of a constant float16 tensor (the converter's float16 weight quantization) becomes
 * the float32 constant it computes: the widening is exact, and uma-ts has no float16 type to
 * carry the tensor further. False when the input is not such a constant.
 */
function foldFloat16Dequantize(r: SubgraphReader, b: FunctionBuilder, op: Operator, where: string): boolean {
  if (op.inputs.length !== 1 || op.outputs.length !== 1) return false;
  const [input] = op.inputs;
  const [output] = op.outputs;
  const folded = float16ConstantAsFloat32(r.tensor(input, where, op.pos), input, r.model.buffers, r.bytes, r.source);
  if (!folded) return false;
  r.tensor(output, where, op.pos);
  const type = r.type(output, `output of ${where}`);
  if (type.dtype !== 'float32' || type.shape.join(',') !== folded.type.shape.join(',')) {
    throw modelFormatError(r.source, op.pos, `${where} widens float16 [${folded.type.shape}] to ${type.dtype} [${type.shape}], expected float32 of the same shape`);
  }
  b.define(output, { kind: 'constant', name: r.names[output], type, data: folded.data }, where);
  return true;
}

/**
 * DEQUANTIZE of a constant int8/uint8/int16 tensor quantized per channel (the converter's
 * weight-only quantization of weights an operator has no hybrid kernel for) becomes the
 * float32 constant TFLite computes, channel by channel: float(scale[c] * (q - zeroPoint[c])).
 * (TFLite Micro's kernel would use the first channel's scale for every channel.) False when
 * the input is not such a constant; a computed per-channel input is refused by the converter.
 */
function foldPerChannelDequantize(r: SubgraphReader, b: FunctionBuilder, op: Operator, where: string): boolean {
  if (op.inputs.length !== 1 || op.outputs.length !== 1) return false;
  const [input] = op.inputs;
  const [output] = op.outputs;
  if (input < 0) return false;
  r.tensor(input, where, op.pos);
  const inType = r.type(input, `input of ${where}`);
  const q = inType.quant;
  if (!q || q.scale.length <= 1 || !['int8', 'uint8', 'int16'].includes(inType.dtype)) return false;
  const data = r.constant(input);
  if (!data) return false;
  r.tensor(output, where, op.pos);
  const type = r.type(output, `output of ${where}`);
  const rank = inType.shape.length;
  const channels = inType.shape[q.axis];
  if (type.dtype !== 'float32' || type.shape.join(',') !== inType.shape.join(',')) {
    throw modelFormatError(r.source, op.pos, `${where} dequantizes ${inType.dtype} [${inType.shape}] to ${type.dtype} [${type.shape}], expected float32 of the same shape`);
  }
  if (q.axis < 0 || q.axis >= rank || channels !== q.scale.length || q.zeroPoint.length !== q.scale.length) {
    throw modelFormatError(r.source, op.pos, `${where}: input has ${q.scale.length} scales and ${q.zeroPoint.length} zero points along axis ${q.axis} of [${inType.shape}]`);
  }
  const values = inType.dtype === 'int8' ? new Int8Array(data.buffer, data.byteOffset, data.length) : inType.dtype === 'uint8' ? data : new Int16Array(data.slice().buffer);
  const inner = inType.shape.slice(q.axis + 1).reduce((a, d) => a * d, 1);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const c = Math.floor(i / inner) % channels;
    out[i] = Math.fround(q.scale[c]) * (values[i] - q.zeroPoint[c]);
  }
  b.define(output, { kind: 'constant', name: r.names[output], type, data: new Uint8Array(out.buffer) }, where);
  return true;
}

/** One operator (or model input) the checker could not support, and why. */
export interface UnsupportedUse {
  /** TFLite builtin name (`STRIDED_SLICE`), `custom 'name'`, or `model input`. */
  readonly operator: string;
  /** Operator index in subgraph 0; -1 for a model input. */
  readonly index: number;
  /** The error the importer raised for it (one line). */
  readonly message: string;
  /** True when the operator itself is unknown (not one of its parameters or dtypes). */
  readonly unknownOperator: boolean;
}

/** Every operator of subgraph 0 as the file declares it (shown by `inspect` even when unsupported). */
export interface DeclaredOperator {
  readonly index: number;
  readonly operator: string;
  /** Output tensor names (unique node names). */
  readonly outputs: readonly string[];
  /** The first output's type, when uma-ts can type it. */
  readonly outputType: TensorType | null;
}

/** What the one checker shared by `importTflite`, `inspect` and `compile` found in a model. */
export interface TfliteCheck {
  readonly source: string;
  /** The imported module; null when anything is unsupported. */
  readonly module: IRModule | null;
  readonly operators: readonly DeclaredOperator[];
  /** Every unsupported use, in model order. */
  readonly unsupported: readonly UnsupportedUse[];
  /** Subgraph input/output tensors with their types (null when uma-ts cannot type them). */
  readonly inputs: readonly { name: string; type: TensorType | null }[];
  readonly outputs: readonly { name: string; type: TensorType | null }[];
}

function operatorLabel(codes: readonly OperatorCode[], op: Operator, index: number, source: string): string {
  const code = operatorCode(codes, op, index, source);
  const builtin = code.effectiveBuiltinCode;
  return builtin === BuiltinOperatorCode.CUSTOM ? `custom '${code.customCode ?? ''}'` : builtinOperatorName(builtin);
}

function typeOrNull(r: SubgraphReader, index: number): TensorType | null {
  try {
    return r.type(index);
  } catch (e) {
    if (e instanceof UnsupportedOperatorError) return null;
    throw e;
  }
}

/**
 * Imports subgraph 0 of a `.tflite` model, collecting every unsupported operator, dtype and
 * parameter combination instead of stopping at the first (a corrupt file still throws at
 * once). The outputs of an unsupported operator count as produced, so its consumers are
 * checked too.
 */
export function checkTflite(bytes: Uint8Array, source = '<memory>'): TfliteCheck {
  const model = Model.open(bytes, source);
  const subgraphs = model.subgraphs;
  if (subgraphs.length === 0) {
    throw modelFormatError(source, model.pos, 'the model has no subgraphs');
  }
  checkSignatureDefs(model, subgraphs, source);
  const codes = model.operatorCodes;
  // Subgraph indices, counts and recursion: a corrupt file is refused before anything runs.
  checkSubgraphCalls(model, codes);
  const r = new SubgraphReader(model, subgraphs[0], bytes);
  const b = new FunctionBuilder(r);
  const unsupported: UnsupportedUse[] = [];

  const inputIndices = r.subgraph.inputs;
  const params: string[] = [];
  for (const t of inputIndices) {
    r.tensor(t, 'subgraph input', r.subgraph.pos);
    try {
      params.push(b.addParam(t).name);
    } catch (e) {
      if (!(e instanceof UnsupportedOperatorError)) throw e;
      unsupported.push({ operator: 'model input', index: -1, message: e.message, unknownOperator: false });
      b.poison(t);
    }
  }
  // Subgraphs other than main (an initializer, a loop body) hold no resource variable accesses of their own.
  const importOther = (sr: SubgraphReader, sb: FunctionBuilder, op: Operator, i: number): void => importOperator(sr, sb, codes, op, i, undefined, flow);
  // One set of made-up node names, so a variable's state and an unrolled copy never clash.
  const names = new FreshNames(r.names);
  const flow: ControlFlow = new ControlFlow(model, bytes, codes, names, importOther);
  const resources = new ResourceVariables(r, b, codes, importOther, names);
  resources.prepare();
  const operators = r.subgraph.operators;
  const declared: DeclaredOperator[] = operators.map((op, i) => {
    const outs = op.outputs;
    for (const t of outs) r.tensor(t, `operator #${i}`, op.pos);
    return {
      index: i,
      operator: operatorLabel(codes, op, i, source),
      outputs: outs.map((t) => r.names[t]),
      outputType: outs.length > 0 ? typeOrNull(r, outs[0]) : null,
    };
  });
  operators.forEach((op, i) => {
    try {
      importOperator(r, b, codes, op, i, resources, flow);
    } catch (e) {
      if (!(e instanceof UnsupportedOperatorError)) throw e;
      const code = operatorCode(codes, op, i, source);
      const known =
        code.effectiveBuiltinCode === BuiltinOperatorCode.CUSTOM ? isSupportedCustom(code.customCode) : isSupportedBuiltin(code.effectiveBuiltinCode);
      // Arithmetic a converter calls (a requantization multiplier out of range) knows no
      // operator: the converters' and resource variables' own errors name theirs ("unsupported
      // ... at operator #n"), these get it here.
      const message = e.message.startsWith('unsupported ') ? e.message : `unsupported ${declared[i].operator} at operator #${i} in ${source}: ${e.message}`;
      unsupported.push({ operator: declared[i].operator, index: i, message, unknownOperator: !known });
      for (const t of op.outputs) b.poison(t);
    }
  });

  const outputIndices = r.subgraph.outputs;
  for (const t of outputIndices) {
    r.tensor(t, 'subgraph output', r.subgraph.pos);
    b.require(t, 'subgraph output');
  }
  const io = (indices: readonly number[]) => indices.map((t) => ({ name: r.names[t], type: typeOrNull(r, t) }));
  const result = { source, operators: declared, unsupported, inputs: io(inputIndices), outputs: io(outputIndices) };
  if (unsupported.length > 0) return { ...result, module: null };

  const main: GraphFunction = {
    name: MAIN_FUNCTION,
    params,
    nodes: b.nodes,
    outputs: outputsComputed(r, b, outputIndices),
    attrs: {
      tflite_input_names: inputIndices.map((t) => r.tensors[t].name),
      tflite_output_names: outputIndices.map((t) => r.tensors[t].name),
    },
  };
  return { ...result, module: { functions: new Map([[MAIN_FUNCTION, main]]), source } };
}

/**
 * Main's output names. TFLite lets a subgraph output be one of its inputs or a constant (a
 * pass-through), or list one tensor twice (a Keras model returning a tensor twice: the
 * converter drops the Identity ops); every later stage expects distinct outputs computed by
 * an operator, so such an output (a repeat: from its second listing) becomes a `reshape` to
 * its own shape (a view, copied into the output buffer where needed), named after the tensor
 * with an `_output` suffix (the tensor's own name is taken).
 */
function outputsComputed(r: SubgraphReader, b: FunctionBuilder, outputIndices: readonly number[]): string[] {
  const computed = new Set(b.nodes.flatMap((n) => (n.kind === 'call' ? [n.name] : [])));
  const taken = new Set(b.nodes.map((n) => n.name));
  const listed = new Set<string>();
  return outputIndices.map((t) => {
    const name = r.names[t];
    const repeat = listed.has(name);
    listed.add(name);
    if (computed.has(name) && !repeat) return name;
    let alias = `${name}_output`;
    for (let k = 2; taken.has(alias); k++) alias = `${name}_output${k}`;
    taken.add(alias);
    const type = r.type(t);
    b.addNode({ kind: 'call', name: alias, callee: { kind: 'op', op: 'reshape' }, args: [name], attrs: {}, type });
    return alias;
  });
}

/** Unsupported uses grouped by operator: count, first index and the first use's reason, in order of first use. */
export interface UnsupportedGroup {
  readonly operator: string;
  readonly count: number;
  readonly firstIndex: number;
  readonly reason: string;
}

export function groupUnsupported(uses: readonly UnsupportedUse[]): UnsupportedGroup[] {
  const groups = new Map<string, { operator: string; count: number; firstIndex: number; reason: string }>();
  for (const u of uses) {
    const g = groups.get(u.operator);
    if (g) g.count++;
    else groups.set(u.operator, { operator: u.operator, count: 1, firstIndex: u.index, reason: u.unknownOperator ? unknownOperatorReason(u.operator) : u.message });
  }
  return [...groups.values()];
}

function unknownOperatorReason(operator: string): string {
  const why = noTflmKernel(operator);
  return why === undefined ? 'operator not supported' : `operator not supported: ${why}`;
}

/** The list `inspect` prints and a failed `compile` carries: one line per unsupported operator kind. */
export function formatUnsupportedList(uses: readonly UnsupportedUse[]): string[] {
  return groupUnsupported(uses).map((g) => {
    const where = g.firstIndex < 0 ? 'a model input' : `operator #${g.firstIndex}`;
    return `  ${g.operator} x${g.count}, first at ${where}: ${g.reason}`;
  });
}

/**
 * The error of a model the checker rejects: a single use keeps its own one-line message; more
 * give one line naming the first, then the list of every unsupported operator kind.
 */
export function unsupportedModelError(check: TfliteCheck): UnsupportedOperatorError {
  const uses = check.unsupported;
  const first = uses[0];
  const context = { file: check.source, op: first.operator };
  if (uses.length === 1) return new UnsupportedOperatorError(first.message, context);
  const kinds = groupUnsupported(uses).length;
  const head = `${uses.length} unsupported operators (${kinds} kind${kinds === 1 ? '' : 's'}) in ${check.source}, first: ${first.message}`;
  return new UnsupportedOperatorError([head, ...formatUnsupportedList(uses)].join('\n'), context);
}

/** Imports subgraph 0 of a `.tflite` model. `source` names the file in error messages. */
export function importTflite(bytes: Uint8Array, source = '<memory>'): IRModule {
  const check = checkTflite(bytes, source);
  if (!check.module) throw unsupportedModelError(check);
  // The shape and dtype check compile and inspect start with: a damaged shape (an input of
  // 486539269 elements feeding a [5] MAXIMUM) is named by operator here, so no caller of the
  // module (the interpreter) meets a graph compile would refuse.
  checkMainTypes(check.module, source);
  return check.module;
}

/** checkFunctionTypes on an imported module's main function, its errors naming `source`. */
export function checkMainTypes(module: IRModule, source: string): void {
  const main = module.functions.get(MAIN_FUNCTION);
  try {
    if (main) checkFunctionTypes(main, module);
  } catch (e) {
    if (!(e instanceof TypeInferenceError) || e.context.file !== undefined || e.message.includes(source)) throw e;
    throw new TypeInferenceError(`${source}: ${e.message}`, { ...e.context, file: source });
  }
}
