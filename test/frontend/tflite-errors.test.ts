import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { FileAccessError, ModelFormatError, UmaError, UnsupportedOperatorError } from '../../src/errors';
import { importTflite, loadTfliteFile } from '../../src/frontend/tflite';
import { RawTflite } from './rawTflite';
import { errorOf } from '../helpers/errorOf';
import { inspectReport } from '../../src/cli/inspect';
import { TfliteWriter, tfliteOptions } from '../../src/frontend/tflite/writer';
import { Model } from '../../src/frontend/tflite/schema';

const MODELS = join(__dirname, '..', '..', 'models');
const HELLO = join(MODELS, 'hello_world_int8.tflite');
const helloBytes = () => new Uint8Array(readFileSync(HELLO));

describe('corrupt and truncated files', () => {
  it('the first 100 bytes give a one-line ModelFormatError naming the file and offset', () => {
    const e = errorOf(() => importTflite(helloBytes().subarray(0, 100), 'models/hello_world_int8.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toContain('models/hello_world_int8.tflite');
    expect(e.message).toMatch(/byte offset \d+/);
    expect(e.message).not.toContain('\n');
    expect((e as ModelFormatError).context.file).toBe('models/hello_world_int8.tflite');
    expect(typeof (e as ModelFormatError).context.offset).toBe('number');
  });

  it('a file cut in the middle gives a ModelFormatError', () => {
    for (const model of ['hello_world_int8.tflite', 'person_detect.tflite', 'keyword_scrambled.tflite']) {
      const bytes = new Uint8Array(readFileSync(join(MODELS, model)));
      const e = errorOf(() => importTflite(bytes.subarray(0, Math.floor(bytes.length / 2)), model));
      expect(e).toBeInstanceOf(ModelFormatError);
      expect(e.message).toMatch(new RegExp(`${model.replace('.', '\\.')} at byte offset \\d+`));
    }
  });

  it('every truncation of hello_world fails cleanly (ModelFormatError, never a RangeError)', () => {
    const bytes = helloBytes();
    for (let len = 0; len < bytes.length; len += 7) {
      const e = errorOf(() => importTflite(bytes.subarray(0, len), 'cut'));
      expect(e).toBeInstanceOf(ModelFormatError);
    }
  });

  it('random byte corruption either imports or throws an UmaError', () => {
    const original = helloBytes();
    let seed = 12345;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    for (let trial = 0; trial < 400; trial++) {
      const bytes = original.slice();
      for (let k = 0; k < 3; k++) bytes[rand(bytes.length)] = rand(256);
      try {
        importTflite(bytes, 'fuzz');
      } catch (e) {
        expect(e).toBeInstanceOf(UmaError);
      }
    }
  });

  it('an out-of-range opcode_index is reported with the operator\'s byte offset', () => {
    const bytes = new Uint8Array(readFileSync(join(MODELS, 'kws_ref_model.tflite')));
    const raw = new RawTflite(bytes);
    // An operator whose opcode_index is stored (a stored 0 is omitted by FlatBuffers).
    const k = raw.operators().findIndex((op) => raw.fieldPos(op, 0) > 0);
    expect(k).toBeGreaterThanOrEqual(0);
    const op = raw.operators()[k];
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(raw.fieldPos(op, 0), 99, true);
    const e = errorOf(() => importTflite(bytes, 'k.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toBe(
      `corrupt TFLite file k.tflite at byte offset ${op}: operator #${k} has opcode_index 99 but the model has ${raw.operatorCodes.length} operator codes`,
    );
  });

  it('a damaged shape of thousands of dimensions is named by its first six and its rank, on one short line', () => {
    // Found by fuzzing: a flipped byte pointed a tensor's shape at a 2,000-entry vector and the
    // error printed every entry.
    const rank = 2000;
    const w = new TfliteWriter();
    const shape = Array.from({ length: rank }, (_, i) => (i === 2 ? 7654321 : 1));
    const x = w.addInput({ name: 'x', shape, dtype: 'float32' });
    const y = w.addTensor({ name: 'y', shape, dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    const bytes = w.finish();
    const marker = Buffer.from(Int32Array.of(7654321).buffer);
    for (let at = Buffer.from(bytes).indexOf(marker); at >= 0; at = Buffer.from(bytes).indexOf(marker, at + 1)) bytes.set(Buffer.from(Int32Array.of(-5).buffer), at);
    const e = errorOf(() => importTflite(bytes, 'long.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toContain(`has a negative dimension in [1,1,-5,1,1,1, ... (${rank} dimensions)]`);
    expect(e.message.length).toBeLessThan(300);
    // 40 dimensions of 2: too many elements, named the same way
    const big = new TfliteWriter();
    const bx = big.addInput({ name: 'x', shape: new Array(40).fill(2), dtype: 'int8' });
    big.markOutput(bx);
    const e2 = errorOf(() => importTflite(big.finish(), 'big.tflite'));
    expect(e2.message).toContain('has shape [2,2,2,2,2,2, ... (40 dimensions)], more than 2^31-1 elements');
  });

  it('control characters of a damaged name become ? so an error quoting it stays one line', () => {
    // Found by fuzzing: a shared_name offset landed on binary data and the error about its
    // variable spanned several lines.
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    const y = w.addTensor({ name: 'bad\nname\u0000\u0007', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    const bytes = w.finish();
    const marker = Buffer.from('\u0000\u0007');
    const nameAt = Buffer.from(bytes).indexOf(Buffer.from('bad\nname'));
    expect(nameAt).toBeGreaterThan(0);
    expect(Buffer.from(bytes).indexOf(marker, nameAt)).toBe(nameAt + 8);
    const graph = importTflite(bytes, 'names.tflite');
    expect(graph.functions.get('main')!.outputs).toEqual(['bad?name??']);
    // a variable's shared_name quoted by an unsupported-operator error
    const v = new TfliteWriter();
    const h = v.addTensor({ name: 'h', shape: [], dtype: 'resource' });
    v.addOperator({ op: 'VAR_HANDLE', inputs: [], outputs: [h], options: tfliteOptions.varHandle({ sharedName: 'ghost\nstate\r' }) });
    const r = v.addTensor({ name: 'r', shape: [2], dtype: 'float32' });
    v.addOperator({ op: 'READ_VARIABLE', inputs: [h], outputs: [r] });
    v.markOutput(r);
    const e = errorOf(() => importTflite(v.finish(), 'ghost.tflite'));
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message).toContain("variable 'ghost?state?' is never assigned");
    expect(e.message.split('\n')[0]).toContain('ghost.tflite');
  });

  /** A MAXIMUM whose input [4865393] cannot give its declared output [5]. */
  function misfitModel(): Uint8Array {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [4865393], dtype: 'int8' });
    const c = w.addConstant({ name: 'c', shape: [1], dtype: 'int8', data: [3] });
    const y = w.addTensor({ name: 'y', shape: [5], dtype: 'int8' });
    w.addOperator({ op: 'MAXIMUM', inputs: [x, c], outputs: [y] });
    w.markOutput(y);
    return w.finish();
  }

  it('an input shape that does not fit its operator is named at import, as compile names it', () => {
    // Found by fuzzing: a flipped byte made a stateful model's input [486539269]; the import
    // accepted it (compile refused), and an interpreter run allocated and looped over 486M values.
    const e = errorOf(() => importTflite(misfitModel(), 'fit.tflite'));
    expect(e).toBeInstanceOf(UmaError);
    expect(e.message).toBe("fit.tflite: main: maximum 'y' declares [5] int8 but its arguments give [4865393] int8");
  });

  it('inspect names the file in that error too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-inspect-'));
    try {
      const file = join(dir, 'fit.tflite');
      writeFileSync(file, misfitModel());
      expect(errorOf(() => inspectReport(file)).message).toBe(`${file}: main: maximum 'y' declares [5] int8 but its arguments give [4865393] int8`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a wrong file identifier is reported', () => {
    const bytes = helloBytes();
    bytes.set([0x58, 0x58, 0x58, 0x58], 4);
    const e = errorOf(() => importTflite(bytes, 'x.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toContain('"XXXX"');
    expect(e.message).toContain('TFL3');
  });

  it('a schema version other than 3 is refused, as TFLite and TFLite Micro refuse it', () => {
    const bytes = helloBytes();
    const raw = new RawTflite(bytes);
    const at = raw.fieldPos(raw.root, 0);
    expect(at).toBeTruthy();
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(dv.getUint32(at, true)).toBe(3);
    dv.setUint32(at, 4, true);
    const e = errorOf(() => importTflite(bytes, 'v4.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toBe('v4.tflite: TFLite schema version 4; TFLite and TFLite Micro read only version 3');
  });

  it("a missing file is a FileAccessError naming the path", () => {
    const e = errorOf(() => loadTfliteFile('/nonexistent/model.tflite'));
    expect(e).toBeInstanceOf(FileAccessError);
    expect(e.message).toContain('/nonexistent/model.tflite');
  });
});

/** A copy of `bytes` whose operator code `index` claims builtin `code` in both code fields. */
function patchOperatorCode(bytes: Uint8Array, index: number, code: number): Uint8Array {
  const copy = bytes.slice();
  const raw = new RawTflite(copy);
  const opcode = raw.operatorCodes[index];
  const dv = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  const deprecated = raw.fieldPos(opcode, 0);
  const extended = raw.fieldPos(opcode, 3);
  expect(deprecated || extended).toBeTruthy();
  if (deprecated) dv.setInt8(deprecated, Math.min(code, 127));
  if (extended) dv.setInt32(extended, code, true);
  return copy;
}

describe('unsupported operators', () => {
  // LSH_PROJECTION: TFLite Micro has no kernel for it, so these stay unsupported as the set grows.
  it('a FULLY_CONNECTED patched into LSH_PROJECTION is reported by name, builtin number, index and file, every use counted', () => {
    const patched = patchOperatorCode(helloBytes(), 0, 15);
    const e = errorOf(() => importTflite(patched, 'models/x.tflite'));
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    expect(e.message.split('\n')).toEqual([
      '3 unsupported operators (1 kind) in models/x.tflite, first: unsupported TFLite operator LSH_PROJECTION (builtin 15) at operator #0 in models/x.tflite',
      '  LSH_PROJECTION x3, first at operator #0: operator not supported',
    ]);
  });

  it('names the first operator using the unsupported code', () => {
    const bytes = new Uint8Array(readFileSync(join(MODELS, 'kws_ref_model.tflite')));
    const raw = new RawTflite(bytes);
    // Patch the operator code of the operator at index 1 and expect that index reported.
    const opcodeIndex = raw.int32(raw.operators()[1], 0, 0);
    const firstUse = raw.operators().findIndex((op) => raw.int32(op, 0, 0) === opcodeIndex);
    const uses = raw.operators().filter((op) => raw.int32(op, 0, 0) === opcodeIndex).length;
    const e = errorOf(() => importTflite(patchOperatorCode(bytes, opcodeIndex, 15), 'kws'));
    expect(e).toBeInstanceOf(UnsupportedOperatorError);
    const first = `unsupported TFLite operator LSH_PROJECTION (builtin 15) at operator #${firstUse} in kws`;
    expect(e.message.split('\n')[0]).toBe(uses === 1 ? first : `${uses} unsupported operators (1 kind) in kws, first: ${first}`);
  });
});

describe('operators writing constant tensors', () => {
  // An output with data in the file: BROADCAST_ARGS folded [2, 1] into 'b' while FILL read the
  // file's [2, 3] as its dims, and compile succeeded with the two disagreeing.
  it('BROADCAST_ARGS (folded at import) into a constant read by FILL: a ModelFormatError naming the operator and tensor', () => {
    const w = new TfliteWriter();
    const a = w.addConstant({ name: 'a', shape: [2], dtype: 'int32', data: [2, 1] });
    const b = w.addConstant({ name: 'b', shape: [2], dtype: 'int32', data: [2, 3] });
    w.addOperator({ op: 'BROADCAST_ARGS', inputs: [a, a], outputs: [b] });
    const v = w.addConstant({ name: 'v', shape: [], dtype: 'float32', data: [1] });
    const y = w.addTensor({ name: 'y', shape: [2, 3], dtype: 'float32' });
    w.addOperator({ op: 'FILL', inputs: [b, v], outputs: [y] });
    w.markOutput(y);
    const e = errorOf(() => importTflite(w.finish(), 'm.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toMatch(/^corrupt TFLite file m\.tflite at byte offset \d+: BROADCAST_ARGS at operator #0 writes tensor #1 'b', which holds constant data$/);
  });

  it('any operator (ADD) writing a constant is refused; an output whose buffer holds no bytes (no elements) is not a constant', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
    const b = w.addConstant({ name: 'b', shape: [2], dtype: 'float32', data: [2, 3] });
    w.addOperator({ op: 'ADD', inputs: [x, x], outputs: [b], options: tfliteOptions.add() });
    w.markOutput(b);
    expect(errorOf(() => importTflite(w.finish(), 'm.tflite')).message).toContain("ADD at operator #0 writes tensor #1 'b', which holds constant data");
    const ok = new TfliteWriter();
    const x0 = ok.addInput({ name: 'x', shape: [0], dtype: 'float32' });
    const empty = ok.addConstant({ name: 'e', shape: [0], dtype: 'float32', data: [] });
    ok.addOperator({ op: 'ADD', inputs: [x0, x0], outputs: [empty], options: tfliteOptions.add() });
    ok.markOutput(empty);
    expect(() => importTflite(ok.finish(), 'm.tflite')).not.toThrow();
  });

  // Regression: WHILE and IF returned before the check, so a loop writing its result into a
  // constant imported (TFLite Micro leaves a constant in the read-only flatbuffer).
  it('a WHILE or IF writing a constant is refused too', () => {
    for (const op of ['WHILE', 'IF'] as const) {
      const w = new TfliteWriter();
      const x = w.addInput({ name: 'x', shape: [2], dtype: 'float32' });
      const k = w.addConstant({ name: 'k', shape: [2], dtype: 'float32', data: [5, 6] });
      const a = w.addSubgraph('a');
      const b = w.addSubgraph('b');
      if (op === 'WHILE') {
        a.markOutput(a.addConstant({ name: 'false', shape: [1], dtype: 'bool', data: [0] }));
        a.addInput({ name: 'v', shape: [2], dtype: 'float32' });
        b.markOutput(b.addInput({ name: 'v', shape: [2], dtype: 'float32' }));
        w.addOperator({ op, inputs: [x], outputs: [k], options: tfliteOptions.while({ cond: a.index, body: b.index }) });
      } else {
        for (const sg of [a, b]) sg.markOutput(sg.addInput({ name: 'v', shape: [2], dtype: 'float32' }));
        w.addOperator({ op, inputs: [w.addConstant({ name: 'c', shape: [1], dtype: 'bool', data: [1] }), x], outputs: [k], options: tfliteOptions.if({ then: a.index, else: b.index }) });
      }
      const y = w.addTensor({ name: 'y', shape: [2], dtype: 'float32' });
      w.addOperator({ op: 'ADD', inputs: [k, x], outputs: [y], options: tfliteOptions.add() });
      w.markOutput(y);
      const e = errorOf(() => importTflite(w.finish(), 'm.tflite'));
      expect(e).toBeInstanceOf(ModelFormatError);
      expect(e.message).toMatch(new RegExp(`^corrupt TFLite file m\\.tflite at byte offset \\d+: ${op} at operator #0 writes tensor #1 'k', which holds constant data$`));
    }
  });
});

describe('model inputs with data in the file', () => {
  // Regression: a subgraph input's buffer was never read, so an index past the buffers, bytes of
  // the wrong size or constant data of the right size were all imported as a plain input.
  function reluOf(x: { data?: readonly number[] }): Uint8Array {
    const w = new TfliteWriter();
    const input = w.addTensor({ name: 'x', shape: [2], dtype: 'float32', ...x });
    w.markInput(input);
    const y = w.addTensor({ name: 'y', shape: [2], dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [input], outputs: [y] });
    w.markOutput(y);
    w.addConstant({ name: 'unused', shape: [3], dtype: 'float32', data: [1, 2, 3] });
    return w.finish();
  }
  /** The model with input tensor 0's buffer index set to `buffer`. */
  function withInputBuffer(bytes: Uint8Array, buffer: number): Uint8Array {
    const copy = bytes.slice();
    const raw = new RawTflite(copy);
    const at = raw.fieldPos(raw.tensors()[0], 2);
    expect(at).toBeGreaterThan(0);
    new DataView(copy.buffer).setUint32(at, buffer, true);
    return copy;
  }

  it('an input holding constant data is a ModelFormatError naming the tensor', () => {
    const e = errorOf(() => importTflite(reluOf({ data: [1, 2] }), 'm.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toMatch(/^corrupt TFLite file m\.tflite at byte offset \d+: model input tensor #0 'x' holds constant data \(8 bytes in buffer 1\); an input is written by the application$/);
  });

  it('an input whose buffer index is past the buffers, or whose bytes do not fit its type, is refused', () => {
    const plain = reluOf({});
    expect(() => importTflite(plain, 'm.tflite')).not.toThrow();
    expect(errorOf(() => importTflite(withInputBuffer(plain, 0xffffffff), 'm.tflite')).message).toMatch(/tensor #0 'x' refers to buffer 4294967295 of \d+$/);
    // Buffer 1 is the unused constant's 12 bytes.
    expect(errorOf(() => importTflite(withInputBuffer(plain, 1), 'm.tflite')).message).toMatch(/tensor #0 'x' has 12 data bytes, its type \[2\] float32 needs 8$/);
  });

  it('inspect reports it too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-input-data-'));
    try {
      const file = join(dir, 'm.tflite');
      writeFileSync(file, reluOf({ data: [1, 2] }));
      expect(errorOf(() => inspectReport(file)).message).toContain("model input tensor #0 'x' holds constant data");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('buffer indices of tensors uma-ts never reads', () => {
  // Regression: RESHAPE takes its shape from its output tensor (as TFLite Micro), so its shape
  // input's buffer was never looked at and an index past the buffers imported silently.
  it('a RESHAPE shape tensor whose buffer index is past the buffers is a ModelFormatError', () => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'float32' });
    const shape = w.addConstant({ name: 'shape', shape: [1], dtype: 'int32', data: [4] });
    const y = w.addTensor({ name: 'y', shape: [4], dtype: 'float32' });
    w.addOperator({ op: 'RESHAPE', inputs: [x, shape], outputs: [y], options: tfliteOptions.reshape([4]) });
    w.markOutput(y);
    const bytes = w.finish();
    expect(() => importTflite(bytes, 'm.tflite')).not.toThrow();
    const raw = new RawTflite(bytes);
    const at = raw.fieldPos(raw.tensors()[shape], 2);
    expect(at).toBeGreaterThan(0);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(at, 99, true);
    const e = errorOf(() => importTflite(bytes, 'm.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).toMatch(/^corrupt TFLite file m\.tflite at byte offset \d+: tensor #1 'shape' refers to buffer 99 of 2$/);
  });
});

describe('signature defs', () => {
  // Regression: uma-ts read no signature def, so one naming a missing subgraph or a tensor
  // past its subgraph's tensors imported silently; LiteRT refuses to load such a file.
  const model = (sig: (x: number, y: number) => Parameters<TfliteWriter['addSignatureDef']>[0]): Uint8Array => {
    const w = new TfliteWriter();
    const x = w.addInput({ name: 'x', shape: [1, 4], dtype: 'float32' });
    const y = w.addTensor({ name: 'y', shape: [1, 4], dtype: 'float32' });
    w.addOperator({ op: 'RELU', inputs: [x], outputs: [y] });
    w.markOutput(y);
    w.addSignatureDef(sig(x, y));
    return w.finish();
  };
  const refusal = (bytes: Uint8Array): string => {
    const e = errorOf(() => importTflite(bytes, 'm.tflite'));
    expect(e).toBeInstanceOf(ModelFormatError);
    expect(e.message).not.toContain('\n');
    return e.message;
  };

  it('a signature naming its own subgraph and tensors imports', () => {
    expect(() => importTflite(model((x, y) => ({ key: 'serving_default', subgraphIndex: 0, inputs: { in: x }, outputs: { out: y } })))).not.toThrow();
  });

  it('a subgraph index past the subgraphs is a ModelFormatError', () => {
    expect(refusal(model((x, y) => ({ key: 'serving_default', subgraphIndex: 5, inputs: { in: x }, outputs: { out: y } })))).toMatch(
      /^corrupt TFLite file m\.tflite at byte offset \d+: signature def #0 "serving_default" names subgraph 5, but the model has 1 subgraph \(LiteRT refuses such a file\)$/,
    );
  });

  it('an input or output tensor index past the tensors is a ModelFormatError', () => {
    expect(refusal(model((_x, y) => ({ key: 'k', subgraphIndex: 0, inputs: { in: 99 }, outputs: { out: y } })))).toContain(
      'signature def #0 "k" input "in" names tensor 99, but subgraph 0 has 2 tensors',
    );
    expect(refusal(model((x) => ({ key: 'k', subgraphIndex: 0, inputs: { in: x }, outputs: { out: -1 } })))).toContain(
      'signature def #0 "k" output "out" names tensor 4294967295, but subgraph 0 has 2 tensors',
    );
  });

  it('other input/output counts than the subgraph has are a ModelFormatError', () => {
    expect(refusal(model((x, y) => ({ key: 'k', subgraphIndex: 0, inputs: { a: x, b: y }, outputs: { out: y } })))).toContain(
      'signature def #0 "k" lists 2 inputs and 1 output, but subgraph 0 has 1 input and 1 output',
    );
  });

  it("a signature input or output that is not the subgraph's own is a ModelFormatError", () => {
    expect(refusal(model((x, y) => ({ key: 'k', subgraphIndex: 0, inputs: { in: y }, outputs: { out: x } })))).toContain(
      'signature def #0 "k" input "in" names tensor 1, which is not an input of subgraph 0 (LiteRT refuses such a file)',
    );
    expect(refusal(model((x) => ({ key: 'k', subgraphIndex: 0, inputs: { in: x }, outputs: { out: x } })))).toContain(
      'signature def #0 "k" output "out" names tensor 0, which is not an output of subgraph 0',
    );
  });

  it('a damaged input or output entry is named by its signature and position', () => {
    const bytes = model((x, y) => ({ key: 'k', subgraphIndex: 0, inputs: { in: x }, outputs: { out: y } }));
    const entry = Model.open(bytes, 'm.tflite').signatureDefs[0].outputs[0].pos;
    new DataView(bytes.buffer, bytes.byteOffset).setInt32(entry, -1000000, true);
    expect(refusal(bytes)).toMatch(/^corrupt TFLite file m\.tflite at byte offset \d+: signature def #0 output #0 table's vtable would start at byte \d+, outside the \d+-byte file$/);
  });

  it('inspect reports it too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uma-signature-'));
    try {
      const file = join(dir, 'm.tflite');
      writeFileSync(file, model((x, y) => ({ key: 'k', subgraphIndex: 2, inputs: { in: x }, outputs: { out: y } })));
      expect(errorOf(() => inspectReport(file)).message).toContain('signature def #0 "k" names subgraph 2, but the model has 1 subgraph');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
