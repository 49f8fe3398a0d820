import { parseNpy } from '../../src/verify/inputs';
import { npyInt8 } from '../helpers/npy';

const spec = { name: 'x', dtype: 'int8' as const, shape: [1, 6] };
const data = Int8Array.of(1, -2, 3, -4, 5, -6);

describe('.npy inputs', () => {
  it.each([
    [[1, 6], 1],
    [[6], 2],
    [[6, 1], 3],
    [[1, 1, 6], 1],
  ])('shape %j (format %i.0) is the input [1, 6]: axes of length 1 may differ', (shape, major) => {
    const bytes = parseNpy(npyInt8(shape, data, major), spec, 'x.npy');
    expect(Array.from(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))).toEqual(Array.from(data));
  });

  it.each([
    [[2, 3], "x.npy: shape (2, 3) does not match input 'x' [1, 6] (axes of length 1 aside)"],
    [[3, 2, 1], "x.npy: shape (3, 2, 1) does not match input 'x' [1, 6] (axes of length 1 aside)"],
    [[7], "x.npy: shape (7) has 7 elements, input 'x' [1, 6] has 6"],
  ])('shape %j is refused, though the bytes may be as many (it was read as the input)', (shape, message) => {
    const bytes = shape[0] === 7 ? npyInt8(shape, Int8Array.of(...data, 7)) : npyInt8(shape, data);
    expect(() => parseNpy(bytes, spec, 'x.npy')).toThrow(message);
  });

  it.each([0, 4, 9])('format version %i.0 is refused (NumPy writes 1-3; a 9.0 file was read as 2.0)', (major) => {
    const bytes = npyInt8([1, 6], data, 2);
    bytes[6] = major;
    expect(() => parseNpy(bytes, spec, 'x.npy')).toThrow(`x.npy: .npy format version ${major}.0 (NumPy writes 1.0, 2.0 and 3.0)`);
  });

  it.each([1, 2])('a header length past the end of the file (format %i.0) is named as such', (major) => {
    const bytes = npyInt8([1, 6], data, major);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const huge = bytes.length + 5;
    if (major === 1) view.setUint16(8, huge, true);
    else view.setUint32(8, huge, true);
    expect(() => parseNpy(bytes, spec, 'x.npy')).toThrow(`x.npy: its header length ${huge} runs past the end of the file (${bytes.length} bytes)`);
  });

  it.each(['descr', 'shape'])("a header naming '%s' twice is refused (NumPy reads the last, the first was read)", (key) => {
    const bytes = Buffer.from(npyInt8([1, 6], data));
    const text = bytes.toString('latin1');
    const extra = key === 'descr' ? "'descr': '<f4', " : "'shape': (6, 1), ";
    // Same header length: the extra entry takes the place of padding.
    const patched = text.replace('{', `{${extra}`).replace(' '.repeat(extra.length) + '\n', '\n');
    expect(patched.length).toBe(text.length);
    expect(() => parseNpy(Buffer.from(patched, 'latin1'), spec, 'x.npy')).toThrow(`x.npy: malformed .npy header: '${key}' is given more than once`);
  });
});
