/**
 * A minimal PNG reader for screenshot tests: 8-bit RGB or RGBA, not interlaced, the five
 * scanline filters. Enough for what Chromium writes, small enough to trust without a
 * dependency (and no npm install is allowed here).
 */
import * as zlib from 'zlib';

export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** Row-major, 4 bytes per pixel. */
  readonly data: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface Header {
  readonly width: number;
  readonly height: number;
  readonly channels: 3 | 4;
}

function readHeader(chunk: Buffer, where: string): Header {
  const width = chunk.readUInt32BE(0);
  const height = chunk.readUInt32BE(4);
  const [bitDepth, colorType, compression, filter, interlace] = [chunk[8], chunk[9], chunk[10], chunk[11], chunk[12]];
  if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6)) {
    throw new Error(`${where}: only 8-bit RGB/RGBA PNGs are supported (bit depth ${bitDepth}, colour type ${colorType})`);
  }
  if (compression !== 0 || filter !== 0 || interlace !== 0) {
    throw new Error(`${where}: unsupported compression/filter/interlace ${compression}/${filter}/${interlace}`);
  }
  return { width, height, channels: colorType === 6 ? 4 : 3 };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

/** Undoes the per-scanline filters in place of a fresh buffer (bpp = bytes per pixel). */
function unfilter(raw: Buffer, h: Header, where: string): Uint8Array {
  const bpp = h.channels;
  const stride = h.width * bpp;
  if (raw.length !== h.height * (stride + 1)) {
    throw new Error(`${where}: image data is ${raw.length} bytes, expected ${h.height * (stride + 1)}`);
  }
  const out = new Uint8Array(h.height * stride);
  for (let y = 0; y < h.height; y++) {
    const type = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i];
      const a = i >= bpp ? out[row + i - bpp] : 0;
      const b = y > 0 ? out[prev + i] : 0;
      const c = i >= bpp && y > 0 ? out[prev + i - bpp] : 0;
      let v: number;
      switch (type) {
        case 0: v = x; break;
        case 1: v = x + a; break;
        case 2: v = x + b; break;
        case 3: v = x + ((a + b) >> 1); break;
        case 4: v = x + paeth(a, b, c); break;
        default: throw new Error(`${where}: row ${y} has unknown filter type ${type}`);
      }
      out[row + i] = v & 0xff;
    }
  }
  return out;
}

function toRgba(pixels: Uint8Array, h: Header): Uint8Array {
  if (h.channels === 4) return pixels;
  const out = new Uint8Array(h.width * h.height * 4);
  for (let p = 0, q = 0; p < pixels.length; p += 3, q += 4) {
    out[q] = pixels[p];
    out[q + 1] = pixels[p + 1];
    out[q + 2] = pixels[p + 2];
    out[q + 3] = 255;
  }
  return out;
}

export function decodePng(bytes: Uint8Array, where = '<png>'): RgbaImage {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 8 || SIGNATURE.some((s, i) => buf[i] !== s)) throw new Error(`${where}: not a PNG file`);
  let header: Header | undefined;
  const idat: Buffer[] = [];
  let pos = 8;
  while (pos + 8 <= buf.length) {
    const length = buf.readUInt32BE(pos);
    const type = buf.toString('latin1', pos + 4, pos + 8);
    if (pos + 12 + length > buf.length) throw new Error(`${where}: chunk ${type} at ${pos} runs past the end`);
    const data = buf.subarray(pos + 8, pos + 8 + length);
    if (type === 'IHDR') header = readHeader(data, where);
    else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    pos += 12 + length;
  }
  if (!header) throw new Error(`${where}: no IHDR chunk`);
  if (idat.length === 0) throw new Error(`${where}: no IDAT chunk`);
  const pixels = unfilter(zlib.inflateSync(Buffer.concat(idat)), header, where);
  return { width: header.width, height: header.height, data: toRgba(pixels, header) };
}

export function pixelAt(img: RgbaImage, x: number, y: number): [number, number, number, number] {
  const i = (y * img.width + x) * 4;
  return [img.data[i], img.data[i + 1], img.data[i + 2], img.data[i + 3]];
}
