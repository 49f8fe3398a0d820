/**
 * unidirectional_sequence_lstm (float32) as loop nests with the numerics of TFLite Micro's
 * float LSTM (see the interpreter kernel): per step and batch row, the four gates (input FC
 * + bias, plus the bias-free recurrent FC of the previous hidden state) into an operator
 * scratch `<tensor>_gates`, sigmoid (reference Logistic with its cutoffs) or tanh, then the
 * cell update (optional clip) and the hidden state, copied to the step's output.
 *
 * Variable-tensor states (the imported model's) are persistent buffers of main updated in
 * place, so the next run continues from them as TFLite Micro's next Invoke() does; plain
 * constant states are copied into operator scratch first and stay read-only.
 *
 * Integer LSTMs (int8 or int16 activations, int16 cell state) call the runtime kernel
 * `uma_ref_lstm_int8` / `uma_ref_lstm_int16` (TFLite Micro's integer LSTM, whose fixed-point gate pipeline is not worth loop nests).
 */
import { LOGISTIC_CUTOFF_LOWER, LOGISTIC_CUTOFF_UPPER, LSTM_ARG, LSTM_GATES, LstmGate } from '../../arith/lstm';
import { INTEGER_GATE_ORDER, lstmIntegerParams, lstmIntegerQuant } from '../../arith/lstmInteger';
import { add, binary, bufferLoad, bufferStore, call as tirCall, callExtern, evaluate, floatImm, max, min, mul, select, seq, sub } from '../../ir/tir/builder';
import { Buffer, Expr, Stmt } from '../../ir/tir/nodes';
import { sanitizeName } from '../names';
import { OperatorStrategy, OpLoweringInput } from '../strategy';
import { LSTM_INT16, LSTM_INT8 } from './externKernels';
import { loweringFail, numberAttr } from './attrs';
import { requireDType } from './convCommon';
import { accAdd, accLoad, accStore, loopNest, reshapedView, staticShape, withAccumulator, withInt32Table, withScratch } from './tirHelpers';

const exp = (x: Expr): Expr => tirCall('tir.exp', 'float32', [x]);
const tanh = (x: Expr): Expr => tirCall('tir.tanh', 'float32', [x]);

function sigmoid(v: Expr): Expr {
  const regular = binary('Div', floatImm(1), add(floatImm(1), exp(sub(floatImm(0), v))));
  return select(binary('GT', v, floatImm(LOGISTIC_CUTOFF_UPPER)), floatImm(1), select(binary('LT', v, floatImm(LOGISTIC_CUTOFF_LOWER)), exp(v), regular));
}

export const unidirectionalSequenceLstmStrategy: OperatorStrategy = (input) => {
  const { call, args } = input;
  if (args.length !== 15) loweringFail(call, `unidirectional_sequence_lstm expects 15 arguments, got ${args.length}`);
  if (input.argTypes[0].dtype === 'int8' || input.argTypes[0].dtype === 'int16') return integerLstm(input);
  requireDType(call, [...input.argTypes, call.type], ['float32'], 'unidirectional_sequence_lstm');
  const timeMajor = call.attrs.time_major === true;
  const [d0, d1, inputSize] = staticShape(args[LSTM_ARG.input]);
  const [time, batch] = timeMajor ? [d0, d1] : [d1, d0];
  const [units] = staticShape(args[LSTM_ARG.inputWeights.forget]);
  const cellClip = Math.fround(numberAttr(call, 'cell_clip', 0));
  const prefix = sanitizeName(call.name);
  const x = args[LSTM_ARG.input];
  const out = input.out;
  const seqIndex = (t: Expr, row: Expr, i: Expr): Expr[] => (timeMajor ? [t, row, i] : [row, t, i]);
  const gateIndex = (g: LstmGate): number => LSTM_GATES.indexOf(g);

  const body = (hidden: Buffer, cell: Buffer, init: Stmt[]): Stmt =>
    withScratch(`${prefix}_gates`, 'float32', [4, units], 'global', (gates) =>
      withAccumulator('acc', 'float32', (acc) =>
        withAccumulator('rec', 'float32', (rec) => {
          const gateNest = (g: LstmGate, t: Expr, row: Expr): Stmt =>
            loopNest(['u'], [units], ([u]) =>
              seq([
                accStore(acc, floatImm(0)),
                loopNest(['i'], [inputSize], ([i]) => accAdd(acc, mul(bufferLoad(x, seqIndex(t, row, i)), bufferLoad(args[LSTM_ARG.inputWeights[g]], [u, i])))),
                accAdd(acc, bufferLoad(args[LSTM_ARG.bias[g]], [u])),
                accStore(rec, floatImm(0)),
                loopNest(['k'], [units], ([k]) => accAdd(rec, mul(bufferLoad(hidden, [row, k]), bufferLoad(args[LSTM_ARG.recurrentWeights[g]], [u, k])))),
                // TFLite adds the recurrent FC's missing bias as 0.0f (turning -0 into +0).
                accStore(acc, add(accLoad(acc), add(accLoad(rec), floatImm(0)))),
                bufferStore(gates, g === 'cell' ? tanh(accLoad(acc)) : sigmoid(accLoad(acc)), [gateIndex(g), u]),
              ]),
            );
          const gate = (g: LstmGate, u: Expr): Expr => bufferLoad(gates, [gateIndex(g), u]);
          const cellUpdate = (row: Expr): Stmt =>
            loopNest(['u'], [units], ([u]) => {
              const updated = add(mul(gate('forget', u), bufferLoad(cell, [row, u])), mul(gate('input', u), gate('cell', u)));
              return bufferStore(cell, cellClip > 0 ? max(min(floatImm(cellClip), updated), floatImm(-cellClip)) : updated, [row, u]);
            });
          const hiddenUpdate = (t: Expr, row: Expr): Stmt =>
            loopNest(['u'], [units], ([u]) =>
              seq([
                bufferStore(hidden, mul(tanh(bufferLoad(cell, [row, u])), gate('output', u)), [row, u]),
                bufferStore(out, bufferLoad(hidden, [row, u]), seqIndex(t, row, u)),
              ]),
            );
          return seq([
            ...init,
            loopNest(['t', 'row'], [time, batch], ([t, row]) =>
              seq([...LSTM_GATES.map((g) => gateNest(g, t, row)), cellUpdate(row), hiddenUpdate(t, row)]),
            ),
          ]);
        }),
      ),
    );

  const stateView = (i: number): Buffer => reshapedView(args[i], [batch, units]);
  const persistent = (i: number): boolean => input.constants.get(i)?.variable === true;
  // Each state is updated in place when it is a variable tensor, else in a scratch copy.
  const withState = (i: number, name: string, k: (state: Buffer, init: Stmt[]) => Stmt): Stmt => {
    if (persistent(i)) return k(stateView(i), []);
    return withScratch(`${prefix}_${name}`, 'float32', [batch, units], 'global', (copy) =>
      k(copy, [loopNest(['r', 'u'], [batch, units], ([r, u]) => bufferStore(copy, bufferLoad(stateView(i), [r, u]), [r, u]))]),
    );
  };
  return withState(LSTM_ARG.outputState, 'output_state', (hidden, initH) =>
    withState(LSTM_ARG.cellState, 'cell_state', (cell, initC) => body(hidden, cell, [...initH, ...initC])),
  );
};

/**
 * int8 (int16) activations with an int16 cell state: one call of the runtime kernel
 * `uma_ref_lstm_int8` (`uma_ref_lstm_int16`) with the prepare-time parameters as an operator int32 table and the
 * gate scratch as an operator buffer; states as for float (in place when variable).
 */
function integerLstm(input: OpLoweringInput): Stmt {
  const { call, args } = input;
  const q = lstmIntegerQuant(input.argTypes, Math.fround(numberAttr(call, 'cell_clip', 0)));
  if (typeof q === 'string') loweringFail(call, `unidirectional_sequence_lstm: unsupported ${q}`);
  requireDType(call, [call.type], [q.activation], 'unidirectional_sequence_lstm');
  const timeMajor = call.attrs.time_major === true;
  const [d0, d1, inputSize] = staticShape(args[LSTM_ARG.input]);
  const [units] = staticShape(args[LSTM_ARG.inputWeights.forget]);
  const shape = { time: timeMajor ? d0 : d1, batch: timeMajor ? d1 : d0, inputSize, units, timeMajor };
  const params = lstmIntegerParams(q, shape);
  const prefix = sanitizeName(call.name);
  const stateCopy = (i: number, name: string, dtype: 'int8' | 'int16', k: (state: Buffer, init: Stmt[]) => Stmt): Stmt => {
    const flat = reshapedView(args[i], [shape.batch * units]);
    if (input.constants.get(i)?.variable === true) return k(flat, []);
    return withScratch(`${prefix}_${name}`, dtype, [shape.batch * units], 'global', (copy) =>
      k(copy, [loopNest(['j'], [shape.batch * units], ([j]) => bufferStore(copy, bufferLoad(flat, [j]), [j]))]),
    );
  };
  return withInt32Table(`${prefix}_params`, Array.from(params), (table) =>
    withScratch(`${prefix}_gates`, 'int16', [4 * units], 'global', (scratch) =>
      stateCopy(LSTM_ARG.outputState, 'output_state', q.activation, (hidden, initH) =>
        stateCopy(LSTM_ARG.cellState, 'cell_state', 'int16', (cell, initC) =>
          seq([
            ...initH,
            ...initC,
            evaluate(
              callExtern(q.activation === 'int16' ? LSTM_INT16 : LSTM_INT8, [
                args[LSTM_ARG.input].data,
                ...INTEGER_GATE_ORDER.map((g) => args[LSTM_ARG.inputWeights[g]].data),
                ...INTEGER_GATE_ORDER.map((g) => args[LSTM_ARG.recurrentWeights[g]].data),
                ...INTEGER_GATE_ORDER.map((g) => args[LSTM_ARG.bias[g]].data),
                hidden.data,
                cell.data,
                input.out.data,
                scratch.data,
                table.data,
              ]),
            ),
          ]),
        ),
      ),
    ),
  );
}
