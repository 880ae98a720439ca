import type { DocumentMetadata } from '@/lib/extraction/types';

/**
 * Parses a PDF date ("D:YYYYMMDDHHmmSSOHH'mm'", every part after the year optional) into an ISO
 * 8601 UTC string; returns undefined for anything that is not a real date.
 */
export function parsePdfDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz])|([+-])(\d{2})'?(?:(\d{2})'?)?)?/.exec(value);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = m[2] ? Number(m[2]) : 1;
  const day = m[3] ? Number(m[3]) : 1;
  const hour = m[4] ? Number(m[4]) : 0;
  const minute = m[5] ? Number(m[5]) : 0;
  const second = m[6] ? Number(m[6]) : 0;
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(local);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined; // 31 February
  let offsetMinutes = 0;
  if (m[8]) {
    const oh = Number(m[9]);
    const om = m[10] ? Number(m[10]) : 0;
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[8] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  return new Date(local - offsetMinutes * 60_000).toISOString();
}

function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const cleaned = value.replace(/[\u0000-\u001f\u007f\ufffd]/g, ' ').replace(/\s+/g, ' ').trim();
  return cleaned || undefined;
}

interface XmpLike {
  get(name: string): unknown;
}

/** Title, author and creation date from the Info dictionary, falling back to XMP. */
export function buildMetadata(info: unknown, xmp: XmpLike | null | undefined, totalPages: number): DocumentMetadata {
  const dict = (info && typeof info === 'object' ? info : {}) as Record<string, unknown>;
  const fromXmp = (key: string): unknown => {
    try {
      const v = xmp?.get(key);
      return Array.isArray(v) ? v.join(', ') : v;
    } catch {
      return undefined;
    }
  };
  const metadata: DocumentMetadata = {};
  const title = text(dict.Title) ?? text(fromXmp('dc:title'));
  const author = text(dict.Author) ?? text(fromXmp('dc:creator'));
  const created = parsePdfDate(dict.CreationDate) ?? isoDate(fromXmp('xmp:createdate'));
  if (title) metadata.title = title;
  if (author) metadata.author = author;
  if (created) metadata.created_date = created;
  metadata.total_pages = totalPages;
  return metadata;
}

function isoDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}/.test(value)) return undefined;
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}
