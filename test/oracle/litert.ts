/**
 * LiteRT oracle: runs `.tflite` bytes with the real TensorFlow Lite runtime (`@litertjs/core`,
 * WASM, XNNPack kernels) and returns the outputs. The package is ESM + WASM and jest runs
 * CommonJS, so the work happens in a child Node process (`litertRunner.mjs`, which carries
 * the loader shim). Batch many models into one `runLiteRtBatch` call: loading the WASM
 * runtime costs about a second.
 *
 * LiteRT rounds some quantized operators differently from TFLite Micro (XNNPack), so compare
 * quantized outputs within ±1 LSB and float outputs within a small relative tolerance
 * (`expectCloseToLiteRt`). Limits seen: no variable tensors (resource variables with
 * CALL_ONCE do run, and carry over across `runLiteRtInvocations`), no dynamic shapes
 * (`shape_signature` with -1), per-channel bias quantization must name axis 0. LiteRT's WHILE
 * copies the body's outputs over its inputs in place, so a body that passes its input j
 * through as output k != j (a swap) reads input j already overwritten; TFLite Micro copies
 * through the operator's outputs and keeps the values apart, as uma-ts does. XNNPack's float
 * EXP/LOG/SIN/COS/TANH/LOGISTIC are approximations (sin of 1e10 gives -7093, of 1e30 NaN;
 * subnormals read as 0; exp saturates at FLT_MAX), so extreme float inputs are compared
 * against the generated C, not LiteRT.
 */
import { spawnSync } from 'child_process';
import { join } from 'path';

export type OracleDType = 'float32' | 'int32' | 'uint8' | 'int64' | 'bool' | 'int16' | 'int8' | 'float16' | 'float64';

/** LiteRT's `ElementType` values (1-based, unlike TFLite's TensorType). */
const ELEMENT_TYPES: Readonly<Record<number, OracleDType>> = {
  1: 'float32',
  2: 'int32',
  3: 'uint8',
  4: 'int64',
  6: 'bool',
  7: 'int16',
  9: 'int8',
  10: 'float16',
  11: 'float64',
};

export interface OracleTensor {
  readonly dtype: OracleDType;
  readonly shape: number[];
  /** Raw little-endian bytes. */
  readonly data: Uint8Array;
}

export interface LiteRtJob {
  readonly model: Uint8Array;
  /** Raw bytes of each model input, in subgraph input order. */
  readonly inputs: readonly Uint8Array[];
}

export type LiteRtResult = { readonly outputs: OracleTensor[] } | { readonly error: string };

const RUNNER = join(__dirname, 'litertRunner.mjs');

const b64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

/**
 * Runs every job in one LiteRT process; a job LiteRT rejects yields `{ error }` with the
 * `ERROR` lines LiteRT logged for that job only. A job whose compile or run logged an
 * `ERROR` is an error even when LiteRT handed back outputs (they were never written).
 */
export function runLiteRtBatch(jobs: readonly LiteRtJob[]): LiteRtResult[] {
  const request = JSON.stringify({ jobs: jobs.map((j) => ({ model: b64(j.model), inputs: j.inputs.map(b64) })) });
  const child = spawnSync(process.execPath, [RUNNER], { input: request, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (child.error) throw child.error;
  if (child.status !== 0) throw new Error(`LiteRT runner exited with ${child.status}: ${child.stderr}`);
  const { results } = JSON.parse(child.stdout) as {
    results: ({ outputs: { elementType: number; shape: number[]; data: string }[] } | { error: string })[];
  };
  return results.map((r) => {
    if ('error' in r) return { error: r.error };
    return {
      outputs: r.outputs.map((o) => {
        const dtype = ELEMENT_TYPES[o.elementType];
        if (!dtype) throw new Error(`LiteRT returned an output of unknown element type ${o.elementType}`);
        return { dtype, shape: o.shape, data: new Uint8Array(Buffer.from(o.data, 'base64')) };
      }),
    };
  });
}

/**
 * Runs one model `invocations.length` times in a row on one compiled LiteRT model (resource
 * variables carry over, as in one TFLite interpreter); outputs per invocation. Throws with
 * LiteRT's message when it cannot.
 */
export function runLiteRtInvocations(model: Uint8Array, invocations: readonly (readonly Uint8Array[])[]): OracleTensor[][] {
  const request = JSON.stringify({ jobs: [{ model: b64(model), invocations: invocations.map((set) => set.map(b64)) }] });
  const child = spawnSync(process.execPath, [RUNNER], { input: request, maxBuffer: 1 << 30, encoding: 'utf8' });
  if (child.error) throw child.error;
  if (child.status !== 0) throw new Error(`LiteRT runner exited with ${child.status}: ${child.stderr}`);
  const [result] = (JSON.parse(child.stdout) as { results: ({ runs: { elementType: number; shape: number[]; data: string }[][] } | { error: string })[] }).results;
  if ('error' in result) throw new Error(`LiteRT: ${result.error}`);
  return result.runs.map((outputs) =>
    outputs.map((o) => {
      const dtype = ELEMENT_TYPES[o.elementType];
      if (!dtype) throw new Error(`LiteRT returned an output of unknown element type ${o.elementType}`);
      return { dtype, shape: o.shape, data: new Uint8Array(Buffer.from(o.data, 'base64')) };
    }),
  );
}

/** Runs one model; throws with LiteRT's message when it cannot. */
export function runLiteRt(model: Uint8Array, inputs: readonly Uint8Array[]): OracleTensor[] {
  const [r] = runLiteRtBatch([{ model, inputs }]);
  if ('error' in r) throw new Error(`LiteRT: ${r.error}`);
  return r.outputs;
}

/** The elements of raw bytes as numbers (bigint for int64 converted to number). */
export function elementsOf(dtype: OracleDType | string, bytes: Uint8Array): number[] {
  const buf = bytes.slice().buffer;
  switch (dtype) {
    case 'float32':
      return Array.from(new Float32Array(buf));
    case 'float64':
      return Array.from(new Float64Array(buf));
    case 'int32':
      return Array.from(new Int32Array(buf));
    case 'int16':
      return Array.from(new Int16Array(buf));
    case 'int8':
      return Array.from(new Int8Array(buf));
    case 'uint8':
    case 'bool':
      return Array.from(new Uint8Array(buf));
    case 'int64':
      return Array.from(new BigInt64Array(buf), Number);
    default:
      throw new Error(`no element reader for ${dtype}`);
  }
}

export interface Closeness {
  /** Largest difference allowed for integer outputs (default 1 LSB). */
  readonly lsb?: number;
  /** Float: |a - b| <= rel * max(|a|, |b|) + abs (defaults 1e-5 and 1e-6). */
  readonly rel?: number;
  readonly abs?: number;
}

/**
 * The first place where `actual` (uma-ts) and `expected` (LiteRT) disagree beyond the
 * tolerance, or null. Integers within `lsb`, floats within rel/abs.
 */
export function firstMismatch(dtype: OracleDType | string, actual: Uint8Array, expected: Uint8Array, tol: Closeness = {}): string | null {
  const a = elementsOf(dtype, actual);
  const e = elementsOf(dtype, expected);
  if (a.length !== e.length) return `${a.length} elements vs LiteRT's ${e.length}`;
  const isFloat = dtype === 'float32' || dtype === 'float64';
  for (let i = 0; i < a.length; i++) {
    if (isFloat) {
      const rel = tol.rel ?? 1e-5;
      const abs = tol.abs ?? 1e-6;
      if (Number.isNaN(a[i]) !== Number.isNaN(e[i]) || Math.abs(a[i] - e[i]) > rel * Math.max(Math.abs(a[i]), Math.abs(e[i])) + abs) {
        return `element ${i}: ${a[i]} vs LiteRT's ${e[i]}`;
      }
    } else if (Math.abs(a[i] - e[i]) > (tol.lsb ?? 1)) {
      return `element ${i}: ${a[i]} vs LiteRT's ${e[i]}`;
    }
  }
  return null;
}

/** Jest-friendly check of one output against LiteRT's. */
export function expectCloseToLiteRt(dtype: OracleDType | string, actual: Uint8Array, expected: OracleTensor, tol: Closeness = {}): void {
  if (expected.dtype !== dtype) throw new Error(`dtype ${dtype} vs LiteRT's ${expected.dtype}`);
  const m = firstMismatch(dtype, actual, expected.data, tol);
  if (m !== null) throw new Error(`differs from LiteRT: ${m}`);
}
