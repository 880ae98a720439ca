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

/** The cloud OCR provider is usable when its endpoint is configured. */
export function cloudOcrConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.QUARRY_OCR_CLOUD_URL && env.QUARRY_OCR_CLOUD_URL.trim() !== '');
}
