/**
 * TypeScript versions of the accel kernels for the TIR evaluator (`EvalOptions.externs`), so
 * compiled modules run without gcc. Same arithmetic as runtime/accel_runtime.c, and, when
 * given the pools, the same pointer discipline: a pointer outside the pools its argument
 * allows is a trap (TirEvalError) instead of a silent success.
 */
import { multiplyByQuantizedMultiplier, tir } from '../../src/index';
import { CONV_SCALAR_PARAMS, ConvScalars } from './convParams';
import { AccessMode, KERNEL_POINTER_ARGS } from './kernelArgs';
import { CONV_KERNEL, FETCHER_KERNEL } from './names';

/** A pool as the accelerator sees it: its memory and the accelerator's access to it. */
export interface SimulatedPool {
  readonly mem: Uint8Array;
  readonly access: 'none' | AccessMode;
}

export interface SimulationOptions {
  /** When given, every pointer argument must lie in one of these (by region identity). */
  readonly pools?: ReadonlyMap<string, SimulatedPool>;
}

function trap(kernel: string, message: string, ctx: Record<string, unknown> = {}): never {
  throw new tir.TirEvalError(`accel trap: ${kernel} ${message}`, { op: kernel, ...ctx });
}

function pointerArgs(kernel: string, args: readonly tir.ArgValue[], options: SimulationOptions): tir.Pointer[] {
  const specs = KERNEL_POINTER_ARGS[kernel];
  return specs.map((spec, i) => {
    const p = args[i];
    if (!tir.isPointer(p)) return trap(kernel, `argument '${spec.name}' is not a pointer`, { buffer: spec.name });
    if (options.pools === undefined) return p;
    const entry = [...options.pools].find(([, pool]) => pool.mem.buffer === p.mem.buffer && p.mem.byteOffset + p.byteOffset >= pool.mem.byteOffset && p.mem.byteOffset + p.byteOffset < pool.mem.byteOffset + pool.mem.byteLength);
    if (entry === undefined) return trap(kernel, `argument '${spec.name}' lies outside every registered pool`, { buffer: spec.name });
    const [name, pool] = entry;
    const allowed = pool.access === 'rw' || (pool.access === 'ro' && spec.mode === 'ro');
    if (!allowed) {
      trap(kernel, `argument '${spec.name}' lies in pool '${name}' which accel cannot ${spec.mode === 'ro' ? 'read' : 'write'}`, { buffer: spec.name, pool: name });
    }
    if (spec.pools !== undefined && !spec.pools.includes(name)) {
      trap(kernel, `argument '${spec.name}' lies in pool '${name}', its operand constraint allows {${spec.pools.join(', ')}}`, { buffer: spec.name, pool: name });
    }
    return p;
  });
}

function intArgs(kernel: string, args: readonly tir.ArgValue[], from: number, count: number): number[] {
  return Array.from({ length: count }, (_, k) => {
    const v = args[from + k];
    if (typeof v !== 'number') return trap(kernel, `argument ${from + k} must be an integer`);
    return v;
  });
}

const view = (p: tir.Pointer): DataView => new DataView(p.mem.buffer, p.mem.byteOffset + p.byteOffset);
const bytes = (p: tir.Pointer, n: number): Uint8Array => new Uint8Array(p.mem.buffer, p.mem.byteOffset + p.byteOffset, n);

function fetcher(options: SimulationOptions): tir.ExternFn {
  return (args) => {
    const [input, output, line] = pointerArgs(FETCHER_KERNEL, args, options);
    const [n, lineSize] = intArgs(FETCHER_KERNEL, args, 3, 2);
    if (lineSize <= 0) trap(FETCHER_KERNEL, `line size ${lineSize} must be positive`);
    const src = bytes(input, n);
    const dst = bytes(output, n);
    const buf = bytes(line, lineSize);
    for (let off = 0; off < n; off += lineSize) {
      const chunk = Math.min(lineSize, n - off);
      buf.set(src.subarray(off, off + chunk));
      dst.set(buf.subarray(0, chunk), off);
    }
    return 0;
  };
}

function conv(options: SimulationOptions): tir.ExternFn {
  return (args) => {
    const [input, weights, bias, output, mults, shifts] = pointerArgs(CONV_KERNEL, args, options);
    const values = intArgs(CONV_KERNEL, args, 6, CONV_SCALAR_PARAMS.length);
    const s = Object.fromEntries(CONV_SCALAR_PARAMS.map((k, i) => [k, values[i]])) as ConvScalars;
    const x = new Int8Array(input.mem.buffer, input.mem.byteOffset + input.byteOffset, s.batches * s.in_h * s.in_w * s.in_c);
    const w = new Int8Array(weights.mem.buffer, weights.mem.byteOffset + weights.byteOffset, s.out_c * s.k_h * s.k_w * s.in_c);
    const y = new Int8Array(output.mem.buffer, output.mem.byteOffset + output.byteOffset, s.batches * s.out_h * s.out_w * s.out_c);
    const [b, m, sh] = [view(bias), view(mults), view(shifts)];
    for (let n = 0; n < s.batches; n++)
      for (let oy = 0; oy < s.out_h; oy++)
        for (let ox = 0; ox < s.out_w; ox++)
          for (let oc = 0; oc < s.out_c; oc++) {
            let acc = 0;
            for (let ky = 0; ky < s.k_h; ky++) {
              const iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
              if (iy < 0 || iy >= s.in_h) continue;
              for (let kx = 0; kx < s.k_w; kx++) {
                const ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
                if (ix < 0 || ix >= s.in_w) continue;
                const xBase = ((n * s.in_h + iy) * s.in_w + ix) * s.in_c;
                const wBase = ((oc * s.k_h + ky) * s.k_w + kx) * s.in_c;
                for (let c = 0; c < s.in_c; c++) acc = (acc + w[wBase + c] * (x[xBase + c] + s.input_offset)) | 0;
              }
            }
            acc = (acc + b.getInt32(oc * 4, true)) | 0;
            const scaled = multiplyByQuantizedMultiplier(acc, m.getInt32(oc * 4, true), sh.getInt32(oc * 4, true)) + s.output_offset;
            y[((n * s.out_h + oy) * s.out_w + ox) * s.out_c + oc] = Math.min(Math.max(scaled, s.act_min), s.act_max);
          }
    return 0;
  };
}

/** The accel kernels by name, for `EvalOptions.externs`. */
export function accelKernelSimulations(options: SimulationOptions = {}): ReadonlyMap<string, tir.ExternFn> {
  return new Map([
    [FETCHER_KERNEL, fetcher(options)],
    [CONV_KERNEL, conv(options)],
  ]);
}
