/**
 * What a line's text says it is, whatever its font: a section number at its start ("2", "1.2",
 * "A.", "IV.", "Chapter 3") or a figure/table caption. Block building (a numbered title stands on
 * a line of its own, a caption is a paragraph of its own), borderless tables (a caption ends a
 * table's header lines) and heading planning (model/headings.ts) all ask.
 */
import { isSpaceCode } from '@/lib/text/classes';
import type { Block } from './blocks';

type TextBlock = Extract<Block, { kind: 'text' }>;

export interface SectionNumber {
  kind: 'decimal' | 'letter' | 'roman' | 'word';
  /** Components of the number: "1.2.3" → ["1", "2", "3"]. */
  parts: string[];
}

const DECIMAL = /^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+(?=[\p{L}(“"'])/u;
const LETTER = /^([A-H](?:\.\d{1,2}){0,3})(?:[.)]\s+|\s+(?=\p{Lu}))(?=[\p{L}(“"'])/u;
const ROMAN = /^([IVX]{1,5})[.)]\s+(?=\p{L})/u;
const WORD = /^(?:chapter|section|part|appendix|annex|article|kapitel|chapitre|abschnitt)\s+(\d{1,3}|[IVXLC]{1,6}|[A-Z])\b[.:]?/i;

/** The characters a section number can start with (WORD ignores case). */
const NUMBER_START = /[0-9A-HIVXcspakCSPAK]/;

/** Whether a block's text (spaces aside) starts with a character a section number can start with: cheaper than `sectionNumber` for the blocks that cannot be numbered. */
export function mayStartSectionNumber(b: TextBlock): boolean {
  for (const span of b.spans) {
    for (const ch of span.text) if (!isSpaceCode(ch.codePointAt(0)!)) return NUMBER_START.test(ch);
  }
  return false;
}

/** The section number a heading text starts with, if any. */
export function sectionNumber(text: string): SectionNumber | null {
  const t = text.trim();
  let m = WORD.exec(t);
  if (m) return { kind: 'word', parts: [m[1]] };
  m = DECIMAL.exec(t);
  if (m) return { kind: 'decimal', parts: m[1].split('.') };
  m = ROMAN.exec(t);
  if (m) return { kind: 'roman', parts: [m[1]] };
  m = LETTER.exec(t);
  if (m) return { kind: 'letter', parts: m[1].split('.') };
  return null;
}

/** Figure and table captions, notes and sources: never headings, however they are set. */
const CAPTION = /^(?:fig(?:ure)?\.?|table|tab\.|listing|algorithm|chart|scheme|plate|source|note|abbildung|tabelle|tableau)s?\s*(?:\d{1,3}|[IVX]{1,5}|[A-Z])(?:[.\-–]\d{1,3})*\s*[.:|—–-]/i;

export function isCaption(text: string): boolean {
  return CAPTION.test(text.trim());
}
