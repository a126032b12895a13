import { inflateSync } from 'node:zlib';

/** A decoded PNG: 8-bit RGBA pixels, row by row. */
export interface Picture {
  width: number;
  height: number;
  rgba: Uint8Array;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Reads the 8-bit RGB or RGBA PNGs resvg writes (no palette, no interlace): enough to look at the chart's pixels. */
export function readPng(png: Buffer): Picture {
  if (!png.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colour, , , interlace] = [body[8], body[9], body[10], body[11], body[12]];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour ${colour}`);
      channels = colour === 6 ? 4 : 3;
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)]!;
    for (let x = 0; x < stride; x += 1) {
      const value = raw[y * (stride + 1) + 1 + x]!;
      const left = x >= channels ? pixels[y * stride + x - channels]! : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? pixels[(y - 1) * stride + x - channels]! : 0;
      let predictor = 0;
      if (filter === 1) predictor = left;
      else if (filter === 2) predictor = up;
      else if (filter === 3) predictor = (left + up) >> 1;
      else if (filter === 4) {
        const estimate = left + up - upLeft;
        const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
        predictor = a <= b && a <= c ? left : b <= c ? up : upLeft;
      }
      pixels[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let index = 0; index < width * height; index += 1) {
    for (let channel = 0; channel < 3; channel += 1) rgba[index * 4 + channel] = pixels[index * channels + channel]!;
    rgba[index * 4 + 3] = channels === 4 ? pixels[index * channels + 3]! : 255;
  }
  return { width, height, rgba };
}

/** How dark each pixel of a box is (0 white … 255 black), row by row: the ink of what is drawn there. */
export function inkIn(picture: Picture, box: { x: number; y: number; width: number; height: number }): number[] {
  const ink: number[] = [];
  for (let y = box.y; y < box.y + box.height; y += 1) {
    for (let x = box.x; x < box.x + box.width; x += 1) {
      const at = (y * picture.width + x) * 4;
      const grey = (picture.rgba[at]! + picture.rgba[at + 1]! + picture.rgba[at + 2]!) / 3;
      ink.push(Math.round(255 - grey));
    }
  }
  return ink;
}

export const totalInk = (ink: number[]) => ink.reduce((sum, value) => sum + value, 0);

/** How many pixels of two boxes of ink differ visibly. */
export function differingPixels(a: number[], b: number[]): number {
  return a.reduce((count, value, index) => count + (Math.abs(value - b[index]!) > 40 ? 1 : 0), 0);
}
