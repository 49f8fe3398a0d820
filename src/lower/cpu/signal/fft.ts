/**
 * signal_rfft / signal_irfft → uma_ref_signal_(i)rfft_int16 | _i32 | _f32 with what TFLite
 * Micro's Init computes as operator constants (`<tensor>_twiddles`: the complex FFT's and
 * kiss_fftr's twiddles of the type and direction, `<tensor>_factors`) and its work area as
 * planned scratch (`<tensor>_scratch`: 2 * fft_length for the RFFT, fft_length for the IRFFT).
 */
import { rfftLengthProblem, rfftTables, wideFftTwiddles } from '../../../arith/signal';
import { sanitizeName } from '../../names';
import { OperatorStrategy, OpLoweringInput } from '../../strategy';
import { loweringFail } from '../attrs';
import { SIGNAL_IRFFT_FLOAT, SIGNAL_IRFFT_INT16, SIGNAL_IRFFT_INT32, SIGNAL_RFFT_FLOAT, SIGNAL_RFFT_INT16, SIGNAL_RFFT_INT32 } from '../externKernels';
import { withConstTable, withInt16Table, withScratch } from '../tirHelpers';
import { Buffer, Stmt } from '../../../ir/tir/nodes';
import { elementsOf, intAttr, kernelCall } from './common';

const KERNELS = {
  int16: [SIGNAL_RFFT_INT16, SIGNAL_IRFFT_INT16],
  int32: [SIGNAL_RFFT_INT32, SIGNAL_IRFFT_INT32],
  float32: [SIGNAL_RFFT_FLOAT, SIGNAL_IRFFT_FLOAT],
} as const;

function fftStrategy(inverse: boolean): OperatorStrategy {
  return (input: OpLoweringInput) => {
    const { call } = input;
    const op = inverse ? 'signal_irfft' : 'signal_rfft';
    const dtype = input.argTypes[0].dtype;
    if ((dtype !== 'int16' && dtype !== 'int32' && dtype !== 'float32') || call.type.dtype !== dtype) loweringFail(call, `${op}: dtype ${dtype}`);
    const fftLength = intAttr(input, 'fft_length');
    const problem = rfftLengthProblem(fftLength);
    if (problem !== undefined) loweringFail(call, `${op}: ${problem}`);
    const shape = input.argTypes[0].shape;
    const last = shape[shape.length - 1];
    const rows = last === 0 ? 0 : elementsOf(input, 0) / last;
    const tables = rfftTables(fftLength, inverse);
    const prefix = sanitizeName(call.name);
    const withTwiddles = (body: (t: Buffer) => Stmt): Stmt =>
      dtype === 'int16' ? withInt16Table(`${prefix}_twiddles`, tables.twiddles, body) : withConstTable(`${prefix}_twiddles`, dtype, wideFftTwiddles(dtype, fftLength, inverse), body);
    const kernel = KERNELS[dtype][inverse ? 1 : 0];
    return withTwiddles((twiddles) =>
      withConstTable(`${prefix}_factors`, 'int32', Array.from(tables.factors), (factors) =>
        withScratch(`${prefix}_scratch`, dtype, [(inverse ? 1 : 2) * fftLength], 'global', (scratch) =>
          kernelCall(kernel, [input.args[0].data, input.out.data, scratch.data, twiddles.data, factors.data, rows, ...(inverse ? [] : [last]), fftLength]),
        ),
      ),
    );
  };
}

export const signalRfftStrategy = fftStrategy(false);
export const signalIrfftStrategy = fftStrategy(true);
