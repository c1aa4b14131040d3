// The image pipeline for logos and profile pictures: accept JPEG and PNG by their bytes, refuse decompression
// bombs, orient by EXIF, drop every piece of metadata, fit 450×600 and re-encode (docs/product.md#images).
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '@rotunda/rules';
import { invalidArgument } from '@rotunda/service-kit';
import sharp, { type Metadata, type OutputInfo } from 'sharp';

export interface ProcessedImage {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  extension: 'jpg' | 'png';
  width: number;
  height: number;
}

/**
 * The most pixels an upload may have before decoding: 40 megapixels covers any phone or camera photo a member
 * picks, while a crafted header claiming more (a few bytes that decode to gigabytes) is refused unread.
 */
export const MAX_INPUT_PIXELS = 40_000_000;

interface Format {
  sharpFormat: 'jpeg' | 'png';
  contentType: ProcessedImage['contentType'];
  extension: ProcessedImage['extension'];
  magic: readonly number[];
}

const FORMATS: readonly Format[] = [
  { sharpFormat: 'jpeg', contentType: 'image/jpeg', extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
  {
    sharpFormat: 'png',
    contentType: 'image/png',
    extension: 'png',
    magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  },
];

// The bytes decide, never the file name or the declared type: a renamed GIF or an SVG with a .jpg name stops here.
function sniff(bytes: Buffer): Format | undefined {
  return FORMATS.find((format) => format.magic.every((byte, index) => bytes[index] === byte));
}

const incorrectFormat = () => invalidArgument(IMAGE_MESSAGES.incorrectFormat);
const tooLarge = () => invalidArgument(IMAGE_MESSAGES.tooLarge);

/** sharp says this when limitInputPixels stops a decode. */
const PIXEL_LIMIT = /pixel limit/i;

/**
 * Validates and normalizes an uploaded logo or profile picture. Refusals are DomainError invalid_argument with
 * the spec's texts: IMAGE_MESSAGES.incorrectFormat (not JPEG/PNG by content, corrupt or truncated) and
 * IMAGE_MESSAGES.tooLarge (too many pixels, or the re-encoded result over IMAGE_LIMITS.maxBytes).
 */
export async function processImage(input: Buffer | Uint8Array): Promise<ProcessedImage> {
  const bytes = Buffer.isBuffer(input)
    ? input
    : Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  const format = sniff(bytes);
  if (!format) throw incorrectFormat();

  // The header alone gives the dimensions: a bomb is refused before a single pixel is decoded.
  let header: Metadata;
  try {
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw incorrectFormat();
  }
  if (header.format !== format.sharpFormat || !header.width || !header.height) throw incorrectFormat();
  if (header.width * header.height > MAX_INPUT_PIXELS) throw tooLarge();

  let result: { data: Buffer; info: OutputInfo };
  try {
    // limitInputPixels again, in case the decoder meets dimensions the header did not state. failOn 'error'
    // refuses truncated and corrupt data but tolerates the harmless warnings real cameras' files raise.
    const pipeline = sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate().resize({
      width: IMAGE_LIMITS.maxWidth,
      height: IMAGE_LIMITS.maxHeight,
      fit: 'inside',
      withoutEnlargement: true,
    });
    // No withMetadata/keepExif: sharp writes no EXIF (GPS, camera, orientation), XMP, IPTC or ICC profile.
    // PNG is lossless, so the quality setting has nothing to act on there (as with the browser's canvas);
    // it is compressed as hard as zlib goes, and keeps its alpha channel.
    const encoded =
      format.sharpFormat === 'jpeg'
        ? pipeline.jpeg({ quality: Math.round(IMAGE_LIMITS.quality * 100), mozjpeg: true })
        : pipeline.png({ compressionLevel: 9, adaptiveFiltering: true });
    result = await encoded.toBuffer({ resolveWithObject: true });
  } catch (error) {
    if (error instanceof Error && PIXEL_LIMIT.test(error.message)) throw tooLarge();
    throw incorrectFormat();
  }
  if (result.data.length > IMAGE_LIMITS.maxBytes) throw tooLarge();
  return {
    data: result.data,
    contentType: format.contentType,
    extension: format.extension,
    width: result.info.width,
    height: result.info.height,
  };
}
