/**
 * How the accel target lowers its two operators: each becomes one `call_extern` of a
 * hand-written kernel (runtime/accel_runtime.c) instead of a loop nest. Everything the
 * kernel needs is an argument: buffers as handles, per-channel requantization as constant
 * int32 arrays, geometry and quantization as int32 immediates.
 */
import { CallNode, LoweringError, OperatorStrategy, tir } from '../../src/index';
import { CONV_SCALAR_PARAMS, accelConvParams } from './convParams';
import { CONV_KERNEL, FETCHER_KERNEL, FETCHER_KIND } from './names';

function cName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9_]/g, '_');
  return /^[0-9]/.test(s) ? `t_${s}` : s;
}

function elements(b: tir.Buffer): number {
  return b.shape.reduce((n, d) => {
    if (d.kind !== 'IntImm') throw new LoweringError(`buffer '${b.name}' has a symbolic shape`, { buffer: b.name, target: 'accel' });
    return n * d.value;
  }, 1);
}

function int32Bytes(values: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setInt32(i * 4, values[i], true);
  return bytes;
}

/** A constant int32 array bound around `body` (lives in a constant pool once planned). */
function withInt32Array(name: string, values: ArrayLike<number>, body: (data: tir.Var) => tir.Stmt): tir.Stmt {
  const data = tir.makeVar(name, 'handle', 'int32');
  return tir.allocateConst({ bufferVar: data, dtype: 'int32', extents: [values.length], data: int32Bytes(values), body: body(data) });
}

/**
 * Elements the fetcher's line buffer holds: one NHWC row (W*C), the unit it streams in;
 * the whole tensor when it is not 4-d.
 */
export function fetcherLineElements(shape: readonly number[], total: number): number {
  return shape.length === 4 ? shape[2] * shape[3] : total;
}

function requireFetcher(call: CallNode): void {
  if (call.attrs.kind !== FETCHER_KIND) {
    throw new LoweringError(`accel lowers only copies of kind '${FETCHER_KIND}', '${call.name}' has kind ${JSON.stringify(call.attrs.kind)}`, {
      op: 'copy',
      target: 'accel',
    });
  }
}

/**
 * `accel_input_fetcher(in, out, line_buffer, n, line)`: streams `n` bytes through the
 * fetcher's internal line buffer, an operator-internal Allocate (`<tensor>_line`) so the
 * memory planner places it like any other scratch.
 */
export const fetcherStrategy: OperatorStrategy = (input) => {
  requireFetcher(input.call);
  const [src] = input.args;
  const n = elements(input.out);
  if (elements(src) !== n || src.dtype !== 'int8' || input.out.dtype !== 'int8') {
    throw new LoweringError(`accel input fetcher '${input.call.name}' moves int8 tensors of equal size`, { op: 'copy', target: 'accel' });
  }
  const line = fetcherLineElements(input.argTypes[0].shape, n);
  const lineBuffer = tir.makeVar(`${cName(input.call.name)}_line`, 'handle', 'int8');
  return tir.allocate({
    bufferVar: lineBuffer,
    dtype: 'int8',
    extents: [line],
    body: tir.evaluate(tir.callExtern(FETCHER_KERNEL, [src.data, input.out.data, lineBuffer, n, line])),
  });
};

/**
 * `accel_conv2d(input, weights, bias, output, multipliers, shifts, <CONV_SCALAR_PARAMS>)`.
 * A conv without bias gets a zero bias array, so the kernel never sees a null pointer.
 */
export const convStrategy: OperatorStrategy = (input) => {
  const { call, args, out } = input;
  const params = accelConvParams(input);
  const prefix = cName(call.name);
  const outC = params.scalars.out_c;
  const scalars = CONV_SCALAR_PARAMS.map((k) => tir.intImm(params.scalars[k]));
  const kernelCall = (bias: tir.Var, mult: tir.Var, shift: tir.Var): tir.Stmt =>
    tir.evaluate(tir.callExtern(CONV_KERNEL, [args[0].data, args[1].data, bias, out.data, mult, shift, ...scalars]));
  return withInt32Array(`${prefix}_multiplier`, params.multipliers, (mult) =>
    withInt32Array(`${prefix}_shift`, params.shifts, (shift) =>
      args[2] !== undefined
        ? kernelCall(args[2].data, mult, shift)
        : withInt32Array(`${prefix}_zero_bias`, new Int32Array(outC), (bias) => kernelCall(bias, mult, shift)),
    ),
  );
};
