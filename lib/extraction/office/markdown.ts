import TurndownService from 'turndown';
import { strikethrough, taskListItems } from '@joplin/turndown-plugin-gfm';
import { LIMITS } from './common';

/*
 * Markdown building blocks shared by the Office extractors.
 *
 * Safety rule: the Markdown never carries raw HTML coming from a document. Text is escaped so that
 * "<" cannot open a tag ("\<"), link targets are limited to http(s)/mailto, images become their
 * alternative text, and tables are always rendered as GFM tables (never kept as HTML). The only
 * HTML-like lines in the output are the extractor's own comments (`<!-- page N -->`).
 */

/** Escapes "<" (a raw HTML opener) and "&" before an entity-like run ("&lt;" stays literal). */
export function escapeHtmlSyntax(text: string): string {
  return text.replace(/</g, '\\<').replace(/&(?=#?[a-z0-9]+;)/gi, '\\&');
}

/** Escapes text for a Markdown paragraph or list item (one logical line). */
export function escapeText(text: string): string {
  const escaped = text
    .replace(/\\/g, '\\\\')
    .replace(/([*_`[\]])/g, '\\$1')
    .replace(/~~/g, '\\~\\~');
  return escapeHtmlSyntax(escaped)
    .replace(/^(\s*)([-+>=])/, '$1\\$2')
    .replace(/^(\s*)(#{1,6})(\s|$)/, '$1\\$2$3')
    .replace(/^(\s*\d+)([.)])(\s|$)/, '$1\\$2$3');
}

/** Escapes text for a GFM table cell: one line, pipes escaped. */
export function escapeCell(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return escapeHtmlSyntax(oneLine.replace(/\\/g, '\\\\').replace(/([*_`[\]|])/g, '\\$1').replace(/~~/g, '\\~\\~'));
}

/** Makes already-converted Markdown fit in a table cell: one line, pipes escaped. */
export function markdownToCell(markdown: string): string {
  const oneLine = markdown.replace(/\s+/g, ' ').trim();
  let out = '';
  let backslashes = 0;
  for (const ch of oneLine) {
    if (ch === '|' && backslashes % 2 === 0) out += '\\';
    backslashes = ch === '\\' ? backslashes + 1 : 0;
    out += ch;
  }
  return out;
}

/**
 * A GFM table; the first row is the header. Rows are padded to the widest row (at most
 * LIMITS.tableColumns). Cells must already be escaped (escapeCell / markdownToCell). When the
 * padded table would exceed `maxCells`, the rows that fit are kept and a note line follows;
 * `totalRows` is the table's real row count when the caller already left rows out.
 */
export function renderTable(rows: string[][], maxCells: number = LIMITS.tableCells, totalRows = rows.length): string {
  const width = Math.min(
    rows.reduce((max, row) => Math.max(max, row.length), 0),
    LIMITS.tableColumns,
  );
  if (rows.length === 0 || width === 0) return '';
  const line = (cells: string[]) => {
    const padded: string[] = [];
    for (let i = 0; i < width; i++) padded.push(cells[i] ?? '');
    return `| ${padded.join(' | ')} |`;
  };
  const keep = Math.max(1, Math.min(rows.length, Math.floor(maxCells / width)));
  const out = [line(rows[0]), `| ${new Array<string>(width).fill('---').join(' | ')} |`];
  for (let i = 1; i < keep; i++) out.push(line(rows[i]));
  const table = out.join('\n');
  if (keep === totalRows) return table;
  return `${table}\n\n*The table is truncated: only its first ${keep.toLocaleString('en-US')} of ${totalRows.toLocaleString('en-US')} rows were extracted.*`;
}

/** A link target that is safe to keep, or undefined (javascript:, data:, relative, anchors…). */
export function safeHref(href: string | null | undefined): string | undefined {
  const trimmed = (href ?? '').trim();
  if (!/^(https?:\/\/|mailto:)/i.test(trimmed)) return undefined;
  return trimmed.replace(/[\s()<>"'`\\]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

// --- HTML → Markdown (DOCX via mammoth, HTML pages) -------------------------------------------

/** Deepest element nesting accepted (turndown recurses per level; the HTML parser is quadratic). */
export const MAX_HTML_DEPTH = 1000;

const VOID_OR_AUTO_CLOSED = new Set([
  // void elements
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'basefont', 'bgsound', 'frame', 'keygen',
  // elements whose end tag may be omitted (closed by a sibling), so unclosed ones do not nest
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'rb', 'rt', 'rp', 'rtc',
  'colgroup', 'caption', 'html', 'head', 'body',
]);

/**
 * An upper estimate of the element nesting of an HTML text, from its tags alone (script, style
 * and comments skipped). Computed before parsing: the parser's time grows with the square of the
 * depth, so a page of 100,000 nested <div>s would otherwise take minutes before failing.
 */
export function htmlNestingDepth(html: string): number {
  // Every pattern here ends at the first closing delimiter or at the end of the text, so the
  // scan stays linear even on hostile input (no quadratic backtracking).
  const text = html.replace(/<!--[\s\S]*?(?:-->|$)|<(script|style|textarea|title)\b[^>]*(?:>|$)[\s\S]*?(?:<\/\1\s*>|$)/gi, '');
  let depth = 0;
  let max = 0;
  for (const segment of text.split('<')) {
    const tag = /^(\/?)([a-zA-Z][\w:-]*)/.exec(segment);
    if (!tag || VOID_OR_AUTO_CLOSED.has(tag[2].toLowerCase())) continue;
    const end = segment.indexOf('>');
    if (end > 0 && segment[end - 1] === '/') continue; // <path/>: self-closing (foreign content)
    if (tag[1] === '/') depth = Math.max(0, depth - 1);
    else max = Math.max(max, ++depth);
  }
  return max;
}

type DomNode = TurndownService.Node & {
  nodeName: string;
  parentNode: DomNode | null;
  childNodes: ArrayLike<DomNode>;
  nextSibling: DomNode | null;
  textContent: string | null;
  getAttribute(name: string): string | null;
};

export interface HtmlToMarkdownOptions {
  /**
   * How images appear: their alternative text only ('alt'), an italic "Image: <alt>" line
   * ('placeholder', for documents where alt text is a description of a figure), or nothing.
   * Images without alternative text disappear in every mode; their data never reaches the output.
   */
  images: 'alt' | 'placeholder' | 'drop';
  /** Whether a <table>'s <caption> is written as a line above the table. */
  captions: boolean;
}

/** Alternative text without Word's automatic-description boilerplate. */
export function cleanAltText(alt: string): string {
  return alt
    .replace(/\s+/g, ' ')
    .replace(/\s*(Description automatically generated.*|AI-generated content may be incorrect\.?)$/i, '')
    .trim();
}

function isInside(node: DomNode, names: string[]): boolean {
  for (let p = node.parentNode; p; p = p.parentNode) if (names.includes(p.nodeName)) return true;
  return false;
}

function elementChildren(node: DomNode, names: string[]): DomNode[] {
  const out: DomNode[] = [];
  for (let i = 0; i < node.childNodes.length; i++) {
    const child = node.childNodes[i];
    if (names.includes(child.nodeName)) out.push(child);
  }
  return out;
}

function spanOf(cell: DomNode, attr: string, max: number): number {
  const value = Number.parseInt(cell.getAttribute(attr) ?? '1', 10);
  if (!Number.isFinite(value) || value < 1) return 1;
  return Math.min(value, max);
}

/**
 * A turndown service configured for safe GFM output. Tables are converted by our own rules
 * rather than the Joplin plugin's: that plugin keeps tables containing lists or headings as raw
 * HTML and ignores rowspan; ours always writes a GFM table, writes a merged cell's text once and
 * leaves the positions it covers empty (so columns stay aligned and no text repeats), promotes the first row to the header when the
 * table has none, and flattens nested tables into their parent cell. Strikethrough and task-list
 * items come from the Joplin GFM plugin.
 */
export function createTurndown(options: HtmlToMarkdownOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    fence: '```',
    emDelimiter: '*',
    strongDelimiter: '**',
    linkStyle: 'inlined',
    keepReplacement: (content) => content,
  });
  service.use([strikethrough, taskListItems]);

  const baseEscape = service.escape.bind(service);
  service.escape = (text: string) => escapeHtmlSyntax(baseEscape(text));

  const cellContent = new WeakMap<object, string>();
  const captionContent = new WeakMap<object, string>();

  service.addRule('heading', {
    filter: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
    replacement: (content, node) => {
      const text = content.replace(/\s+/g, ' ').trim();
      if (!text) return '';
      // Inside a table cell a heading is just its text (a cell holds one line).
      if (isInside(node as unknown as DomNode, ['TD', 'TH'])) return ` ${text} `;
      return `\n\n${'#'.repeat(Number(node.nodeName.charAt(1)))} ${text}\n\n`;
    },
  });

  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const li = node as unknown as DomNode;
      const parent = li.parentNode;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        const index = elementChildren(parent, ['LI']).indexOf(li);
        prefix = `${(Number.isFinite(start) ? Math.min(Math.max(start, 0), 999_999_999) : 1) + Math.max(index, 0)}. `;
      }
      const isParagraph = /\n$/.test(content);
      let body = content.replace(/^\n+/, '').replace(/\n+$/, '') + (isParagraph ? '\n' : '');
      body = body.replace(/\n/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (li.nextSibling ? '\n' : '');
    },
  });

  service.addRule('fencedCodeBlock', {
    filter: (node) => node.nodeName === 'PRE' && node.firstChild?.nodeName === 'CODE',
    replacement: (_content, node) => {
      const code = (node.firstChild as unknown as DomNode).textContent ?? '';
      const language = (((node.firstChild as unknown as DomNode).getAttribute('class') ?? '').match(/language-([\w+#.-]+)/) ?? ['', ''])[1];
      let longest = 0;
      for (const run of code.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
      const fence = '`'.repeat(Math.max(3, longest + 1));
      return `\n\n${fence}${language}\n${code.replace(/\n$/, '')}\n${fence}\n\n`;
    },
  });

  service.addRule('link', {
    filter: 'a',
    replacement: (content, node) => {
      const text = content.replace(/\s*\n\s*/g, ' ');
      if (!text.trim()) return text;
      const href = safeHref(node.getAttribute('href'));
      return href ? `[${text.trim()}](${href})` : text;
    },
  });

  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      if (options.images === 'drop') return '';
      const alt = cleanAltText(node.getAttribute('alt') ?? '');
      if (!alt) return '';
      return options.images === 'placeholder' ? `*Image: ${escapeText(alt)}*` : escapeText(alt);
    },
  });

  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      cellContent.set(node, content);
      return '';
    },
  });
  service.addRule('tableCaption', {
    filter: 'caption',
    replacement: (content, node) => {
      captionContent.set(node, content);
      return '';
    },
  });
  service.addRule('tableParts', {
    filter: ['thead', 'tbody', 'tfoot', 'tr', 'colgroup', 'col'],
    replacement: () => '',
  });

  service.addRule('table', {
    filter: 'table',
    replacement: (_content, node) => {
      const table = node as unknown as DomNode;
      const rows: DomNode[] = [];
      const caption = elementChildren(table, ['CAPTION'])[0];
      for (const child of elementChildren(table, ['THEAD', 'TBODY', 'TFOOT', 'TR'])) {
        if (child.nodeName === 'TR') rows.push(child);
        else rows.push(...elementChildren(child, ['TR']));
      }
      // Grid with merged cells repeated in every position they cover; spans stop being expanded
      // once the grid holds LIMITS.tableCells cells (renderTable then cuts the rows).
      const grid: (string | undefined)[][] = rows.map(() => []);
      const rawCells: string[] = [];
      let area = 0;
      rows.forEach((row, r) => {
        let c = 0;
        for (const cell of elementChildren(row, ['TD', 'TH'])) {
          while (grid[r][c] !== undefined) c++;
          if (c >= LIMITS.tableColumns) break;
          const raw = cellContent.get(cell) ?? cell.textContent ?? '';
          rawCells.push(raw);
          const text = markdownToCell(raw);
          let colspan = spanOf(cell, 'colspan', LIMITS.tableColumns - c);
          let rowspan = spanOf(cell, 'rowspan', rows.length - r);
          if (area + colspan * rowspan > LIMITS.tableCells) colspan = rowspan = 1;
          area += colspan * rowspan;
          // The cell's text at its first position only; the positions it covers stay empty (no text
          // is repeated: see lib/document/render.ts).
          for (let dr = 0; dr < rowspan; dr++) for (let dc = 0; dc < colspan; dc++) grid[r + dr][c + dc] = dr === 0 && dc === 0 ? text : '';
          c += colspan;
        }
      });
      const cells = grid.map((row) => Array.from(row, (cell) => cell ?? ''));
      if (isInside(table, ['TD', 'TH'])) {
        // A table inside a cell: its text, row by row, joins the parent cell.
        return ` ${cells.flat().filter(Boolean).join(' ')} `;
      }
      const nonEmpty = cells.filter((row) => row.some(Boolean));
      const captionText = options.captions && caption ? markdownToCell(captionContent.get(caption) ?? '') : '';
      const before = captionText ? `${captionText}\n\n` : '';
      if (nonEmpty.length === 0) return captionText ? `\n\n${captionText}\n\n` : '';
      if (rawCells.length === 1) {
        // A one-cell table is a layout box, not data: keep its content as blocks.
        return `\n\n${before}${rawCells[0].trim()}\n\n`;
      }
      return `\n\n${before}${renderTable(nonEmpty)}\n\n`;
    },
  });

  return service;
}
