/**
 * Reading one TFLite subgraph into graph-IR nodes: its tensors with unique names and cached
 * types (`SubgraphReader`), and the node list of the function being built, which adds
 * constants and variable tensors on first use (`FunctionBuilder`).
 */
import { ConstantNode, GraphNode, TensorType, tensorBytes, VarNode } from '../../ir/graph/types';
import { modelFormatError } from './flatbuf';
import { Model, SubGraph, Tensor } from './schema';
import { constantData, int4ConstantAsInt8, tensorType, uniqueTensorNames } from './tensors';

/** Larger variable tensors only come from corrupt shapes; refuse before allocating them. */
export const MAX_VARIABLE_BYTES = 1 << 30;

/** Per-import state of one subgraph: its tensors, their names and cached types. */
export class SubgraphReader {
  readonly tensors: Tensor[];
  readonly names: string[];
  private readonly types = new Map<number, TensorType>();
  /** Int4 weight tensors widened to int8: their unpacked bytes. */
  private readonly widened = new Map<number, Uint8Array>();

  constructor(
    readonly model: Model,
    readonly subgraph: SubGraph,
    readonly bytes: Uint8Array,
  ) {
    this.tensors = subgraph.tensors;
    this.names = uniqueTensorNames(this.tensors);
    // TFLite checks every tensor's buffer index when it loads a model; a tensor uma-ts never
    // reads (the shape input of a RESHAPE, taken from the output's shape) went unchecked.
    const bufferCount = model.buffers.length;
    this.tensors.forEach((tensor, index) => {
      if (tensor.buffer >= bufferCount) {
        throw modelFormatError(model.source, tensor.pos, `tensor #${index} '${tensor.name}' refers to buffer ${tensor.buffer} of ${bufferCount}`);
      }
    });
  }

  get source(): string {
    return this.model.source;
  }

  /**
   * The same subgraph under other tensor names: one inlined copy of a WHILE body or IF branch
   * (controlFlow.ts), whose nodes need names of their own in main. Tensors, cached types and
   * widened weights are shared, so the file is read once however many copies are made.
   */
  renamed(names: readonly string[]): SubgraphReader {
    const copy = Object.create(this) as SubgraphReader;
    Object.defineProperty(copy, 'names', { value: names });
    return copy;
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

  /** Types tensor `index`, a constant int4 tensor, as the int8 tensor it unpacks to; false when it is not constant. */
  widenInt4(index: number, user: string): boolean {
    if (this.widened.has(index)) return true;
    const wide = int4ConstantAsInt8(this.tensors[index], index, this.model.buffers, this.bytes, this.source, user);
    if (!wide) return false;
    this.types.set(index, wide.type);
    this.widened.set(index, wide.data);
    return true;
  }

  /** The constant bytes of tensor `index` (a copy; int4 weights unpacked), or null when it has none. */
  constant(index: number): Uint8Array | null {
    const wide = this.widened.get(index);
    if (wide) return wide.slice();
    const tensor = this.tensors[index];
    const type = this.type(index);
    const data = constantData(tensor, index, type, this.model.buffers, this.bytes, this.source);
    // A tensor without elements has no bytes to store: the converter leaves its buffer empty, and
    // its value (none) is known whoever would produce it (a FILL to a scalar's empty dims, a
    // RESHAPE to a scalar's empty shape).
    if (data === null && tensor.buffer !== 0 && !tensor.isVariable && tensorBytes(type) === 0) return new Uint8Array(0);
    return data;
  }
}

/**
 * Names of main's nodes that stand for no tensor of subgraph 0 (a resource variable's state and
 * accesses, inlined control flow), made fresh against main's tensor names and each other: the
 * first unused of `base`, `base_1`, `base_2`...
 */
export class FreshNames {
  private readonly taken: Set<string>;

  constructor(names: Iterable<string>) {
    this.taken = new Set(names);
  }

  fresh(base: string): string {
    let name = base;
    for (let k = 1; this.taken.has(name); k++) name = `${base}_${k}`;
    this.taken.add(name);
    return name;
  }
}

/**
 * Builds a function's node list while tracking which tensors already have a node. An inlined
 * control-flow subgraph gets a builder of its own over main's node list (`nodes`), so its
 * tensors are tracked apart while its nodes land in main.
 */
export class FunctionBuilder {
  private readonly defined = new Set<number>();
  /**
   * Tensors whose value is known at import though no constant of the file holds it (an output
   * folded by its converter, a loop counter after inlining), by tensor index: later operators
   * read them as constant parameters.
   */
  readonly folded = new Map<number, Uint8Array>();

  constructor(
    private readonly r: SubgraphReader,
    readonly nodes: GraphNode[] = [],
  ) {}

  /** Adds a node that stands for no tensor of the file (a resource variable's state, an assignment). */
  addNode(node: GraphNode): void {
    this.nodes.push(node);
  }

  addParam(index: number): VarNode {
    const type = this.r.type(index, 'model input');
    // An input is written by the application, so it has no data in the file. Its buffer was
    // never looked at: an index past the buffers or bytes of another size went unnoticed, and
    // data of the right size was dropped without a word (TFLite refuses the first two and
    // makes such a tensor a read-only constant).
    const tensor = this.r.tensors[index];
    const data = this.r.constant(index);
    if (data !== null && data.length > 0) {
      throw modelFormatError(
        this.r.source,
        tensor.pos,
        `model input tensor #${index} '${tensor.name}' holds constant data (${data.length} bytes in buffer ${tensor.buffer}); an input is written by the application`,
      );
    }
    const node: VarNode = { kind: 'var', name: this.r.names[index], type };
    this.define(index, node, 'subgraph input');
    return node;
  }

  /**
   * Marks tensor `index` as produced without a node: the output of an operator the checker
   * found unsupported, so that its consumers are still checked. A module with such tensors
   * is never returned.
   */
  poison(index: number): void {
    this.defined.add(index);
  }

  /** Tensor `index` is a node that already exists under its name (an inlined subgraph's input, a constant an earlier copy added). */
  bind(index: number): void {
    this.defined.add(index);
  }

  /** Makes sure tensor `index` has a node before it is read, adding a constant if needed. */
  require(index: number, reader: string): void {
    if (this.defined.has(index)) return;
    const tensor = this.r.tensors[index];
    const type = this.r.type(index);
    const data = this.r.constant(index);
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

