import { promisify } from 'node:util';
import { deflate } from 'node:zlib';

/**
 * An 8-bit RGBA PNG from raw pixels, compressed by zlib on libuv's pool (`deflate` is asynchronous):
 * the calling thread only copies the rows behind their filter bytes and sums the CRCs, a couple of
 * milliseconds for the 800 × 400 chart. Every row is left unfiltered: the chart is flat colours,
 * which deflate packs well on their own (about 38 KB a year's chart, where resvg's encoder wrote 100 KB).
 */

const deflateAsync = promisify(deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, index) => {
  let value = index;
  for (let bit = 0; bit < 8; bit += 1) value = value & 1 ? 0xedb88320 ^ (value >>> 1) : value >>> 1;
  return value >>> 0;
});

function crc32(...parts: Buffer[]): number {
  let crc = 0xffffffff;
  for (const part of parts) for (const byte of part) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, tail]);
}

export async function encodePng(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  if (rgba.length !== stride * height) throw new RangeError(`chart: ${rgba.length} bytes of pixels for ${width} × ${height}`);
  const rows = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y += 1) rgba.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  // Bit depth 8, colour type 6 (RGBA), default compression and filtering, no interlace.
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', await deflateAsync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
