// Checks an image the member chose before it is uploaded, for organization logos and profile pictures alike
// (docs/product.md#4-states-and-transitions, #5-validation-rules Image upload): only .jpg, .jpeg and .png,
// and at most IMAGE_LIMITS.maxBytes. A larger photo is first fitted within 450×600 and re-encoded at quality
// 0.8 in the browser, as the spec describes, and refused only if it is still too large. The server checks the
// bytes again and resizes whatever it gets.
import { fitImageSize, hasAllowedImageExtension, IMAGE_LIMITS, IMAGE_MESSAGES } from '@rotunda/rules';

export type ImageCheck = { ok: true; file: Blob; fileName: string } | { ok: false; message: string };

/** The `accept` list of a file input taking these images: '.jpg,.jpeg,.png'. */
export const IMAGE_ACCEPT = IMAGE_LIMITS.allowedExtensions.map((ext) => `.${ext}`).join(',');

export async function prepareImage(file: File): Promise<ImageCheck> {
  if (!hasAllowedImageExtension(file.name)) return { ok: false, message: IMAGE_MESSAGES.incorrectFormat };
  if (file.size <= IMAGE_LIMITS.maxBytes) return { ok: true, file, fileName: file.name };
  const shrunk = await shrink(file);
  if (!shrunk || shrunk.size > IMAGE_LIMITS.maxBytes) return { ok: false, message: IMAGE_MESSAGES.tooLarge };
  return { ok: true, file: shrunk, fileName: file.name.replace(/\.[^.]+$/, '.jpg') };
}

/** The image fitted within the limits as a JPEG, or null where the browser cannot decode or draw it. */
async function shrink(file: File): Promise<Blob | null> {
  if (typeof createImageBitmap !== 'function' || typeof document === 'undefined') return null;
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    const { width, height } = fitImageSize(bitmap.width, bitmap.height);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return null;
    // JPEG has no transparency: a white ground, as the image has on the page.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    return await new Promise<Blob | null>((resolve) =>
      canvas.toBlob(resolve, 'image/jpeg', IMAGE_LIMITS.quality),
    );
  } catch {
    return null;
  }
}
