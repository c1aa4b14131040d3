// processImage on real images made with sharp: orientation, metadata stripping, fitting, transparency, and
// every refusal (other formats by content, decompression bombs by header, corrupt data) with the spec's texts.
import { crc32, deflateSync } from 'node:zlib';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '@rotunda/rules';
import { DomainError } from '@rotunda/service-kit';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MAX_INPUT_PIXELS, processImage } from '../src/process.ts';

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

/** A 4000×3000 photo, left half red and right half blue, that asks viewers to turn it 90° clockwise. */
async function cameraPhoto(): Promise<Buffer> {
  const redHalf = await sharp({ create: { width: 2000, height: 3000, channels: 3, background: RED } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: BLUE } })
    .composite([{ input: redHalf, left: 0, top: 0 }])
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: 'RotundaCam', Model: 'Test 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '38/1 34/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '121/1 29/1 0/1',
      },
    })
    .toBuffer();
}

/** True when the TIFF structure of an EXIF block links a GPS directory (tag 0x8825) from its first directory. */
function hasGpsDirectory(exif: Buffer): boolean {
  const tiff = exif.indexOf('Exif\0\0') === 0 ? exif.subarray(6) : exif;
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd0 = u32(4);
  for (let entry = 0; entry < u16(ifd0); entry += 1) if (u16(ifd0 + 2 + entry * 12) === 0x8825) return true;
  return false;
}

/** Random pixels: they compress badly, which is what makes encoder settings and truncation visible. */
function noise(width: number, height: number, sigma: number) {
  return sharp({
    create: {
      width,
      height,
      channels: 3,
      background: 'black',
      noise: { type: 'gaussian', mean: 128, sigma },
    },
  });
}

async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0] ?? 0, g: data[1] ?? 0, b: data[2] ?? 0, a: info.channels === 4 ? data[3] : undefined };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A few hundred bytes of valid PNG whose header claims 100000×100000 RGBA: 40 GB once decoded. */
function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(100_001))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real small JPEG whose frame header (SOF0) is rewritten to claim 60000×60000. */
async function jpegBomb(): Promise<Buffer> {
  const jpeg = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: RED } })
      .jpeg({ mozjpeg: false })
      .toBuffer(),
  );
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  expect(sof).toBeGreaterThan(0);
  jpeg.writeUInt16BE(60_000, sof + 5); // height
  jpeg.writeUInt16BE(60_000, sof + 7); // width
  return jpeg;
}

async function refusal(input: Buffer | Uint8Array): Promise<DomainError> {
  const error = await processImage(input).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  const domainError = error as DomainError;
  expect(domainError.kind).toBe('invalid_argument');
  return domainError;
}

describe('processImage', () => {
  it('turns a camera photo by its EXIF orientation, fits it in 450×600 and drops EXIF and GPS', async () => {
    const photo = await cameraPhoto();
    const before = await sharp(photo).metadata();
    // The fixture really carries what must go.
    expect([before.width, before.height, before.orientation]).toEqual([4000, 3000, 6]);
    expect(before.exif && hasGpsDirectory(before.exif)).toBe(true);
    expect(photo.includes('RotundaCam')).toBe(true);

    const result = await processImage(photo);
    expect(result).toMatchObject({ contentType: 'image/jpeg', extension: 'jpg', width: 450, height: 600 });
    const after = await sharp(result.data).metadata();
    expect(after).toMatchObject({ format: 'jpeg', width: 450, height: 600 });
    expect(after.exif).toBeUndefined();
    expect(after.orientation).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(after.iptc).toBeUndefined();
    expect(result.data.includes('RotundaCam')).toBe(false);
    expect(result.data.includes('Exif')).toBe(false);
    // Turned clockwise, the red left half is now on top.
    const top = await pixel(result.data, 225, 100);
    const bottom = await pixel(result.data, 225, 500);
    expect(top.r).toBeGreaterThan(150);
    expect(top.b).toBeLessThan(100);
    expect(bottom.b).toBeGreaterThan(150);
    expect(bottom.r).toBeLessThan(100);
    expect(result.data.length).toBeLessThanOrEqual(IMAGE_LIMITS.maxBytes);
  });

  it('re-encodes JPEG at quality 80', async () => {
    const original = await noise(400, 300, 40).jpeg({ quality: 100 }).toBuffer();
    const result = await processImage(original);
    const q80 = await sharp(original).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    expect(result.data.length).toBe(q80.length);
    expect(result.data.length).toBeLessThan(original.length / 2);
  });

  it('keeps a PNG a PNG, transparency included', async () => {
    const logo = await sharp({
      create: { width: 900, height: 900, channels: 4, background: { r: 10, g: 120, b: 60, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const result = await processImage(logo);
    expect(result).toMatchObject({ contentType: 'image/png', extension: 'png', width: 450, height: 450 });
    const after = await sharp(result.data).metadata();
    expect(after.format).toBe('png');
    expect(after.hasAlpha).toBe(true);
    const { a } = await pixel(result.data, 10, 10);
    expect(a).toBeGreaterThan(100);
    expect(a).toBeLessThan(156);
  });

  it('never enlarges a small image', async () => {
    const tiny = await sharp({ create: { width: 20, height: 10, channels: 3, background: RED } })
      .png()
      .toBuffer();
    const result = await processImage(new Uint8Array(tiny));
    expect([result.width, result.height]).toEqual([20, 10]);
    const after = await sharp(result.data).metadata();
    expect([after.width, after.height]).toEqual([20, 10]);
  });

  it('fits a wide image by its width', async () => {
    const wide = await sharp({ create: { width: 1800, height: 600, channels: 3, background: BLUE } })
      .jpeg()
      .toBuffer();
    const result = await processImage(wide);
    expect([result.width, result.height]).toEqual([450, 150]);
  });

  it('refuses other formats by their bytes, whatever the file is called', async () => {
    const square = { create: { width: 8, height: 8, channels: 3 as const, background: RED } };
    const samples: Record<string, Buffer> = {
      gif: await sharp(square).gif().toBuffer(),
      webp: await sharp(square).webp().toBuffer(),
      tiff: await sharp(square).tiff().toBuffer(),
      svg: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
      ),
      heic: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic')]),
      text: Buffer.from('just some text saved as photo.jpg'),
      empty: Buffer.alloc(0),
      // Magic bytes alone are not enough: what follows must be the format too.
      jpegMagicOnly: Buffer.concat([
        Buffer.from([0xff, 0xd8, 0xff]),
        Buffer.from('not really a jpeg at all'),
      ]),
      pngMagicOnly: Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from('garbage after the signature'),
      ]),
    };
    for (const [name, bytes] of Object.entries(samples)) {
      const error = await refusal(bytes);
      expect(error.message, name).toBe(IMAGE_MESSAGES.incorrectFormat);
    }
  });

  it('refuses a truncated JPEG and a truncated PNG', async () => {
    const photo = await noise(600, 400, 30).jpeg().toBuffer();
    expect((await refusal(photo.subarray(0, Math.floor(photo.length / 2)))).message).toBe(
      IMAGE_MESSAGES.incorrectFormat,
    );
    const png = await noise(600, 400, 30).png().toBuffer();
    expect((await refusal(png.subarray(0, Math.floor(png.length / 2)))).message).toBe(
      IMAGE_MESSAGES.incorrectFormat,
    );
  });

  it('refuses decompression bombs from their header, before decoding', async () => {
    for (const bomb of [pngBomb(), await jpegBomb()]) {
      const started = performance.now();
      const error = await refusal(bomb);
      expect(error.message).toBe(IMAGE_MESSAGES.tooLarge);
      // Decoding 10 gigapixels would take minutes and gigabytes; reading a header takes milliseconds.
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it('refuses a real image just over the pixel cap, and accepts one at it', async () => {
    // Solid colour compresses to a few kilobytes however many pixels it has.
    const side = Math.floor(Math.sqrt(MAX_INPUT_PIXELS));
    const over = await sharp({ create: { width: side + 1, height: side + 1, channels: 3, background: RED } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect((await refusal(over)).message).toBe(IMAGE_MESSAGES.tooLarge);
    const at = await sharp({ create: { width: side, height: side, channels: 3, background: RED } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    const result = await processImage(at);
    expect([result.width, result.height]).toEqual([450, 450]);
  });
});
