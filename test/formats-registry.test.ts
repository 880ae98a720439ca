import { describe, expect, it } from 'vitest';
import { EXTRACTORS } from '@/lib/extraction/extractors';
import { isExtractable, LIBREOFFICE_TYPES, OFFICE_TYPES } from '@/lib/extraction/formats';
import { FILE_TYPES, listFileTypes } from '@/lib/files/types';
import { EXTRACTOR_NAMES, FORMATS, formatOf } from '@/lib/formats/registry';

describe('the format registry', () => {
  it('has one row per MIME type and each extension once', () => {
    expect(new Set(FORMATS.map((f) => f.mime)).size).toBe(FORMATS.length);
    const extensions = FORMATS.flatMap((f) => f.extensions);
    expect(new Set(extensions).size).toBe(extensions.length);
    for (const ext of extensions) expect(ext).toMatch(/^\.[a-z0-9]+$/);
  });

  it('gives every row a reader: PDF and images by the engine with OCR, the others by name', () => {
    for (const f of FORMATS) {
      if (f.extractor === 'pdf' || f.extractor === 'image') continue;
      expect(typeof EXTRACTORS[f.extractor], f.mime).toBe('function');
    }
    expect(Object.keys(EXTRACTORS).sort()).toEqual(EXTRACTOR_NAMES.filter((n) => n !== 'pdf' && n !== 'image').sort());
  });

  it('is what uploads, extraction and GET /v1/files/types derive their lists from', () => {
    expect(FILE_TYPES.map((t) => t.extension)).toEqual(FORMATS.flatMap((f) => f.extensions));
    expect(listFileTypes()).toContainEqual({ extension: '.jpeg', mime_type: 'image/jpeg', description: 'JPEG image', max_size_mb: 20 });
    for (const t of FILE_TYPES) {
      expect(isExtractable(t.mime_type), t.extension).toBe(true);
      expect(formatOf(t.mime_type)?.extensions).toContain(t.extension);
    }
    expect([...LIBREOFFICE_TYPES.keys()].sort()).toEqual(['application/vnd.ms-excel', 'application/vnd.ms-powerpoint']);
    expect(OFFICE_TYPES.has('text/markdown')).toBe(true);
    expect(OFFICE_TYPES.has('application/pdf') || OFFICE_TYPES.has('image/png') || OFFICE_TYPES.has('application/vnd.ms-excel')).toBe(false);
    expect(isExtractable('application/x-unknown')).toBe(false);
  });
});
