// Limits and messages for profile pictures and organization logos.

export const IMAGE_LIMITS = {
  allowedExtensions: ['jpg', 'jpeg', 'png'],
  allowedMimeTypes: ['image/jpeg', 'image/png'],
  maxWidth: 450,
  maxHeight: 600,
  /** Re-encoding quality as the browser's canvas takes it (0..1); sharp takes 80. */
  quality: 0.8,
  /** Applies to the re-encoded result. */
  maxBytes: 5242880,
} as const;

// The format message names only .jpg/.jpeg although png is accepted: that is the spec's exact text.
export const IMAGE_MESSAGES = {
  incorrectFormat: 'Incorrect image format. Please select only .jpg or .jpeg.',
  tooLarge: 'Image is too large. Please resize or select a smaller image.',
} as const;

/** True when the file name ends in .jpg, .jpeg or .png (any case). The server checks the bytes as well. */
export function hasAllowedImageExtension(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return false;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return (IMAGE_LIMITS.allowedExtensions as readonly string[]).includes(ext);
}

/** Size that fits within 450x600 keeping the aspect ratio; never enlarges (same as sharp's fit 'inside'). */
export function fitImageSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, IMAGE_LIMITS.maxWidth / width, IMAGE_LIMITS.maxHeight / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}
