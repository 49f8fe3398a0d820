/**
 * Model inputs for a verification run: seeded random tensors (reproducible from the seed
 * alone), or files the user gives, as NumPy `.npy` or raw little-endian `.bin`.
 */
import { TensorSpec } from '../codegen/types';
import { VerifyError } from '../errors';
import { DTYPE_BYTES } from '../ir/graph/types';
import { readInputFile as readBoundedInput } from '../util/files';
import { seededRandom } from '../util/random';

export function tensorBytes(spec: TensorSpec): number {
  return spec.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[spec.dtype];
}

/**
 * The harness embeds every run's inputs in its C source (about five characters a byte), so
 * the C build time grows with them: 4 MiB (400 runs of person_detect) builds and runs in about
 * half a minute; a 64 MiB input took minutes. Past this, a run is refused before anything is
 * allocated or compiled.
 */
export const MAX_EMBEDDED_INPUT_BYTES = 4 << 20;

/** Refuses `runs` invocations of inputs `specs` whose bytes the harness could not embed in time. */
export function checkEmbeddedInputBytes(specs: readonly TensorSpec[], runs: number, what: string): void {
  const perRun = specs.reduce((a, s) => a + tensorBytes(s), 0);
  if (perRun * runs > MAX_EMBEDDED_INPUT_BYTES) {
    throw new VerifyError(
      `${what}: the inputs of ${runs} run(s) take ${perRun * runs} bytes (${perRun} a run); the harness embeds them in its C source, at most ${MAX_EMBEDDED_INPUT_BYTES} bytes (use fewer --runs or a smaller model)`,
    );
  }
}

/**
 * Random bytes for `spec`: any bit pattern for integer tensors (every value is a valid
 * quantized input), 0 or 1 for bool, reals in [-2, 2) for float32 (random bits would be NaNs
 * and infinities). `indexBound`: an int32/int64 input read as indices (see
 * `indexInputBounds`) draws values in [0, indexBound) instead.
 */
export function randomTensor(spec: TensorSpec, seed: number, indexBound?: number): Uint8Array {
  const rand = seededRandom(seed);
  const n = spec.shape.reduce((a, b) => a * b, 1);
  if (spec.dtype === 'float32') {
    const f = new Float32Array(n);
    for (let i = 0; i < n; i++) f[i] = Math.floor(rand() * 256) / 64 - 2;
    return new Uint8Array(f.buffer);
  }
  if (indexBound !== undefined && (spec.dtype === 'int32' || spec.dtype === 'int64')) {
    const ids = Array.from({ length: n }, () => Math.floor(rand() * indexBound));
    return new Uint8Array(spec.dtype === 'int32' ? Int32Array.from(ids).buffer : BigInt64Array.from(ids, BigInt).buffer);
  }
  const out = new Uint8Array(n * DTYPE_BYTES[spec.dtype]);
  // A bool byte other than 0 or 1 is no value at all: C's reading of it is undefined.
  const values = spec.dtype === 'bool' ? 2 : 256;
  for (let i = 0; i < out.length; i++) out[i] = Math.floor(rand() * values);
  return out;
}

/** One input set per invocation: invocation k, input i uses seed `seed + 1000 * k + i`; `indexBounds` as `randomTensor`'s, by input name. */
export function randomInvocations(specs: readonly TensorSpec[], seed: number, runs: number, indexBounds: ReadonlyMap<string, number> = new Map()): Uint8Array[][] {
  return Array.from({ length: runs }, (_, k) => specs.map((s, i) => randomTensor(s, seed + 1000 * k + i, indexBounds.get(s.name))));
}

const NPY_DTYPES: Readonly<Record<string, string>> = {
  '|i1': 'int8',
  '|u1': 'uint8',
  '<i2': 'int16',
  '<i4': 'int32',
  '<u4': 'uint32',
  '<i8': 'int64',
  '<u8': 'uint64',
  '<f4': 'float32',
  '|b1': 'bool',
};

/** The data of a `.npy` file (v1-v3, C order, little endian), checked against `spec`. */
export function parseNpy(bytes: Uint8Array, spec: TensorSpec, file: string): Uint8Array {
  const fail = (why: string): never => {
    throw new VerifyError(`${file}: ${why}`, { file, buffer: spec.name });
  };
  if (bytes.length < 10 || bytes[0] !== 0x93 || String.fromCharCode(...bytes.slice(1, 6)) !== 'NUMPY') {
    fail('not a .npy file (no \\x93NUMPY magic)');
  }
  const major = bytes[6];
  // Versions 1-3 are all NumPy defines; another one's header layout is unknown (it was read as v2).
  if (major < 1 || major > 3) fail(`.npy format version ${major}.${bytes[7]} (NumPy writes 1.0, 2.0 and 3.0)`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  // Said before the header is read: cut short, it reads as a malformed one or as no data at all.
  if (start + headerLen > bytes.length) fail(`its header length ${headerLen} runs past the end of the file (${bytes.length} bytes)`);
  const header = new TextDecoder().decode(bytes.slice(start, start + headerLen));
  // NumPy's literal_eval keeps a repeated key's last value; the file is damaged either way, so
  // it is refused rather than read another way than NumPy reads it.
  for (const key of ['descr', 'fortran_order', 'shape']) {
    if ((header.match(new RegExp(`'${key}'\\s*:`, 'g')) ?? []).length > 1) fail(`malformed .npy header: '${key}' is given more than once`);
  }
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) fail('malformed .npy header');
  if (fortran === 'True') fail('Fortran-ordered arrays are not supported; save with C order');
  const dtype = NPY_DTYPES[descr as string] ?? fail(`dtype ${descr} is not supported (int8, uint8, int16, int32, uint32, int64, uint64, float32, bool)`);
  if (dtype !== spec.dtype) fail(`dtype ${dtype}, but input '${spec.name}' is ${spec.dtype}`);
  const shape = (shapeText as string)
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')
    .map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const want = spec.shape.reduce((a, b) => a * b, 1);
  if (count !== want) fail(`shape (${shape.join(', ')}) has ${count} elements, input '${spec.name}' [${spec.shape.join(', ')}] has ${want}`);
  // Axes of length 1 may come and go ((96,) for [1, 96]); others must match, as TensorFlow
  // Lite's set_tensor requires: a (2, 48) array for [1, 96] is most likely the wrong file.
  const axes = (dims: readonly number[]) => dims.filter((d) => d !== 1).join(', ');
  if (axes(shape) !== axes(spec.shape)) fail(`shape (${shape.join(', ')}) does not match input '${spec.name}' [${spec.shape.join(', ')}] (axes of length 1 aside)`);
  const data = bytes.slice(start + headerLen);
  if (data.length !== tensorBytes(spec)) fail(`holds ${data.length} data bytes, expected ${tensorBytes(spec)}`);
  return data;
}

/** Room for a .npy header (format versions 2/3 allow up to 4 GiB, real ones are < 1 KiB). */
const NPY_HEADER_LIMIT = 1 << 20;

/** Reads one input file: `.npy` (checked header) or raw bytes of exactly the tensor's size. */
export function readInputFile(file: string, spec: TensorSpec): Uint8Array {
  // Bounded (util/files): a FIFO or /dev/zero is refused, and nothing much larger than the
  // tensor (plus a .npy header) is read.
  const bytes = new Uint8Array(readBoundedInput(file, { what: 'input file', limitBytes: tensorBytes(spec) + NPY_HEADER_LIMIT }));
  if (file.toLowerCase().endsWith('.npy')) return parseNpy(bytes, spec, file);
  if (bytes.length !== tensorBytes(spec)) {
    throw new VerifyError(
      `${file}: ${bytes.length} bytes, but input '${spec.name}' (${spec.dtype} [${spec.shape.join(', ')}]) takes ${tensorBytes(spec)}`,
      { file, buffer: spec.name },
    );
  }
  return bytes;
}
