/** Byte helpers and a one-op graph runner for interpreter tests. */
import { FunctionBuilder, moduleOf, tensorType } from '../../src/ir/graph/builder';
import { Attrs, DType, Quantization, TensorType } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';

export const q = (scale: number | number[], zeroPoint = 0, axis = 0): Quantization => ({
  scale: Array.isArray(scale) ? scale : [scale],
  zeroPoint: Array.isArray(scale) ? scale.map(() => zeroPoint) : [zeroPoint],
  axis,
});

export const t = (shape: number[], dtype: DType, quant?: Quantization): TensorType => tensorType(shape, dtype, quant);

export function bytesOf(dtype: DType, values: readonly number[]): Uint8Array {
  switch (dtype) {
    case 'int8':
      return new Uint8Array(Int8Array.from(values).buffer);
    case 'int16':
      return new Uint8Array(Int16Array.from(values).buffer);
    case 'int32':
      return new Uint8Array(Int32Array.from(values).buffer);
    case 'float32':
      return new Uint8Array(Float32Array.from(values).buffer);
    default:
      return Uint8Array.from(values);
  }
}

export function valuesOf(dtype: DType, bytes: Uint8Array): number[] {
  const copy = bytes.slice().buffer;
  switch (dtype) {
    case 'int8':
      return Array.from(new Int8Array(copy));
    case 'int16':
      return Array.from(new Int16Array(copy));
    case 'int32':
      return Array.from(new Int32Array(copy));
    case 'float32':
      return Array.from(new Float32Array(copy));
    default:
      return Array.from(new Uint8Array(copy));
  }
}

export interface OpInput {
  readonly type: TensorType;
  readonly values: readonly number[];
  /** Constants are baked into the graph; other inputs become params. */
  readonly constant?: boolean;
}

/** Builds main = op(inputs...) and interprets it; returns the output values. */
export function runOp(op: string, inputs: readonly (OpInput | null)[], outType: TensorType, attrs: Attrs = {}): number[] {
  const b = new FunctionBuilder();
  const params: Uint8Array[] = [];
  const args = inputs.map((inp, i) => {
    if (!inp) return '';
    const bytes = bytesOf(inp.type.dtype, inp.values);
    if (inp.constant) return b.constant(`c${i}`, inp.type, bytes);
    params.push(bytes);
    return b.param(`p${i}`, inp.type);
  });
  b.call('out', op, args, outType, attrs);
  const [out] = interpret(moduleOf([b.build(['out'])]), params);
  return valuesOf(outType.dtype, out);
}
