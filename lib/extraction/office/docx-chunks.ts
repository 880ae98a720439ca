/**
 * A long Word document's main part cut into smaller documents that mammoth converts one after
 * the other, so that extraction can report progress between them (mammoth reads a part in one
 * call that took 1.3–2.5 s for an 872-page handbook, with no way to report in between) and never
 * holds the whole document's XML tree at once.
 *
 * The blocks must be what the whole document gives, so a cut is made only where nothing
 * mammoth carries from one paragraph to the next can cross it: between two top-level paragraphs
 * that have no style and no numbering (a list, a run of code or quote paragraphs, a numbered
 * heading would be split), outside every field (a table of contents or a hyperlink field spans
 * paragraphs) and after a paragraph whose mark is not deleted (mammoth joins it to the next).
 * Mammoth numbers footnote and endnote references across the document and writes the notes at
 * its end, so every reference stays in the first part, whose notes the caller moves to the end;
 * documents with comments are read whole.
 */
import { escapeRe } from './docx-rewrite';

// No "<" inside a tag, quoted or not (XML allows none): every attempt ends at the next "<",
// so malformed markup is scanned in linear time.
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:[^<>"']|"[^<"]*"|'[^<']*')*)>/g;

interface TopLevel {
  start: number;
  end: number;
  paragraph: boolean;
  /** Complex fields begun minus fields ended inside the element. */
  fields: number;
}

export interface MainPartChunks {
  /** Complete main parts, each with a part of the body. */
  parts: string[];
  /** The first part holds note references: mammoth writes their notes at its end. */
  notes: boolean;
}

/**
 * The main part `xml` (WordprocessingML prefix `w`, as "w:") as complete documents of about
 * `target` characters of body each (the first reaching past the last note reference), or null
 * when it is to be read whole (short, or holding comments or markup the cut cannot follow).
 */
export function splitMainPart(xml: string, w: string, target: number): MainPartChunks | null {
  const bodyOpen = new RegExp(`<${escapeRe(w)}body(?:\\s[^>]*)?>`).exec(xml);
  const bodyEnd = xml.lastIndexOf(`</${w}body>`);
  if (!bodyOpen || bodyEnd < 0) return null;
  const bodyStart = bodyOpen.index + bodyOpen[0].length;
  if (bodyEnd - bodyStart < 2 * target) return null;
  const body = xml.slice(bodyStart, bodyEnd);
  if (body.includes('<!') || body.includes('<?')) return null;
  if (new RegExp(`<${escapeRe(w)}(commentReference|commentRangeStart)[\\s/>]`).test(body)) return null;
  // Where the last note reference ends: no cut before it.
  let afterNotes = 0;
  const noteReference = new RegExp(`<${escapeRe(w)}(?:footnoteReference|endnoteReference)[\\s/>]`, 'g');
  for (let m = noteReference.exec(body); m !== null; m = noteReference.exec(body)) afterNotes = m.index + m[0].length;

  const elements = topLevelElements(body, `${w}p`);
  if (!elements) return null;
  const plain = new RegExp(`<${escapeRe(w)}(numPr|pStyle|del|moveFrom)[\\s/>]`);
  const cuts: number[] = [];
  let from = 0;
  let openFields = 0;
  for (let i = 0; i < elements.length; i++) {
    const e = elements[i];
    openFields += e.fields;
    const next = elements[i + 1];
    if (!next || e.end - from < target || e.end < afterNotes || openFields !== 0) continue;
    if (!e.paragraph || !next.paragraph || body.slice(e.end, next.start).trim() !== '') continue;
    if (plain.test(body.slice(e.start, e.end)) || plain.test(body.slice(next.start, next.end))) continue;
    cuts.push(e.end);
    from = e.end;
  }
  if (cuts.length === 0) return null;
  const head = xml.slice(0, bodyStart);
  const tail = xml.slice(bodyEnd);
  const bounds = [0, ...cuts, body.length];
  return { parts: bounds.slice(1).map((end, k) => head + body.slice(bounds[k], end) + tail), notes: afterNotes > 0 };
}

/**
 * The body's top-level elements (whitespace between them aside), or null when the markup does not
 * nest as it should.
 */
function topLevelElements(body: string, paragraphTag: string): TopLevel[] | null {
  const out: TopLevel[] = [];
  let depth = 0;
  let current: TopLevel | null = null;
  let tags = 0;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(body); m !== null; m = TAG.exec(body)) {
    tags++;
    const [text, closing, name, attributes] = m;
    if (closing) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0 && current) {
        current.end = m.index + text.length;
        out.push(current);
        current = null;
      }
      continue;
    }
    const selfClosing = attributes.endsWith('/');
    if (depth === 0) {
      current = { start: m.index, end: m.index + text.length, paragraph: name === paragraphTag, fields: 0 };
      if (selfClosing) {
        out.push(current);
        current = null;
        continue;
      }
    }
    if (current && name.endsWith('fldChar')) {
      if (/fldCharType="begin"/.test(attributes)) current.fields++;
      else if (/fldCharType="end"/.test(attributes)) current.fields--;
    }
    if (!selfClosing) depth++;
  }
  // Every "<" must begin a tag (text holds none): otherwise the markup is not what it seems.
  let lt = 0;
  for (let i = body.indexOf('<'); i >= 0; i = body.indexOf('<', i + 1)) lt++;
  return depth === 0 && lt === tags ? out : null;
}
