import { inflateSync } from 'node:zlib';

const paeth = (left: number, up: number, upLeft: number) => {
  const estimate = left + up - upLeft;
  const [toLeft, toUp, toUpLeft] = [estimate - left, estimate - up, estimate - upLeft].map(Math.abs) as [
    number,
    number,
    number,
  ];
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
};

/**
 * The pixels of an 8-bit greyscale PNG, not interlaced (how the gateway draws QR codes), as the
 * RGBA a QR reader such as jsQR takes. Anything else is refused rather than misread.
 */
export function readGreyPng(png: Buffer): { width: number; height: number; rgba: Uint8ClampedArray } {
  let width = 0;
  let height = 0;
  const compressed: Buffer[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      const [bitDepth, colorType, , , interlace] = data.subarray(8, 13);
      if (bitDepth !== 8 || colorType !== 0 || interlace !== 0) throw new Error('not an 8-bit greyscale PNG');
    } else if (type === 'IDAT') compressed.push(data);
    offset += 12 + length;
  }
  const filtered = inflateSync(Buffer.concat(compressed));
  const grey = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) {
    const filter = filtered[y * (width + 1)];
    for (let x = 0; x < width; x += 1) {
      const left = x > 0 ? grey[y * width + x - 1]! : 0;
      const up = y > 0 ? grey[(y - 1) * width + x]! : 0;
      const upLeft = x > 0 && y > 0 ? grey[(y - 1) * width + x - 1]! : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter!];
      if (predicted === undefined) throw new Error(`unknown PNG filter ${filter}`);
      grey[y * width + x] = (filtered[y * (width + 1) + 1 + x]! + predicted) & 0xff;
    }
  }
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel += 1) {
    const value = grey[pixel]!;
    rgba.set([value, value, value, 255], pixel * 4);
  }
  return { width, height, rgba };
}
