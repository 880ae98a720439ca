import { randomBytes } from 'node:crypto';
import { DOCUMENT_VERSION, type Block, type Inline } from '@/lib/document/types';
import { throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { corrupt, parsing, readInputFile, refuseTooManyPages } from './common';
import { splitMainPart, type MainPartChunks } from './docx-chunks';
import { headerFooterDocument } from './docx-headers';
import { HEADING_STYLE_PREFIX, namespacePrefix, PartRewriter, wordPrefix, type RewriteContext } from './docx-rewrite';
import { DocxStyles, stylePartsOf } from './docx-styles';
import { htmlToBlocks, type HtmlTokens } from './html-document';
import { flattenBlocks, hasContent, textRun } from './inlines';
import { htmlNestingDepth, MAX_HTML_DEPTH, parseHtml } from './html-parse';
import { ommlToLatex } from './omml';
import { childElements, parseXml, readAppCount, readCoreProperties, readRelationships } from './xml';
import { OfficeZip, relsPathOf, resolvePartPath } from './zip';

/*
 * DOCX → the document model: the main document part is prepared (docx-rewrite.ts), then mammoth
 * (DOCX → HTML) and the HTML converter (html-document.ts) give the blocks.
 *
 * - Headings: paragraphs with an outline level (their own, their style's through w:basedOn, or a
 *   "heading N" style, localized names included) become # … ######, with the number Word shows
 *   for numbered headings ("## 2.1 Scope"); the Title style becomes #, and when a document has a
 *   Title paragraph its headings move one level down (Heading 1 becomes ##) so that the title
 *   stays the one top-level heading.
 * - Text boxes and shapes: their text once (one branch of mc:AlternateContent), inline boxes in
 *   their line, floating ones after the paragraph they are anchored to.
 * - Headers and footers: each distinct one once, in a final part section headed "Headers and
 *   footers" (see docx-headers.ts).
 * - Tables: with their merged cells as spans; header rows where Word marks them (the Markdown's
 *   first row is the header row either way).
 * - Images: never embedded (no data: URLs, image parts are not even decompressed); an image with
 *   alternative text becomes a picture (Word's "Description automatically generated" suffix
 *   removed), or an italic "Image: <alt>" among text; an image without is dropped.
 * - Equations: mammoth drops OMML, so each m:oMath is converted to LaTeX beforehand (see omml.ts)
 *   and comes back as inline math, or a formula block for display equations.
 * - Pages: DOCX has no fixed pages (pagination is done by the word processor when it lays the
 *   text out), so there are no `<!-- page N -->` markers; total_pages is the <Pages> count Word
 *   saved in docProps/app.xml, or 1 when absent.
 * - Metadata: docProps/core.xml (dc:title, dc:creator, dcterms:created).
 */

const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => p:fresh",
  ...[1, 2, 3, 4, 5, 6].flatMap((n) => [
    `p.${HEADING_STYLE_PREFIX}${n} => h${n}:fresh`,
    `p[style-name='Heading ${n}'] => h${n}:fresh`,
    `p[style-name='heading ${n}'] => h${n}:fresh`,
  ]),
];

const MATH_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';

/** Progress units of a DOCX's stages (see readDocx). */
const STAGES = 10;

/**
 * Characters of the main part's body mammoth converts at a time in a long document (a document
 * of less than twice this is converted whole): about 0.2 s of conversion, a tenth of the 872-page
 * handbook (5 MB). Settable for tests, which compare the parts' Markdown with the whole's.
 */
export const docxChunking = { chars: 512 * 1024 };

/**
 * Placeholder tokens put in the XML (mammoth passes them through as text) and the model content
 * they stand for: runs in their line (inline equations, heading numbers) or a block (display
 * equations).
 */
class Tokens {
  private readonly nonce = randomBytes(6).toString('hex');
  private readonly values = new Map<string, Inline[] | Block>();

  register(value: Inline[] | Block): string {
    const token = `qtok${this.nonce}n${this.values.size}z`;
    this.values.set(token, value);
    return token;
  }

  /** The tokens as the HTML converter looks for them. */
  forHtml(): HtmlTokens {
    return { marker: `qtok${this.nonce}n`, pattern: new RegExp(`qtok${this.nonce}n\\d+z`, 'g'), resolve: (token) => this.values.get(token) };
  }
}

/**
 * Replaces every m:oMathPara / m:oMath of a WordprocessingML part with a text run holding a
 * token for its LaTeX. Returns undefined when the part has no equations.
 */
function replaceEquations(xml: string, part: string, tokens: Tokens, declarations = xml): string | undefined {
  const prefix = namespacePrefix(declarations, MATH_NS);
  if (!prefix || !xml.includes(`<${prefix}:oMath`)) return undefined;
  const m = prefix.replace(/[.-]/g, '\\$&');
  const w = wordPrefix(declarations);
  const run = (token: string) => `<${w}r><${w}t xml:space="preserve">${token}</${w}t></${w}r>`;
  // Each pattern ends at its closing tag or at the end of the text (an unclosed element then
  // fails XML validation): no quadratic rescans on hostile input.
  const paragraphs = new RegExp(`<${m}:oMathPara\\b[^<>]*(?:/>|>[\\s\\S]*?(?:</${m}:oMathPara>|$))`, 'g');
  const inline = new RegExp(`<${m}:oMath\\b[^<>]*(?:/>|>[\\s\\S]*?(?:</${m}:oMath>|$))`, 'g');
  return xml
    .replace(paragraphs, (fragment) => {
      const root = parseXml(fragment, 'DOCX', part);
      const equations = childElements(root, 'oMath').map((e) => ommlToLatex(e)).filter(Boolean);
      return equations.map((latex) => run(tokens.register({ type: 'formula', latex }))).join('');
    })
    .replace(inline, (fragment) => {
      const latex = ommlToLatex(parseXml(fragment, 'DOCX', part));
      return latex ? run(tokens.register([{ type: 'math', latex }])) : '';
    });
}

/** The main document part, named as the archive stores it (parts are replaced by that name). */
function mainDocumentPart(zip: OfficeZip): string {
  let main = 'word/document.xml';
  for (const rel of readRelationships(zip, '_rels/.rels').values()) {
    if (rel.type.endsWith('/officeDocument') && !rel.external) {
      main = resolvePartPath('', rel.target);
      break;
    }
  }
  return storedName(zip, main);
}

function storedName(zip: OfficeZip, part: string): string {
  return zip.names().find((name) => name.toLowerCase() === part.toLowerCase()) ?? part;
}

/** Blocks of a repacked DOCX (mammoth, then the HTML converter); `converted` is told when mammoth is done. */
async function convert(repacked: Uint8Array, tokens: HtmlTokens, converted?: () => void): Promise<Block[]> {
  const html = await convertToHtml(repacked);
  converted?.();
  return htmlBlocks(html, tokens);
}

async function convertToHtml(repacked: Uint8Array): Promise<string> {
  // Imported on first use, like ExcelJS (xlsx.ts): only DOCX extractions pay for it.
  const mammoth = (await import('mammoth')).default;
  const html = await parsing('DOCX', async () => {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(repacked.buffer, repacked.byteOffset, repacked.byteLength) },
      {
        styleMap: STYLE_MAP,
        includeEmbeddedStyleMap: false,
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    return result.value;
  });
  if (htmlNestingDepth(html) > MAX_HTML_DEPTH) {
    throw corrupt(`The DOCX file is nested too deeply (more than ${MAX_HTML_DEPTH} levels of tables or lists)`);
  }
  return html;
}

function htmlBlocks(html: string, tokens: HtmlTokens): Promise<Block[]> {
  return parsing('DOCX', () => htmlToBlocks(parseHtml(html), { inlineImages: 'placeholder', tokens }));
}

/**
 * The main part converted in parts (docx-chunks.ts), with progress after each: the blocks of the
 * whole, or null when the first part's notes cannot be told from its text (then the caller
 * converts the whole).
 */
async function convertInParts(
  zip: OfficeZip,
  keep: (name: string) => boolean,
  replaced: Map<string, Uint8Array>,
  main: string,
  chunks: MainPartChunks,
  input: ExtractInput,
  tokens: HtmlTokens,
): Promise<Block[] | null> {
  const blocks: Block[] = [];
  let notes = '';
  for (const [k, chunk] of chunks.parts.entries()) {
    throwIfAborted(input.signal);
    replaced.set(main, new TextEncoder().encode(chunk));
    let html = await convertToHtml(zip.repack(keep, replaced));
    if (k === 0 && chunks.notes) {
      // The notes mammoth writes after the first part's body belong at the end of the document.
      const at = html.lastIndexOf('<ol><li id="');
      if (at < 0 || !/^<ol><li id="(?:footnote|endnote)-/.test(html.slice(at)) || !html.endsWith('</ol>')) return null;
      notes = html.slice(at);
      html = html.slice(0, at);
    }
    for (const block of await htmlBlocks(html, tokens)) blocks.push(block);
    input.onProgress(1 + Math.floor((8 * (k + 1)) / chunks.parts.length), STAGES);
  }
  if (notes) for (const block of await htmlBlocks(notes, tokens)) blocks.push(block);
  return blocks;
}

/** Each block once, in order (compared by their Markdown). */
function distinctBlocks(blocks: Block[]): Block[] {
  const seen = new Set<string>();
  return blocks.filter((block) => {
    // The same block twice (a header on every section) is one; a block without text is none.
    if (!hasContent(flattenBlocks([block], (alt) => [textRun(alt)]))) return false;
    const key = JSON.stringify(block);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a paragraph of the part uses one of the given styles (ids are plain names). */
function usesParagraphStyle(xml: string, ids: string[]): boolean {
  return ids.some((id) => new RegExp(`<(?:\\w+:)?pStyle\\s+(?:\\w+:)?val="${id.replace(/[^\w-]/g, '\\$&')}"`).test(xml));
}

function prepareMain(zip: OfficeZip, main: string, tokens: Tokens, baseCtx: RewriteContext) {
  const mainXml = zip.text(main)!;
  const ctx = { ...baseCtx, headingShift: usesParagraphStyle(mainXml, baseCtx.styles.titleStyleIds()) ? 1 : 0 };
  const withEquations = replaceEquations(mainXml, main, tokens) ?? mainXml;
  const prepared = new PartRewriter(mainXml, ctx).rewrite(withEquations);
  const headerCtx = { ...baseCtx, styles: ctx.styles.fork() };
  const headers = headerFooterDocument(zip, main, mainXml, (partXml, content) =>
    new PartRewriter(partXml, headerCtx).rewrite(replaceEquations(content, main, tokens, partXml) ?? content),
  );
  return { prepared, headers };
}

export async function readDocx(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const bytes = await readInputFile(input);
  const zip = OfficeZip.open(bytes, 'DOCX');
  const main = mainDocumentPart(zip);
  if (!zip.has(main)) throw corrupt('The DOCX file is not a Word document: it has no main document part');

  const metadata = readCoreProperties(zip);
  const totalPages = readAppCount(zip, 'Pages') ?? 1;
  refuseTooManyPages(totalPages, input.maxPages, 'pages');
  throwIfAborted(input.signal);

  // Only XML parts go to mammoth: images, embedded objects and fonts are never decompressed.
  const isXmlPart = (name: string) => /\.(xml|rels)$/i.test(name);
  const tokens = new Tokens();
  const parts = stylePartsOf(readRelationships(zip, relsPathOf(main)), (target) => resolvePartPath(main, target));
  const context: RewriteContext = {
    styles: new DocxStyles(zip, parts.styles, parts.numbering),
    register: (number) => tokens.register([{ type: 'text', text: number }]),
  };
  const replaced = new Map<string, Uint8Array>();
  for (const name of zip.names()) {
    if (!isXmlPart(name) || /^(docProps|customXml)\//i.test(name) || name === main) continue;
    const xml = zip.text(name)!;
    if (!xml.includes(MATH_NS)) continue;
    const rewritten = replaceEquations(xml, name, tokens);
    if (rewritten !== undefined) replaced.set(name, new TextEncoder().encode(rewritten));
  }
  // The main part is prepared in one function call so that its text (megabytes for a long
  // document) can be collected before mammoth runs; headers get their own list counters.
  const { prepared, headers } = prepareMain(zip, main, tokens, context);
  throwIfAborted(input.signal);
  // DOCX has no pages to count off: progress goes by stages, weighted by their share of the time
  // (mammoth takes most of it), so a long document shows progress before it is done. A long
  // document's body is converted in parts (docx-chunks.ts), with progress after each.
  input.onProgress(1, STAGES);
  const chunks = splitMainPart(prepared, wordPrefix(prepared), docxChunking.chars);
  const found = tokens.forHtml();
  let blocks = chunks ? await convertInParts(zip, isXmlPart, replaced, main, chunks, input, found) : null;
  if (blocks === null) {
    replaced.set(main, new TextEncoder().encode(prepared));
    blocks = await convert(zip.repack(isXmlPart, replaced), found, () => input.onProgress(8, STAGES));
  }
  replaced.clear();
  throwIfAborted(input.signal);
  input.onProgress(9, STAGES);
  if (headers) {
    const synthetic = new Map([
      [main, new TextEncoder().encode(headers.document)],
      [storedName(zip, relsPathOf(main)), new TextEncoder().encode(headers.relationships)],
    ]);
    // Variants of one running header often share lines (a date, a rule, a title): each once.
    // Only what mammoth needs besides the synthetic document: no footnotes, no other parts.
    const needed = new Set(['[content_types].xml', '_rels/.rels', parts.styles, parts.numbering].map((n) => n?.toLowerCase()));
    const repacked = zip.repack((name) => synthetic.has(name) || needed.has(name.toLowerCase()), synthetic);
    const section = distinctBlocks(await convert(repacked, found));
    if (section.length) {
      const name = 'Headers and footers';
      blocks.push({ type: 'section', kind: 'part', name, content: [{ type: 'heading', level: 2, content: [{ type: 'text', text: name }] }, ...section] });
    }
  }
  input.onProgress(totalPages, totalPages);
  return { document: { version: DOCUMENT_VERSION, metadata, blocks }, totalPages };
}
