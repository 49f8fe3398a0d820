/**
 * A custom operator's `custom_options` read as a flexbuffer map (what TFLite's custom
 * operators use), through the `flatbuffers` package's flexbuffers reader. Only the scalars
 * asked for are read (ints, floats, bools, strings), each with its typed accessor: the
 * package's `toObject` turns a stored 0.0 float into null. A damaged buffer is a
 * ModelFormatError.
 */
import { toReference } from 'flatbuffers/js/flexbuffers';
import { modelFormatError } from './flatbuf';

export type FlexScalar = number | boolean | string;

type Reference = ReturnType<typeof toReference>;

function scalarOf(ref: Reference): FlexScalar | undefined {
  if (ref.isBool()) return ref.boolValue() ?? undefined;
  if (ref.isFloat()) return ref.floatValue() ?? undefined;
  if (ref.isInt()) {
    const v = ref.intValue();
    return v === null ? undefined : Number(v);
  }
  if (ref.isString()) return ref.stringValue() ?? undefined;
  return undefined;
}

/**
 * The scalar values of `keys` in the map (floats as stored, float32 or float64); a key that is
 * absent or holds null or a non-scalar is left out, as flexbuffers' lookup gives Null there.
 */
export function readFlexMap(bytes: Uint8Array, keys: readonly string[], source: string, offset: number, what: string): ReadonlyMap<string, FlexScalar> {
  return readFlexMapEntries(bytes, keys, source, offset, what).values;
}

/**
 * readFlexMap's values and the number of entries the map holds (TFLite Micro's signal kernels
 * read their options by position in the sorted map, so a map with other entries would shift
 * what they read).
 */
export function readFlexMapEntries(
  bytes: Uint8Array,
  keys: readonly string[],
  source: string,
  offset: number,
  what: string,
): { readonly values: ReadonlyMap<string, FlexScalar>; readonly size: number } {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  const map = new Map<string, FlexScalar>();
  let size: number;
  try {
    const root = toReference(copy.buffer);
    if (!root.isMap()) throw new Error('the root is not a map');
    size = root.length();
    if (!Number.isInteger(size) || size < 0) throw new Error(`its size reads as ${String(size)}`);
    for (const key of keys) {
      let ref: Reference;
      try {
        ref = root.get(key as unknown as number);
      } catch (e) {
        // The package throws this string for a key the map does not hold.
        if (typeof e === 'string' && e.startsWith('Key [')) continue;
        throw e;
      }
      const v = scalarOf(ref);
      if (v !== undefined) map.set(key, v);
    }
  } catch (e) {
    // The package throws strings and RangeErrors on damaged buffers, and mixes BigInt offsets
    // into number arithmetic (a TypeError) on maps of 64-bit wide values it cannot read.
    const reason =
      e instanceof TypeError && /BigInt/.test(e.message)
        ? 'it holds 64-bit wide values (doubles or int64), which the flexbuffers reader cannot read; TFLite writes float32 and int32 options'
        : e instanceof Error
          ? e.message
          : String(e);
    throw modelFormatError(source, offset, `${what} is not a valid flexbuffer map: ${reason}`);
  }
  return { values: map, size };
}

