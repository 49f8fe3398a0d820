/**
 * UNIDIRECTIONAL_SEQUENCE_LSTM as TFLite Micro's float kernel (lstm_eval.cc), one invocation
 * starting from the output and cell state the arguments hold; variable-tensor states are
 * written back for the next invocation of the session. Per step and batch row: each gate is
 * a fully connected layer of the input plus one of the previous hidden state (float
 * accumulation in TFLite's order), summed, then sigmoid (reference Logistic) or tanh; the
 * cell becomes forget * cell + input * cell_gate (clipped when cell_clip > 0) and the hidden
 * state tanh(cell) * output_gate, which is also the step's output. int8 activations with
 * an int16 cell state run TFLite Micro's integer LSTM (src/arith/lstmInteger.ts).
 */
import { LOGISTIC_CUTOFF_LOWER, LOGISTIC_CUTOFF_UPPER, LSTM_ARG, LSTM_GATES, LstmGate, LstmShape, lstmSequenceOffset } from '../../arith/lstm';
import { INTEGER_GATE_ORDER, lstmIntegerParams, lstmIntegerQuant, runLstmInteger } from '../../arith/lstmInteger';
import { KernelContext } from '../kernel';
import { allocateTensorData, TypedArray } from '../tensor';
import { expF32, tanhF32 } from '../../arith/floatMath';

const f32 = Math.fround;

function sigmoid(v: number): number {
  if (v > LOGISTIC_CUTOFF_UPPER) return 1;
  if (v < LOGISTIC_CUTOFF_LOWER) return expF32(v);
  return f32(1 / f32(1 + expF32(-v)));
}

const tanh = (v: number): number => tanhF32(v);

export function unidirectionalSequenceLstm(ctx: KernelContext): TypedArray {
  const input = ctx.input(LSTM_ARG.input, 'input');
  if (input.type.dtype === 'int8' || input.type.dtype === 'int16') return integerLstm(ctx);
  if (input.type.dtype !== 'float32') throw ctx.unsupported(`input dtype ${input.type.dtype} (float32, int8 or int16 LSTM)`);
  const weight = (g: LstmGate, recurrent: boolean): Float32Array => {
    const t = ctx.input(recurrent ? LSTM_ARG.recurrentWeights[g] : LSTM_ARG.inputWeights[g], `${recurrent ? 'recurrent' : 'input'}_to_${g}_weights`);
    if (t.type.dtype !== 'float32') throw ctx.unsupported(`weight dtype ${t.type.dtype} with float32 input (hybrid LSTM)`);
    return t.data as Float32Array;
  };
  const bias = (g: LstmGate): Float32Array => ctx.input(LSTM_ARG.bias[g], `${g}_gate_bias`).data as Float32Array;
  const outputState = ctx.input(LSTM_ARG.outputState, 'output_state');
  const cellStateIn = ctx.input(LSTM_ARG.cellState, 'cell_state');
  if (input.type.shape.length !== 3) throw ctx.fail(`input must be 3-d, got [${input.type.shape}]`);
  const timeMajor = ctx.boolean('time_major', false);
  const [d0, d1, inputSize] = input.type.shape;
  const units = ctx.input(LSTM_ARG.inputWeights.forget, 'input_to_forget_weights').type.shape[0];
  const s: LstmShape = { timeMajor, time: timeMajor ? d0 : d1, batch: timeMajor ? d1 : d0, inputSize, units };
  const cellClip = ctx.number('cell_clip', 0);
  const out = allocateTensorData(ctx.outType) as Float32Array;
  if (out.length !== s.time * s.batch * units) throw ctx.fail(`output must hold ${s.time * s.batch * units} elements`);

  const wx = Object.fromEntries(LSTM_GATES.map((g) => [g, weight(g, false)])) as Record<LstmGate, Float32Array>;
  const wh = Object.fromEntries(LSTM_GATES.map((g) => [g, weight(g, true)])) as Record<LstmGate, Float32Array>;
  const b = Object.fromEntries(LSTM_GATES.map((g) => [g, bias(g)])) as Record<LstmGate, Float32Array>;
  const hidden = Float32Array.from(outputState.data as Float32Array);
  const cell = Float32Array.from(cellStateIn.data as Float32Array);
  const x = input.data as Float32Array;
  const gates = Object.fromEntries(LSTM_GATES.map((g) => [g, new Float32Array(units)])) as Record<LstmGate, Float32Array>;

  // Batches are independent, so TFLite's time-major (all rows per step) and batch-major
  // (all steps per row) loop orders give the same numbers.
  for (let t = 0; t < s.time; t++)
    for (let row = 0; row < s.batch; row++) {
      const xBase = lstmSequenceOffset(s, t, row, inputSize);
      const hBase = row * units;
      for (const g of LSTM_GATES) {
        const gate = gates[g];
        for (let u = 0; u < units; u++) {
          let total = 0;
          for (let i = 0; i < inputSize; i++) total = f32(total + f32(x[xBase + i] * wx[g][u * inputSize + i]));
          const fromInput = f32(total + b[g][u]);
          let rec = 0;
          for (let k = 0; k < units; k++) rec = f32(rec + f32(hidden[hBase + k] * wh[g][u * units + k]));
          // The recurrent FC has no bias: TFLite still adds 0.0f (which turns -0 into +0).
          const pre = f32(fromInput + f32(rec + 0));
          gate[u] = g === 'cell' ? tanh(pre) : sigmoid(pre);
        }
      }
      for (let u = 0; u < units; u++) {
        let c = f32(gates.forget[u] * cell[hBase + u]);
        c = f32(c + f32(gates.input[u] * gates.cell[u]));
        if (cellClip > 0) c = Math.max(Math.min(cellClip, c), -cellClip);
        cell[hBase + u] = c;
      }
      for (let u = 0; u < units; u++) {
        const h = f32(tanh(cell[hBase + u]) * gates.output[u]);
        hidden[hBase + u] = h;
        out[lstmSequenceOffset(s, t, row, units) + u] = h;
      }
    }
  ctx.updateVariable(LSTM_ARG.outputState, hidden);
  ctx.updateVariable(LSTM_ARG.cellState, cell);
  return out;
}

/**
 * Integer LSTM with an int16 cell state, int8 weights and int8 (int32 bias) or int16 (int64
 * bias) activations: TFLite Micro's integer LSTM (src/arith/lstmInteger.ts).
 */
function integerLstm(ctx: KernelContext): TypedArray {
  const tensors = Array.from({ length: 15 }, (_, i) => ctx.input(i, `argument ${i}`));
  const q = lstmIntegerQuant(tensors.map((t) => t.type), ctx.number('cell_clip', 0));
  if (typeof q === 'string') throw ctx.unsupported(q);
  const input = tensors[LSTM_ARG.input];
  const timeMajor = ctx.boolean('time_major', false);
  if (input.type.shape.length !== 3) throw ctx.fail(`input must be 3-d, got [${input.type.shape}]`);
  const [d0, d1, inputSize] = input.type.shape;
  const units = tensors[LSTM_ARG.inputWeights.forget].type.shape[0];
  const shape = { time: timeMajor ? d0 : d1, batch: timeMajor ? d1 : d0, inputSize, units, timeMajor };
  const p = lstmIntegerParams(q, shape);
  const out = allocateTensorData(ctx.outType) as Int8Array | Int16Array;
  if (out.length !== shape.time * shape.batch * units) throw ctx.fail(`output must hold ${shape.time * shape.batch * units} elements`);
  const hiddenIn = tensors[LSTM_ARG.outputState].data as Int8Array | Int16Array;
  const hidden = hiddenIn.slice();
  const cell = Int16Array.from(tensors[LSTM_ARG.cellState].data as Int16Array);
  runLstmInteger(p, {
    input: input.data as Int8Array | Int16Array,
    inputWeights: INTEGER_GATE_ORDER.map((g) => tensors[LSTM_ARG.inputWeights[g]].data as Int8Array),
    recurrentWeights: INTEGER_GATE_ORDER.map((g) => tensors[LSTM_ARG.recurrentWeights[g]].data as Int8Array),
    biases: INTEGER_GATE_ORDER.map((g) => tensors[LSTM_ARG.bias[g]].data as Int32Array | BigInt64Array),
    hidden,
    cell,
    output: out,
  });
  ctx.updateVariable(LSTM_ARG.outputState, hidden);
  ctx.updateVariable(LSTM_ARG.cellState, cell);
  return out;
}
