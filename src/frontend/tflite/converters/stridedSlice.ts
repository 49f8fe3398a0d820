/**
 * STRIDED_SLICE → strided_slice, resolved at import exactly as TFLite Micro's
 * StridedSliceStartForAxis/EndForAxis do: negative indices count from the end, begin/end
 * masks take the whole axis, shrink_axis keeps one element (and drops the axis), `offset`
 * makes end relative to begin. TFLite Micro ignores ellipsis_mask and new_axis_mask (its
 * output shape check then fails), so uma-ts rejects them.
 */
import { sameShape } from '../../../ir/graph/types';
import { BuiltinOptionsType, StridedSliceOptions } from '../schema';
import { Converter, formatError, inputType, OperatorSite, options, requireDtype, unsupportedParameter } from './common';
import { constantInts } from './constants';
import { COPY_DTYPES, sliceCall } from './dataMovement';

const clamp = (v: number, lo: number, hi: number): number => Math.min(Math.max(v, lo), hi);

/** [start, stop) per axis as TFLite's reference strided_slice logic computes them. */
export function resolveStridedSlice(
  shape: readonly number[],
  begin: readonly number[],
  end: readonly number[],
  strides: readonly number[],
  masks: { begin: number; end: number; shrink: number; offset: boolean },
): { begin: number[]; sizes: number[] } {
  const starts: number[] = [];
  const sizes: number[] = [];
  shape.forEach((size, axis) => {
    const stride = strides[axis];
    let start = begin[axis];
    if (start < 0) start += size;
    start = stride > 0 ? clamp(start, 0, size) : clamp(start, -1, size - 1);
    if (masks.begin & (1 << axis)) start = stride > 0 ? 0 : size - 1;
    let stop: number;
    if (masks.shrink & (1 << axis)) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = end[axis];
      if (masks.offset) stop += start;
      if (stop < 0) stop += size;
      stop = stride > 0 ? clamp(stop, 0, size) : clamp(stop, -1, size - 1);
      if (masks.end & (1 << axis)) stop = stride > 0 ? size : -1;
    }
    const count = Math.max(0, Math.ceil((stop - start) / stride));
    starts.push(count === 0 ? 0 : start);
    sizes.push(count);
  });
  return { begin: starts, sizes };
}

function parameters(site: OperatorSite, rank: number) {
  const begin = constantInts(site, 1, 'begin');
  const end = constantInts(site, 2, 'end');
  const strides = site.inputTypes[3] ? constantInts(site, 3, 'strides') : begin.map(() => 1);
  for (const [name, v] of [['begin', begin], ['end', end], ['strides', strides]] as const) {
    if (v.length !== rank) unsupportedParameter(site, `${name} of ${v.length} values for a rank-${rank} input`);
  }
  if (strides.some((s) => s === 0)) formatError(site, `stride 0 in [${strides}]`);
  return { begin, end, strides };
}

export const stridedSlice: Converter = (site) => {
  const input = inputType(site, 0, 'input');
  const opts = options(site, BuiltinOptionsType.StridedSliceOptions, StridedSliceOptions);
  requireDtype(site, input, [...COPY_DTYPES, 'bool'], 'input');
  if (input.shape.length > 5) unsupportedParameter(site, `rank ${input.shape.length} input (TFLite Micro slices up to 5-d)`);
  if (opts && opts.ellipsisMask !== 0) unsupportedParameter(site, `ellipsis_mask ${opts.ellipsisMask} (TFLite Micro ignores it)`);
  if (opts && opts.newAxisMask !== 0) unsupportedParameter(site, `new_axis_mask ${opts.newAxisMask} (TFLite Micro ignores it)`);
  const { begin, end, strides } = parameters(site, input.shape.length);
  const shrink = opts?.shrinkAxisMask ?? 0;
  const r = resolveStridedSlice(input.shape, begin, end, strides, {
    begin: opts?.beginMask ?? 0,
    end: opts?.endMask ?? 0,
    shrink,
    offset: opts?.offset ?? false,
  });
  // A shrunk axis TFLite Micro's copy loop never enters (a negative stride stops it at once; a
  // begin past the axis starts it at its end) leaves the whole output unwritten, though the
  // declared shape, without that axis, has elements: nothing uma-ts could reproduce. Said here,
  // not later as a shape clash with the slice's [.., 0, ..].
  const emptyAnyway = r.sizes.some((n, axis) => n === 0 && !(shrink & (1 << axis)));
  r.sizes.forEach((n, axis) => {
    if (n === 0 && shrink & (1 << axis) && !emptyAnyway) {
      unsupportedParameter(
        site,
        `shrink_axis_mask on axis ${axis} with begin ${begin[axis]} and stride ${strides[axis]}: TFLite Micro's kernel copies no element of that axis, so it never writes the output (a shrunk axis needs a positive stride and a begin inside the axis)`,
      );
    }
  });
  // The declared output must be the slice's shape, shrunk axes dropped, as TFLite Micro's
  // CheckOutputSize demands axis by axis: one of the same size but another shape ([3, 2] for a
  // [2, 3] slice) compiled, and later operators saw a shape the runtime refuses (fuzzed). Said
  // here with the shape the file should declare.
  const sliced = r.sizes.filter((_, axis) => !(shrink & (1 << axis)));
  const declared = site.outputType.shape;
  if (!sameShape(sliced, declared)) {
    formatError(site, `output declared [${declared.join(', ')}], but the slice gives [${sliced.join(', ')}]${shrink !== 0 ? ' (shrunk axes dropped)' : ''}`);
  }
  return sliceCall(r.begin, strides, r.sizes);
};
