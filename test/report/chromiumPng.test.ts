/**
 * The PNG reader the screenshot test relies on, checked on images encoded here with every
 * scanline filter: a wrong predictor shows up as wrong pixels from the first filtered row on.
 */
import * as zlib from 'zlib';
import { decodePng, pixelAt } from './png';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function paethPredictor(a: number, b: number, c: number): number {
  const p = a + b - c;
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Encodes `pixels` (row-major, `channels` bytes each) using filter `filterOf(row)` per row. */
function encodePng(width: number, height: number, channels: 3 | 4, pixels: Uint8Array, filterOf: (row: number) => number, colorType?: number, bitDepth = 8): Buffer {
  const stride = width * channels;
  const raw = Buffer.alloc(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    const f = filterOf(y);
    raw[y * (stride + 1)] = f;
    for (let i = 0; i < stride; i++) {
      const cur = pixels[y * stride + i];
      const a = i >= channels ? pixels[y * stride + i - channels] : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? pixels[(y - 1) * stride + i - channels] : 0;
      const pred = [0, a, b, (a + b) >> 1, paethPredictor(a, b, c)][f];
      raw[y * (stride + 1) + 1 + i] = (cur - pred) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colorType ?? (channels === 4 ? 6 : 2);
  const compressed = zlib.deflateSync(raw);
  // Split the data over two IDAT chunks: the reader must concatenate them.
  const cut = compressed.length >> 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', compressed.subarray(0, cut)),
    chunk('IDAT', compressed.subarray(cut)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Deterministic pixels with gradients and jumps, so every predictor has work to do. */
function testPixels(width: number, height: number, channels: number): Uint8Array {
  const px = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) px[(y * width + x) * channels + c] = (x * 37 + y * 91 + c * 53 + ((x * y) % 7) * 29) & 0xff;
    }
  }
  return px;
}

describe('PNG reader', () => {
  for (const channels of [3, 4] as const) {
    for (const filter of [0, 1, 2, 3, 4]) {
      it(`decodes ${channels === 4 ? 'RGBA' : 'RGB'} rows written with filter ${filter}`, () => {
        const [w, h] = [9, 6];
        const px = testPixels(w, h, channels);
        const img = decodePng(encodePng(w, h, channels, px, () => filter));
        expect([img.width, img.height]).toEqual([w, h]);
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            const want = Array.from(px.subarray((y * w + x) * channels, (y * w + x + 1) * channels));
            expect(pixelAt(img, x, y).slice(0, channels)).toEqual(want);
            if (channels === 3) expect(pixelAt(img, x, y)[3]).toBe(255);
          }
        }
      });
    }
  }

  it('decodes rows whose filters differ from row to row', () => {
    const [w, h] = [7, 10];
    const px = testPixels(w, h, 4);
    const img = decodePng(encodePng(w, h, 4, px, (y) => (y * 3) % 5));
    expect(Array.from(img.data)).toEqual(Array.from(px));
  });

  it('breaks Paeth ties as the PNG spec does (a, then b, then c)', () => {
    // Few distinct values make ties between the three predictors frequent.
    const [w, h] = [16, 16];
    const px = new Uint8Array(w * h * 3);
    let seed = 12345;
    for (let i = 0; i < px.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      px[i] = (seed >>> 16) % 4;
    }
    const img = decodePng(encodePng(w, h, 3, px, () => 4));
    const rgb = Array.from(img.data).filter((_, i) => i % 4 !== 3);
    expect(rgb).toEqual(Array.from(px));
  });

  it('rejects what it cannot read, saying why', () => {
    expect(() => decodePng(Buffer.from('GIF89a not a png'), 'x.gif')).toThrow('x.gif: not a PNG file');
    const grey = encodePng(2, 2, 3, testPixels(2, 2, 3), () => 0, 0);
    expect(() => decodePng(grey, 'g.png')).toThrow(/only 8-bit RGB\/RGBA.*colour type 0/);
    const deep = encodePng(2, 2, 3, testPixels(2, 2, 3), () => 0, 2, 16);
    expect(() => decodePng(deep, 'd.png')).toThrow(/bit depth 16/);
    const badFilter = encodePng(2, 2, 3, testPixels(2, 2, 3), () => 0);
    // Corrupt the filter byte of row 1 by re-encoding with filter 5 (not a PNG filter).
    const raw = Buffer.alloc(2 * 7);
    raw[7] = 5;
    const bad = Buffer.concat([badFilter.subarray(0, 33), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
    expect(() => decodePng(bad, 'f.png')).toThrow('f.png: row 1 has unknown filter type 5');
  });
});
