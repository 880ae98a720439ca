/** Which stored types extraction reads, without loading any extractor (the API server uses this). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp']);

export const OFFICE_TYPES = new Set([
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'text/csv',
  'text/html',
  'text/plain',
  'text/markdown',
]);

export function isImageType(mimeType: string): boolean {
  return IMAGE_TYPES.has(mimeType);
}

export function isExtractable(mimeType: string): boolean {
  return mimeType === 'application/pdf' || IMAGE_TYPES.has(mimeType) || OFFICE_TYPES.has(mimeType);
}

/**
 * The cloud OCR provider is usable when QUARRY_OCR_CLOUD_URL is an http(s) URL. (The OCR client in
 * ocr/cloud.ts applies the same rule; this copy keeps the API server from loading OCR code.)
 */
export function cloudOcrConfigured(env: Record<string, string | undefined> = process.env): boolean {
  const raw = env.QUARRY_OCR_CLOUD_URL?.trim();
  if (!raw) return false;
  try {
    const { protocol } = new URL(raw);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
