/**
 * `vanilla_conv2dnchw` in TypeScript, for the TIR evaluator (`EvalOptions.externs`): the
 * same arithmetic as runtime/vanilla_conv2d.c and TFLite Micro's reference ConvPerChannel
 * (int32 wrapping accumulation, `multiplyByQuantizedMultiplier`, zero point, clamp), so a
 * vanilla-compiled module can be checked against the interpreter without a C compiler.
 */
import { LoweringError, multiplyByQuantizedMultiplier, tir } from '../../src';
import { CONV2D_POINTER_ARGS, CONV2D_SCALAR_PARAMS, Conv2dScalars, VANILLA_CONV2D } from './kernel';

function fail(message: string): never {
  throw new LoweringError(`${VANILLA_CONV2D}: ${message}`, { op: VANILLA_CONV2D, target: 'vanilla' });
}

function pointer(args: readonly tir.ArgValue[], i: number): tir.Pointer {
  const a = args[i];
  if (!tir.isPointer(a)) fail(`argument ${i} must be a pointer`);
  return a;
}

function scalars(args: readonly tir.ArgValue[]): Conv2dScalars {
  const out: Record<string, number> = {};
  CONV2D_SCALAR_PARAMS.forEach((name, k) => {
    const a = args[CONV2D_POINTER_ARGS + k];
    if (typeof a !== 'number' || !Number.isInteger(a)) fail(`argument ${name} must be an integer`);
    out[name] = a;
  });
  return out as Conv2dScalars;
}

function int8View(p: tir.Pointer, length: number): Int8Array {
  const bytes = tir.bytesAt(p, length);
  return new Int8Array(bytes.buffer, bytes.byteOffset, length);
}

function int32Reader(p: tir.Pointer, length: number): (i: number) => number {
  const bytes = tir.bytesAt(p, length * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (i) => view.getInt32(i * 4, true);
}

/** The kernel on raw memory; returns 0 (success) like the C version. */
export const simulateVanillaConv2d: tir.ExternFn = (args) => {
  if (args.length !== CONV2D_POINTER_ARGS + CONV2D_SCALAR_PARAMS.length) {
    fail(`expects ${CONV2D_POINTER_ARGS + CONV2D_SCALAR_PARAMS.length} arguments, got ${args.length}`);
  }
  const s = scalars(args);
  if (s.filter_c <= 0 || s.in_c % s.filter_c !== 0 || s.out_c % (s.in_c / s.filter_c) !== 0) {
    fail(`filter depth ${s.filter_c} does not divide input channels ${s.in_c} / output channels ${s.out_c}`);
  }
  const input = int8View(pointer(args, 0), s.batches * s.in_h * s.in_w * s.in_c);
  const weights = int8View(pointer(args, 1), s.out_c * s.kernel_h * s.kernel_w * s.filter_c);
  const bias = int32Reader(pointer(args, 2), s.out_c);
  const output = int8View(pointer(args, 3), s.batches * s.out_h * s.out_w * s.out_c);
  const multiplier = int32Reader(pointer(args, 4), s.out_c);
  const shift = int32Reader(pointer(args, 5), s.out_c);
  const filtersPerGroup = s.out_c / (s.in_c / s.filter_c);
  for (let b = 0; b < s.batches; b++) {
    for (let oy = 0; oy < s.out_h; oy++) {
      for (let ox = 0; ox < s.out_w; ox++) {
        for (let oc = 0; oc < s.out_c; oc++) {
          const groupBase = Math.floor(oc / filtersPerGroup) * s.filter_c;
          let acc = 0;
          for (let ky = 0; ky < s.kernel_h; ky++) {
            const iy = oy * s.stride_h - s.pad_top + ky * s.dilation_h;
            if (iy < 0 || iy >= s.in_h) continue;
            for (let kx = 0; kx < s.kernel_w; kx++) {
              const ix = ox * s.stride_w - s.pad_left + kx * s.dilation_w;
              if (ix < 0 || ix >= s.in_w) continue;
              const inBase = ((b * s.in_h + iy) * s.in_w + ix) * s.in_c + groupBase;
              const wBase = ((oc * s.kernel_h + ky) * s.kernel_w + kx) * s.filter_c;
              for (let ic = 0; ic < s.filter_c; ic++) {
                acc = (acc + weights[wBase + ic] * (input[inBase + ic] + s.input_offset)) | 0;
              }
            }
          }
          acc = (acc + bias(oc)) | 0;
          let v = multiplyByQuantizedMultiplier(acc, multiplier(oc), shift(oc)) + s.output_offset;
          v = Math.min(Math.max(v, s.act_min), s.act_max);
          output[((b * s.out_h + oy) * s.out_w + ox) * s.out_c + oc] = v;
        }
      }
    }
  }
  return 0;
};

/** Pass as (part of) `EvalOptions.externs` when running vanilla-compiled TIR. */
export const VANILLA_EXTERN_SIMULATIONS: ReadonlyMap<string, tir.ExternFn> = new Map([[VANILLA_CONV2D, simulateVanillaConv2d]]);
