/* Which originals the console can show beside their text. */

/** Picture formats every browser shows; TIFF and HEIC are read by Quarry but not shown by browsers. */
const SHOWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);

export type OriginalKind = 'pdf' | 'image' | 'unshown-image';

/** How the original of a file can be shown, from its content type; null when it has no pages to show. */
export function originalKind(contentType: string | undefined): OriginalKind | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/pdf') return 'pdf';
  if (SHOWN_IMAGES.has(type)) return 'image';
  if (type.startsWith('image/')) return 'unshown-image';
  return null;
}
