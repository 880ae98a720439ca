import { randomBytes } from 'node:crypto';
import mammoth from 'mammoth';
import { throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { corrupt, finishMarkdown, parsing, readInputFile, refuseTooManyPages } from './common';
import { createTurndown, htmlNestingDepth, MAX_HTML_DEPTH } from './markdown';
import { ommlToLatex } from './omml';
import { childElements, parseXml, readAppCount, readCoreProperties, readRelationships } from './xml';
import { OfficeZip, resolvePartPath } from './zip';

/*
 * DOCX → Markdown: mammoth (DOCX → HTML) then turndown (HTML → GFM).
 *
 * - Headings: the Title style and Heading 1–6 become # … ######.
 * - Tables: GFM; the first row is the header row (Word tables rarely mark one).
 * - Images: never embedded (no data: URLs, image parts are not even decompressed); an image with
 *   alternative text becomes an italic "Image: <alt>" line (Word's "Description automatically
 *   generated" suffix removed), an image without is dropped.
 * - Equations: mammoth drops OMML, so each m:oMath is converted to LaTeX beforehand (see omml.ts)
 *   and comes back as $…$, or $$…$$ for display equations.
 * - Pages: DOCX has no fixed pages (pagination is done by the word processor when it lays the
 *   text out), so there are no `<!-- page N -->` markers; total_pages is the <Pages> count Word
 *   saved in docProps/app.xml, or 1 when absent.
 * - Metadata: docProps/core.xml (dc:title, dc:creator, dcterms:created).
 */

const STYLE_MAP = [
  "p[style-name='Title'] => h1:fresh",
  "p[style-name='Subtitle'] => p:fresh",
  ...[1, 2, 3, 4, 5, 6].flatMap((n) => [
    `p[style-name='Heading ${n}'] => h${n}:fresh`,
    `p[style-name='heading ${n}'] => h${n}:fresh`,
  ]),
];

const MATH_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/math';
const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

interface MathToken {
  latex: string;
  display: boolean;
}

function namespacePrefix(xml: string, uri: string): string | undefined {
  const escaped = uri.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const match = xml.match(new RegExp(`xmlns:([A-Za-z_][\\w.-]*)="${escaped}"`));
  return match?.[1];
}

/**
 * Replaces every m:oMathPara / m:oMath of a WordprocessingML part with a text run holding a
 * token; `tokens` records the LaTeX each token stands for. Returns undefined when the part has
 * no equations.
 */
function replaceEquations(xml: string, part: string, nonce: string, tokens: Map<string, MathToken>): string | undefined {
  const prefix = namespacePrefix(xml, MATH_NS);
  if (!prefix || !xml.includes(`<${prefix}:oMath`)) return undefined;
  const m = prefix.replace(/[.-]/g, '\\$&');
  const wordPrefix = namespacePrefix(xml, WORD_NS);
  const w = wordPrefix ? `${wordPrefix}:` : xml.includes(`xmlns="${WORD_NS}"`) ? '' : 'w:';
  const run = (token: string) => `<${w}r><${w}t xml:space="preserve">${token}</${w}t></${w}r>`;
  const register = (latex: string, display: boolean) => {
    const token = `qmath${nonce}n${tokens.size}z`;
    tokens.set(token, { latex, display });
    return token;
  };
  // Each pattern ends at its closing tag or at the end of the text (an unclosed element then
  // fails XML validation): no quadratic rescans on hostile input.
  const paragraphs = new RegExp(`<${m}:oMathPara\\b[^<>]*(?:/>|>[\\s\\S]*?(?:</${m}:oMathPara>|$))`, 'g');
  const inline = new RegExp(`<${m}:oMath\\b[^<>]*(?:/>|>[\\s\\S]*?(?:</${m}:oMath>|$))`, 'g');
  return xml
    .replace(paragraphs, (fragment) => {
      const root = parseXml(fragment, 'DOCX', part);
      const equations = childElements(root, 'oMath').map((e) => ommlToLatex(e)).filter(Boolean);
      return equations.map((latex) => run(register(latex, true))).join('');
    })
    .replace(inline, (fragment) => {
      const latex = ommlToLatex(parseXml(fragment, 'DOCX', part));
      return latex ? run(register(latex, false)) : '';
    });
}

function restoreEquations(markdown: string, nonce: string, tokens: Map<string, MathToken>): string {
  if (tokens.size === 0) return markdown;
  return markdown.replace(new RegExp(`qmath${nonce}n(\\d+)z`, 'g'), (token) => {
    const math = tokens.get(token);
    if (!math) return '';
    return math.display ? `$$${math.latex}$$` : `$${math.latex}$`;
  });
}

function mainDocumentPart(zip: OfficeZip): string {
  for (const rel of readRelationships(zip, '_rels/.rels').values()) {
    if (rel.type.endsWith('/officeDocument') && !rel.external) return resolvePartPath('', rel.target);
  }
  return 'word/document.xml';
}

export async function extractDocx(input: ExtractInput): Promise<ExtractResult> {
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
  const nonce = randomBytes(6).toString('hex');
  const tokens = new Map<string, MathToken>();
  const replaced = new Map<string, Uint8Array>();
  for (const name of zip.names()) {
    if (!isXmlPart(name) || /^(docProps|customXml)\//i.test(name)) continue;
    const xml = zip.text(name)!;
    if (!xml.includes(MATH_NS)) continue;
    const rewritten = replaceEquations(xml, name, nonce, tokens);
    if (rewritten !== undefined) replaced.set(name, new TextEncoder().encode(rewritten));
  }
  const repacked = zip.repack(isXmlPart, replaced);
  throwIfAborted(input.signal);

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
  throwIfAborted(input.signal);

  if (htmlNestingDepth(html) > MAX_HTML_DEPTH) {
    throw corrupt(`The DOCX file is nested too deeply (more than ${MAX_HTML_DEPTH} levels of tables or lists)`);
  }
  const turndown = createTurndown({ images: 'placeholder', captions: true });
  const markdown = await parsing('DOCX', () => turndown.turndown(html));
  input.onProgress(totalPages, totalPages);
  return {
    markdown: finishMarkdown(restoreEquations(markdown, nonce, tokens)),
    totalPages,
    metadata,
  };
}
