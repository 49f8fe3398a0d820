/** A .npy file of one int8 array (format version `major`.0, C order), as NumPy writes it. */
export function npyInt8(shape: readonly number[], data: Int8Array, major = 1): Buffer {
  const lengthBytes = major === 1 ? 2 : 4;
  let header = `{'descr': '|i1', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  while ((8 + lengthBytes + header.length + 1) % 64 !== 0) header += ' ';
  header += '\n';
  const head = Buffer.alloc(8 + lengthBytes);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = major;
  head[7] = 0;
  if (major === 1) head.writeUInt16LE(header.length, 8);
  else head.writeUInt32LE(header.length, 8);
  return Buffer.concat([head, Buffer.from(header, 'latin1'), Buffer.from(data.buffer, data.byteOffset, data.byteLength)]);
}
