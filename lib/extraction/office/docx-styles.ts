import { childElements, firstChild, readXmlPart, type XmlElement } from './xml';
import type { OfficeZip } from './zip';

/*
 * What Word shows for a paragraph's style and numbering, read from word/styles.xml and
 * word/numbering.xml: the heading (outline) level a style gives, following w:basedOn, and the
 * number text ("1.", "2.3", "IV") a numbered paragraph displays.
 */

/**
 * Heading style names: Word writes the English built-in name ("heading 1") whatever the UI
 * language, but other word processors write localized names, and only some of them an outline level.
 */
const HEADING_NAME =
  /^(?:heading|überschrift|titre|titolo|título|encabezado|kop|rubrik|overskrift|otsikko|nagłówek|nadpis|címsor|заголовок|标题|標題|見出し|제목)\s*([1-9])$/i;

/** Longest w:basedOn / numStyleLink chain followed (a loop in a damaged file must end). */
const MAX_CHAIN = 20;

interface NumberingRef {
  numId: string;
  ilvl?: number;
}

interface ParagraphStyle {
  name: string;
  basedOn?: string;
  outlineLevel?: number;
  numbering?: NumberingRef;
}

interface LevelDefinition {
  start: number;
  format: string;
  text: string;
  legal: boolean;
  pStyle?: string;
}

interface AbstractNumbering {
  levels: Map<number, LevelDefinition>;
  numStyleLink?: string;
}

interface NumberingInstance {
  abstractId: string;
  overrides: Map<number, { start?: number; level?: LevelDefinition }>;
}

function int(value: string | undefined): number | undefined {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) ? n : undefined;
}

function numberingRef(numPr: XmlElement | undefined): NumberingRef | undefined {
  const numId = firstChild(numPr, 'numId')?.attrs.val;
  if (numId === undefined) return undefined;
  return { numId, ilvl: int(firstChild(numPr, 'ilvl')?.attrs.val) };
}

/** A WordprocessingML on/off element: present and not val="0"/"false". */
function isOn(el: XmlElement | undefined): boolean {
  return el !== undefined && el.attrs.val !== '0' && el.attrs.val !== 'false';
}

function readLevel(lvl: XmlElement): LevelDefinition {
  return {
    start: int(firstChild(lvl, 'start')?.attrs.val) ?? 0,
    format: firstChild(lvl, 'numFmt')?.attrs.val ?? 'decimal',
    text: firstChild(lvl, 'lvlText')?.attrs.val ?? '',
    legal: isOn(firstChild(lvl, 'isLgl')),
    pStyle: firstChild(lvl, 'pStyle')?.attrs.val,
  };
}

function roman(n: number): string {
  if (n <= 0 || n >= 4000) return String(n);
  const table: [number, string][] = [
    [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'], [90, 'XC'],
    [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
  ];
  let out = '';
  for (const [value, symbol] of table) for (; n >= value; n -= value) out += symbol;
  return out;
}

/** Word's letter numbering: A … Z, then AA … ZZ, AAA … (the letter repeated). */
function letters(n: number): string {
  if (n <= 0) return String(n);
  const letter = String.fromCharCode(65 + ((n - 1) % 26));
  return letter.repeat(Math.min(Math.floor((n - 1) / 26) + 1, 10));
}

function formatNumber(n: number, format: string): string {
  switch (format) {
    case 'upperRoman': return roman(n);
    case 'lowerRoman': return roman(n).toLowerCase();
    case 'upperLetter': return letters(n);
    case 'lowerLetter': return letters(n).toLowerCase();
    case 'decimalZero': return n < 10 && n >= 0 ? `0${n}` : String(n);
    default: return String(n);
  }
}

export class DocxStyles {
  private readonly styles = new Map<string, ParagraphStyle>();
  private readonly headingCache = new Map<string, number>();
  private readonly abstracts = new Map<string, AbstractNumbering>();
  private readonly instances = new Map<string, NumberingInstance>();
  /** Counters per abstract numbering (instances of one definition continue each other's count). */
  private counters = new Map<string, (number | undefined)[]>();
  private startedInstances = new Set<string>();
  readonly defaultStyle?: string;

  constructor(zip: OfficeZip, stylesPart: string | undefined, numberingPart: string | undefined) {
    const styles = stylesPart ? readXmlPart(zip, stylesPart) : undefined;
    let defaultStyle: string | undefined;
    for (const style of styles ? childElements(styles, 'style') : []) {
      if (style.attrs.type !== 'paragraph' || !style.attrs.styleId) continue;
      if (style.attrs.default === '1' || style.attrs.default === 'true') defaultStyle ??= style.attrs.styleId;
      const pPr = firstChild(style, 'pPr');
      this.styles.set(style.attrs.styleId, {
        name: firstChild(style, 'name')?.attrs.val ?? '',
        basedOn: firstChild(style, 'basedOn')?.attrs.val,
        outlineLevel: int(firstChild(pPr, 'outlineLvl')?.attrs.val),
        numbering: numberingRef(firstChild(pPr, 'numPr')),
      });
    }
    this.defaultStyle = defaultStyle;
    const numbering = numberingPart ? readXmlPart(zip, numberingPart) : undefined;
    for (const abs of numbering ? childElements(numbering, 'abstractNum') : []) {
      const levels = new Map<number, LevelDefinition>();
      for (const lvl of childElements(abs, 'lvl')) levels.set(int(lvl.attrs.ilvl) ?? 0, readLevel(lvl));
      this.abstracts.set(abs.attrs.abstractNumId ?? '', { levels, numStyleLink: firstChild(abs, 'numStyleLink')?.attrs.val });
    }
    for (const num of numbering ? childElements(numbering, 'num') : []) {
      const overrides = new Map<number, { start?: number; level?: LevelDefinition }>();
      for (const o of childElements(num, 'lvlOverride')) {
        const lvl = firstChild(o, 'lvl');
        overrides.set(int(o.attrs.ilvl) ?? 0, { start: int(firstChild(o, 'startOverride')?.attrs.val), level: lvl ? readLevel(lvl) : undefined });
      }
      this.instances.set(num.attrs.numId ?? '', { abstractId: firstChild(num, 'abstractNumId')?.attrs.val ?? '', overrides });
    }
  }

  /** Ids of the paragraph styles named "Title" (mammoth makes their paragraphs the # heading). */
  titleStyleIds(): string[] {
    return [...this.styles].filter(([, style]) => style.name === 'Title').map(([id]) => id);
  }

  /** The same definitions with list counters of its own, for parts numbered apart (headers). */
  fork(): DocxStyles {
    const copy = Object.assign(Object.create(DocxStyles.prototype) as DocxStyles, this);
    copy.counters = new Map();
    copy.startedInstances = new Set();
    return copy;
  }

  /**
   * Heading level (1–9) a paragraph style gives, 0 for body text: the style's own outline level
   * (9 = body text), else a heading name or style id, else the style it is based on.
   */
  headingLevel(styleId: string | undefined): number {
    if (styleId === undefined) return 0;
    const cached = this.headingCache.get(styleId);
    if (cached !== undefined) return cached;
    let level = 0;
    let id: string | undefined = styleId;
    for (let depth = 0; id !== undefined && depth < MAX_CHAIN; depth++) {
      // An outline level on the default style would make every paragraph a heading: ignored.
      if (id === this.defaultStyle) break;
      const style = this.styles.get(id);
      const byName = (style?.name.match(HEADING_NAME) ?? id.match(/^heading\s*([1-9])$/i))?.[1];
      if (style?.outlineLevel !== undefined) {
        level = style.outlineLevel >= 0 && style.outlineLevel <= 8 ? style.outlineLevel + 1 : 0;
        break;
      }
      if (byName) {
        level = Number(byName);
        break;
      }
      id = style?.basedOn;
    }
    this.headingCache.set(styleId, level);
    return level;
  }

  /**
   * The numbering a paragraph style gives: its own or inherited w:numPr, else a list level that
   * names the style (w:lvl/w:pStyle), as older documents link heading styles to outline lists.
   */
  styleNumbering(styleId: string | undefined): NumberingRef | undefined {
    let id = styleId;
    for (let depth = 0; id !== undefined && depth < MAX_CHAIN; depth++) {
      const style = this.styles.get(id);
      if (style?.numbering) return style.numbering;
      id = style?.basedOn;
    }
    return styleId === undefined ? undefined : this.linkedLevels().get(styleId);
  }

  private linked?: Map<string, NumberingRef>;

  private linkedLevels(): Map<string, NumberingRef> {
    if (this.linked) return this.linked;
    this.linked = new Map();
    const numIdOf = new Map<string, string>();
    for (const [numId, instance] of this.instances) if (!numIdOf.has(instance.abstractId)) numIdOf.set(instance.abstractId, numId);
    for (const [abstractId, abs] of this.abstracts) {
      const numId = numIdOf.get(abstractId);
      if (numId === undefined) continue;
      for (const [ilvl, def] of abs.levels) if (def.pStyle && !this.linked.has(def.pStyle)) this.linked.set(def.pStyle, { numId, ilvl });
    }
    return this.linked;
  }

  private abstractOf(numId: string): [string, AbstractNumbering] | undefined {
    let id = numId;
    for (let depth = 0; depth < MAX_CHAIN; depth++) {
      const abstractId = this.instances.get(id)?.abstractId;
      const abs = abstractId === undefined ? undefined : this.abstracts.get(abstractId);
      if (!abs || abstractId === undefined) return undefined;
      // A list style (numStyleLink) points at the numbering its style defines.
      const linked = abs.numStyleLink ? this.styles.get(abs.numStyleLink)?.numbering?.numId : undefined;
      if (!linked) return [abstractId, abs];
      id = linked;
    }
    return undefined;
  }

  /**
   * Counts one numbered paragraph (in document order) and returns the number text it displays,
   * or undefined for bullets, unnumbered levels and unknown lists. `styleId` finds the level of a
   * paragraph numbered through its style without a w:ilvl.
   */
  advance(ref: NumberingRef, styleId: string | undefined): string | undefined {
    if (ref.numId === '0') return undefined;
    const found = this.abstractOf(ref.numId);
    if (!found) return undefined;
    const [abstractId, abs] = found;
    const instance = this.instances.get(ref.numId)!;
    let ilvl = ref.ilvl;
    if (ilvl === undefined) {
      ilvl = 0;
      for (const [n, def] of abs.levels) if (styleId !== undefined && def.pStyle === styleId) ilvl = n;
    }
    ilvl = Math.min(Math.max(ilvl, 0), 8);
    const levelOf = (n: number) => instance.overrides.get(n)?.level ?? abs.levels.get(n);
    const state = this.counters.get(abstractId) ?? [];
    this.counters.set(abstractId, state);
    if (!this.startedInstances.has(ref.numId)) {
      // "Restart numbering" in Word is a new instance overriding the start of some levels.
      this.startedInstances.add(ref.numId);
      for (const [n, o] of instance.overrides) if (o.start !== undefined) state[n] = o.start - 1;
    }
    const def = levelOf(ilvl);
    if (!def) return undefined;
    state[ilvl] = (state[ilvl] ?? def.start - 1) + 1;
    for (let n = ilvl + 1; n < 9; n++) state[n] = undefined;
    if (def.format === 'bullet' || def.format === 'none' || !def.text) return undefined;
    const text = def.text.replace(/%([1-9])/g, (_, k: string) => {
      const n = Number(k) - 1;
      const level = levelOf(n);
      return formatNumber(state[n] ?? level?.start ?? 0, def.legal ? 'decimal' : (level?.format ?? 'decimal'));
    });
    return text.trim() || undefined;
  }
}

/** styles.xml / numbering.xml of the main document, through its relationships (or where Word puts them). */
export function stylePartsOf(
  rels: Map<string, { target: string; type: string; external: boolean }>,
  resolve: (target: string) => string,
): { styles?: string; numbering?: string } {
  const find = (kind: string) => {
    for (const rel of rels.values()) if (!rel.external && rel.type.endsWith(`/${kind}`)) return resolve(rel.target);
    return undefined;
  };
  return { styles: find('styles') ?? 'word/styles.xml', numbering: find('numbering') ?? 'word/numbering.xml' };
}

export type { NumberingRef };
