// Runs .tflite models with LiteRT (@litertjs/core, the TensorFlow Lite runtime in WASM) in a
// plain Node process; test/oracle/litert.ts drives it. Protocol: one JSON document on stdin,
// `{ jobs: [{ model: base64, inputs: [base64 bytes per model input] }] }` (or `invocations:
// [[base64 per input], ...]` for several runs of one model); one JSON document on stdout,
// `{ results: [{ outputs: [{ elementType, shape, data: base64 }] } | { runs: [outputs, ...] } | { error }] }`.
//
// Loader shim: the package loads its Emscripten script through `importScripts` (workers)
// or a <script> tag (pages). Node has neither, so `self`/`importScripts` are provided and
// the script runs in this context with the CommonJS bindings it expects (require,
// __filename, __dirname). The package's Tensor API only knows float32/int32/uint8 I/O,
// so the runner drives the WASM model API directly (tensor buffers of any element type).
//
// Failures: `compileModel` and `run` do not reject when TFLite cannot prepare or invoke a
// node (an operator or dtype the runtime lacks); they only log `ERROR:` lines to stderr and
// hand back output buffers nobody wrote, whose bytes are whatever an earlier job left in
// the WASM heap (so a batch of models gave different "results" from one model alone). The
// runner therefore captures stderr per job and turns any `ERROR` line logged while that job
// compiled or ran into that job's `{ error }`, with the lines in the message (lines logged
// elsewhere, as a 0-byte input buffer's harmless "Failed to get num packed bytes", do not count).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const corePackage = require.resolve('@litertjs/core/package.json', { paths: [join(here, '..', '..')] });
const wasmDir = join(dirname(corePackage), 'wasm');

globalThis.self = globalThis;
globalThis.importScripts = (url) => {
  const file = String(url).startsWith('file:') ? fileURLToPath(url) : String(url);
  const code = readFileSync(file, 'utf8');
  const wrapped = `(function (require, __filename, __dirname) {\n${code}\n;globalThis.ModuleFactory = ModuleFactory;\n})`;
  vm.runInThisContext(wrapped, { filename: file })(require, file, dirname(file));
};

// The stderr lines logged while the current job runs (null between jobs). Emscripten's `err`
// is console.error bound at load, which writes through process.stderr.write.
let jobLog = null;
const stderrWrite = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  if (jobLog) jobLog.push(...String(chunk).split('\n').filter((l) => l.length > 0));
  return stderrWrite(chunk, ...rest);
};

/** Where the current job's log stands: a stage's lines are the ones logged after it. */
const logMark = () => (jobLog ?? []).length;

/**
 * Throws with the `ERROR` lines logged since `mark` (by compileModel or run; an input buffer of
 * 0 bytes logs one on creation that is harmless, so only these two stages count).
 */
function throwIfLiteRtFailed(stage, mark) {
  const errors = (jobLog ?? []).slice(mark).filter((l) => l.startsWith('ERROR'));
  if (errors.length > 0) throw new Error(`LiteRT failed to ${stage}: ${errors.join('; ')}`);
}

const { loadLiteRt } = await import(join(dirname(corePackage), 'dist', 'index.js'));

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

function vectorToArray(v) {
  const out = [];
  for (let i = 0; i < v.size(); i++) out.push(v.get(i));
  return out;
}

async function runJob(liteRt, job) {
  const wasm = liteRt.liteRtWasm;
  const env = liteRt.getDefaultEnvironment();
  const bytes = Buffer.from(job.model, 'base64');
  const ptr = wasm._malloc(bytes.length);
  wasm.HEAPU8.set(bytes, ptr);
  const toDelete = [];
  try {
    const model = wasm.loadModel(env.liteRtEnvironment, ptr, bytes.length);
    toDelete.push(model);
    const compileMark = logMark();
    const compiled = await wasm.compileModel(env.liteRtEnvironment, model, {
      environment: env,
      accelerator: 'wasm',
      cpuOptions: { numThreads: 1 },
      gpuOptions: {},
      webNNOptions: {},
    });
    toDelete.push(compiled);
    throwIfLiteRtFailed('compile the model', compileMark);
    // Several invocations run on the one compiled model, so its variables carry over.
    const invocations = job.invocations ?? [job.inputs];
    const runs = [];
    for (const set of invocations) {
      const inputs = set.map((b64, i) => {
        const data = Buffer.from(b64, 'base64');
        let type;
        try {
          type = model.getInputTensorType(0, i);
        } catch (e) {
          throw new Error(`input ${i}: LiteRT cannot type it (a dynamic shape?): ${e instanceof Error ? e.message : e}`);
        }
        const expected = type.bytes();
        if (expected !== data.length) throw new Error(`input ${i} has ${data.length} bytes, the model expects ${expected}`);
        const buffer = wasm.LiteRtTensorBuffer.createManaged(env.liteRtEnvironment, wasm.LiteRtTensorBufferType.HOST_MEMORY, type, data.length);
        type.delete();
        toDelete.push(buffer);
        const p = buffer.lock(wasm.LiteRtTensorBufferLockMode.WRITE);
        wasm.HEAPU8.set(data, p);
        buffer.unlock();
        return buffer;
      });
      const runMark = logMark();
      const outputs = await compiled.run(0, inputs);
      for (const buffer of outputs) toDelete.push(buffer);
      throwIfLiteRtFailed('run the model', runMark);
      runs.push(
        outputs.map((buffer) => {
          const type = buffer.tensorType();
          const elementType = type.elementType().value;
          const layout = type.layout();
          const shape = vectorToArray(layout.dimensions());
          layout.delete();
          type.delete();
          const p = buffer.lock(wasm.LiteRtTensorBufferLockMode.READ);
          const data = Buffer.from(wasm.HEAPU8.slice(p, p + buffer.packedSize()));
          buffer.unlock();
          return { elementType, shape, data: data.toString('base64') };
        }),
      );
    }
    return job.invocations ? { runs } : { outputs: runs[0] };
  } finally {
    for (const o of toDelete.reverse()) {
      try {
        o.delete();
      } catch {
        // already released with its owner
      }
    }
    wasm._free(ptr);
  }
}

const request = JSON.parse(await readStdin());
const liteRt = await loadLiteRt(wasmDir + '/');
const results = [];
for (const job of request.jobs) {
  jobLog = [];
  try {
    results.push(await runJob(liteRt, job));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const errors = jobLog.filter((l) => l.startsWith('ERROR') && !message.includes(l));
    results.push({ error: [message, ...errors].join('\n') });
  } finally {
    jobLog = null;
  }
}
process.stdout.write(JSON.stringify({ results }));
