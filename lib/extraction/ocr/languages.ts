/**
 * The languages `options.language` accepts and the Tesseract data (traineddata) each is read
 * with. Three kinds of code name the same readings:
 *
 * - the contract's codes `zh`, `en`, `ja`, `ko`, unchanged;
 * - further ISO 639-1 codes (`ar`, `he`) and the BCP 47 script forms `zh-Hans` / `zh-Hant`;
 * - Tesseract's own data names (`chi_sim`, `jpn_vert`, …), for whoever knows the packs.
 *
 * The table holds the packs CI installs (apt tesseract-ocr-eng, -chi-sim, -chi-tra, -jpn, -kor,
 * their -vert packs, -ara, -heb); a language is one entry more. A code whose data is not installed
 * is accepted by the API and fails at extraction with OCR_FAILED naming what is installed, since
 * only the extraction worker knows which engine (and so which data) will read the page.
 */
import { ExtractionError, OCR_LANGUAGES } from '../types';

export interface OcrLanguageSpec {
  /** What the code reads, for messages and the OpenAPI description. */
  name: string;
  /** Packs read together, primary first; the primary must be installed, the others are used when they are. */
  packs: readonly string[];
  /** Models for text set top to bottom in columns, used together when installed. */
  vertical: readonly string[];
  /** A *_vert pack asked for by name: read as vertical columns first, and that pack is the one required. */
  verticalFirst?: boolean;
}

const CHINESE_VERTICAL = ['chi_sim_vert', 'chi_tra_vert'];

// zh reads with chi_tra too when it is installed (apt tesseract-ocr-chi-tra): chi_sim alone turns
// Traditional characters into their simplified look-alikes (繁體 → 繁体).

const zh: OcrLanguageSpec = { name: 'Chinese (Simplified, and Traditional when installed)', packs: ['chi_sim', 'chi_tra', 'eng'], vertical: CHINESE_VERTICAL };
const en: OcrLanguageSpec = { name: 'English', packs: ['eng'], vertical: [] };
const ja: OcrLanguageSpec = { name: 'Japanese', packs: ['jpn', 'eng'], vertical: ['jpn_vert'] };
const ko: OcrLanguageSpec = { name: 'Korean', packs: ['kor', 'eng'], vertical: [] };
const ar: OcrLanguageSpec = { name: 'Arabic', packs: ['ara', 'eng'], vertical: [] };
const he: OcrLanguageSpec = { name: 'Hebrew', packs: ['heb', 'eng'], vertical: [] };
const hans: OcrLanguageSpec = { name: 'Simplified Chinese', packs: ['chi_sim', 'eng'], vertical: ['chi_sim_vert'] };
const hant: OcrLanguageSpec = { name: 'Traditional Chinese', packs: ['chi_tra', 'eng'], vertical: ['chi_tra_vert'] };

const vertical = (name: string, packs: string[], pack: string): OcrLanguageSpec => ({ name: `${name}, vertical`, packs, vertical: [pack], verticalFirst: true });

/** Every accepted code, the contract's first (each is read with English too, as `en` is). */
const SPECS = {
  zh,
  en,
  ja,
  ko,
  ar,
  he,
  'zh-Hans': hans,
  'zh-Hant': hant,
  eng: en,
  chi_sim: hans,
  chi_tra: hant,
  jpn: ja,
  kor: ko,
  ara: ar,
  heb: he,
  jpn_vert: vertical('Japanese', ['jpn', 'eng'], 'jpn_vert'),
  chi_sim_vert: vertical('Simplified Chinese', ['chi_sim', 'eng'], 'chi_sim_vert'),
  chi_tra_vert: vertical('Traditional Chinese', ['chi_tra', 'eng'], 'chi_tra_vert'),
} satisfies Record<(typeof OCR_LANGUAGES)[number], OcrLanguageSpec> & Record<string, OcrLanguageSpec>;

export type OcrLanguageCode = keyof typeof SPECS;

export const OCR_LANGUAGE_CODES = Object.keys(SPECS) as [OcrLanguageCode, ...OcrLanguageCode[]];

/** The short codes (contract, ISO 639-1, BCP 47) without the Tesseract data names, for messages. */
export const OCR_LANGUAGE_SHORT_CODES = OCR_LANGUAGE_CODES.filter((code) => !/_|^[a-z]{3}$/.test(code));

export function isOcrLanguageCode(code: unknown): code is OcrLanguageCode {
  return typeof code === 'string' && Object.hasOwn(SPECS, code);
}

/** The spec of a code, English when none was given; OCR_FAILED for a code the API would have refused. */
export function languageSpec(code: string | undefined): OcrLanguageSpec {
  if (code === undefined) return en;
  if (!isOcrLanguageCode(code)) throw new ExtractionError('OCR_FAILED', `Unknown OCR language "${code}"; known: ${OCR_LANGUAGE_CODES.join(', ')}`);
  return SPECS[code];
}

/** The pack a code cannot be read without. */
export function requiredPack(spec: OcrLanguageSpec): string {
  return spec.verticalFirst ? spec.vertical[0] : spec.packs[0];
}

/** Tesseract languages for an API language (primary first); English when none was given. */
export function tesseractLanguages(code: string | undefined): string[] {
  return [...languageSpec(code).packs];
}

/** OSD script names (tesseract --psm 0) to the languages that read them. */
export const SCRIPT_LANGUAGES: Record<string, string[]> = {
  Han: ['chi_sim', 'chi_tra', 'eng'],
  HanS: ['chi_sim', 'eng'],
  HanT: ['chi_tra', 'chi_sim', 'eng'],
  Japanese: ['jpn', 'eng'],
  Hiragana: ['jpn', 'eng'],
  Katakana: ['jpn', 'eng'],
  Hangul: ['kor', 'eng'],
  Korean: ['kor', 'eng'],
  // Right-to-left: tesseract gives these lines in logical (reading) order, as the Markdown needs.
  Arabic: ['ara', 'eng'],
  Hebrew: ['heb', 'eng'],
};

/** Vertical models per OSD script (apt tesseract-ocr-jpn-vert, -chi-sim-vert, -chi-tra-vert). */
const SCRIPT_VERTICAL: Record<string, string[]> = {
  Han: ['jpn_vert', ...CHINESE_VERTICAL],
  HanS: ['chi_sim_vert'],
  HanT: ['chi_tra_vert'],
  Japanese: ['jpn_vert'],
  Hiragana: ['jpn_vert'],
  Katakana: ['jpn_vert'],
};

/** Vertical-text models for an API language or an OSD script ([] when it is not written vertically). */
export function verticalLanguages(languageOrScript: string | undefined): string[] {
  if (!languageOrScript) return [];
  if (isOcrLanguageCode(languageOrScript)) return [...SPECS[languageOrScript].vertical];
  return [...(SCRIPT_VERTICAL[languageOrScript] ?? [])];
}

/** The codes `have` (an engine's installed data) can read, e.g. "zh, en, ja (chi_sim, chi_tra, eng, jpn, osd)". */
export function installedLanguagesText(have: ReadonlySet<string>): string {
  const codes = OCR_LANGUAGE_SHORT_CODES.filter((code) => have.has(requiredPack(SPECS[code])));
  const data = [...have].sort().join(', ');
  return `${codes.length ? codes.join(', ') : 'none'} (Tesseract data: ${data || 'none'})`;
}
