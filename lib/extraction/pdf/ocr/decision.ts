/**
 * Whether a page needs OCR, decided from its text layer: how many characters it has, how many of
 * them are garbage (replacement, control, private-use characters), and, for pages with little or
 * no text, what images the page paints (a scan, or a blank page).
 */
import type { ExtractionMode } from '@/lib/extraction/types';
import type { PageGraphics } from '../read/graphics';
import type { Frame } from '../read/runs';
import { garbageCount } from '../read/text';
import { GARBAGE_SHARE, MIN_TEXT_CHARS, SCAN_IMAGE_AREA, SCAN_TEXT_CHARS } from '../settings';

export interface TextLayerStats {
  chars: number;
  garbage: number;
}

export function textLayerStats(frames: Frame[]): TextLayerStats {
  let chars = 0;
  let garbage = 0;
  for (const f of frames) {
    chars += f.chars;
    for (const r of f.runs) if (!r.space) garbage += garbageCount(r.text);
  }
  return { chars, garbage };
}

/** Usable: some real text, and not mostly replacement/control/private-use characters. */
export function textLayerUsable(stats: TextLayerStats): boolean {
  return stats.chars - stats.garbage >= MIN_TEXT_CHARS && stats.garbage <= GARBAGE_SHARE * stats.chars;
}

/**
 * Whether a page whose text layer has `stats` needs OCR in `mode` (OCR available): always in
 * advanced mode; in normal mode when the text layer is unusable (mostly garbage, or no text while
 * the page paints an image: a blank page, or one with only vector art, is left alone), or when a
 * page with little text is mostly one image (a scan with a stamped page number). `images` is
 * asked only for pages with little or no text; the answer is a promise only then.
 */
export function needsOcr(
  mode: ExtractionMode,
  stats: TextLayerStats,
  usable: boolean,
  /** What images the page paints (to tell scans from blank pages), null when unknown. */
  images: () => Promise<PageGraphics | null>,
): boolean | Promise<boolean> {
  if (mode === 'advanced') return true;
  if (!usable) {
    // Garbage text → OCR; no text at all → OCR only when the page paints an image.
    const mostlyGarbage = stats.chars >= MIN_TEXT_CHARS && stats.garbage > GARBAGE_SHARE * stats.chars;
    if (mostlyGarbage) return true;
    return images().then((g) => g?.images !== 0);
  }
  if (stats.chars < SCAN_TEXT_CHARS) return images().then((g) => !!g && g.largestImage >= SCAN_IMAGE_AREA);
  return false;
}
