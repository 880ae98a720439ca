import fs from 'node:fs';
import path from 'node:path';
import { FORMATS, formatOf } from '@/lib/formats/registry';

/** Which stored types extraction reads, from the format registry (the API server uses this without loading any extractor). */
const IMAGE_TYPES = new Set(FORMATS.filter((f) => f.extractor === 'image').map((f) => f.mime));

/** Types read by the Office, e-mail and text extractors (neither PDF, nor images, nor converted by LibreOffice). */
export const OFFICE_TYPES = new Set(FORMATS.filter((f) => !['pdf', 'image', 'libreoffice'].includes(f.extractor)).map((f) => f.mime));

/**
 * Legacy binaries without a maintained pure-JavaScript reader: LibreOffice converts them to
 * OOXML. The Debian package that provides the converter for each is named in the refusal.
 */
export const LIBREOFFICE_TYPES: ReadonlyMap<string, { target: 'xlsx' | 'pptx'; debianPackage: string }> = new Map(
  FORMATS.flatMap((f) => (f.libreoffice ? [[f.mime, f.libreoffice] as const] : [])),
);

/** The LibreOffice program when it is on PATH (looked up each time: it may be installed while the server runs). */
export function findSoffice(env: Record<string, string | undefined> = process.env): string | null {
  for (const dir of (env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, 'soffice');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Why a stored type cannot be extracted on this server (what to install), or null when it can. */
export function extractionRefusal(mimeType: string): string | null {
  const legacy = LIBREOFFICE_TYPES.get(mimeType);
  if (legacy) {
    if (findSoffice()) return null;
    return (
      `Reading ${formatOf(mimeType)?.extensions[0]} files needs LibreOffice, which is not installed on this server: ` +
      `install it (Debian/Ubuntu: apt-get install --no-install-recommends libreoffice-core ${legacy.debianPackage}) or save the file as .${legacy.target}`
    );
  }
  return isExtractable(mimeType) ? null : `Files of type ${mimeType} cannot be extracted`;
}

export function isImageType(mimeType: string): boolean {
  return IMAGE_TYPES.has(mimeType);
}

export function isExtractable(mimeType: string): boolean {
  return mimeType === 'application/pdf' || IMAGE_TYPES.has(mimeType) || OFFICE_TYPES.has(mimeType) || LIBREOFFICE_TYPES.has(mimeType);
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
