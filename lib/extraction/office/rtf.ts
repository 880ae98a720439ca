import { DOCUMENT_VERSION, type Block, type HeadingLevel, type TableCell } from '@/lib/document/types';
import { throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { compactMetadata, corrupt, parsing, readInputFile } from './common';

/*
 * RTF → the document model. RTF is read here rather than with @iarna/rtf-to-html: its parser
 * (rtf-parser 1.3.3, the latest) throws from inside a stream callback — an uncaught exception
 * that ends the process — on an RTF without a font table, and it has no tables.
 *
 * What is read: text in the document's code page (\ansicpg, or the font's \fcharset), \uN
 * characters (skipping the \ucN fallback), paragraphs, headings (\outlinelevel, or a style named
 * "heading N" / "Title"), list paragraphs (their \listtext or \pntext bullet or number), tables
 * (\cell, \row; nested tables flattened into their cell; a table of one cell is its text, as a
 * layout box; rows without text are left out), field results (link text), and from
 * \info: title, author, created_date. Pictures, objects, headers, footers, footnotes, comments
 * and every other destination are skipped. Groups are tracked on an explicit stack (so nesting
 * cannot overflow the call stack) of at most MAX_GROUP_DEPTH groups: deeper is CORRUPT_DOCUMENT.
 */

/** Destinations whose content is not document text. */
const SKIPPED = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'pict', 'object', 'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl',
  'footerr', 'footerf', 'footnote', 'annotation', 'atnid', 'atnauthor', 'fldinst', 'xmlnstbl', 'listtable', 'listoverridetable',
  'rsidtbl', 'generator', 'themedata', 'colorschememapping', 'datastore', 'latentstyles', 'pgdsctbl', 'shp', 'shpinst',
  'nonshppict', 'mmathPr', 'docvar', 'bkmkstart', 'bkmkend', 'pntxta', 'pntxtb', 'revtbl', 'filetbl', 'private', 'userprops',
  'wgrffmtfilter', 'xmlopen', 'template', 'operator', 'company', 'keywords', 'comment', 'doccomm', 'hlinkbase', 'category',
  'manager', 'subject', 'info', 'fchars', 'lchars', 'aftncn', 'aftnsep', 'aftnsepc', 'ftncn', 'ftnsep', 'ftnsepc', 'falt', 'panose',
]);

/** Real documents nest groups a few dozen deep; this bounds the state kept for hostile ones. */
const MAX_GROUP_DEPTH = 10_000;

/** Skipped destinations whose text is still read: document properties and style names. */
const COLLECTED = new Set(['title', 'author', 'style-entry', 'listtext', 'pntext']);

/** Windows code page of each \fcharset. */
const CHARSET_CODEPAGE: Record<number, number> = {
  128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258, 177: 1255, 178: 1256, 186: 1257, 204: 1251, 222: 874, 238: 1250,
};

interface State {
  skip: boolean;
  destination?: string;
  uc: number;
  font?: number;
  style: number;
  outline?: number;
  intbl: boolean;
  list: boolean;
}

interface Paragraph {
  text: string;
  marker: string;
}

function decoderFor(codepage: number): TextDecoder {
  try {
    return new TextDecoder(codepage === 65001 ? 'utf-8' : `windows-${codepage}`);
  } catch {
    return new TextDecoder('windows-1252');
  }
}

const paragraph = (text: string): Block => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** An RTF document's blocks and its \info metadata. */
export function rtfDocument(rtf: string): { blocks: Block[]; metadata: DocumentMetadata } {
  if (!rtf.startsWith('{\\rtf')) throw corrupt('The RTF file does not start with {\\rtf');
  let state: State = { skip: false, uc: 1, style: 0, intbl: false, list: false };
  const stack: State[] = [];
  let codepage = 1252;
  const fontCodepage = new Map<number, number>();
  const styleNames = new Map<number, string>();
  const info: Record<string, string> = {};
  let pendingFont: number | undefined;
  let destText = '';
  let bytes: number[] = [];
  let skipChars = 0;
  let para: Paragraph = { text: '', marker: '' };
  let cell = '';
  let row: string[] = [];
  let table: string[][] = [];
  const blocks: Block[] = [];
  let listItems: { ordered: boolean; text: string }[] = [];

  const flushBytes = () => {
    if (!bytes.length) return;
    const page = (state.font !== undefined && fontCodepage.get(state.font)) || codepage;
    emit(decoderFor(page).decode(new Uint8Array(bytes)));
    bytes = [];
  };
  const emit = (text: string) => {
    if (state.destination === 'listtext' || state.destination === 'pntext') para.marker += text;
    else if (state.skip) destText += text;
    else para.text += text;
  };
  const closeList = () => {
    if (!listItems.length) return;
    blocks.push({ type: 'list', ordered: listItems[0].ordered, items: listItems.map((item) => ({ content: [paragraph(item.text)] })) });
    listItems = [];
  };
  const closeTable = () => {
    if (!table.length) return;
    const count = table.reduce((n, r) => n + r.length, 0);
    const rows = table.filter((r) => r.some(Boolean));
    table = [];
    if (count === 1) {
      if (rows.length) blocks.push(paragraph(rows[0][0]));
    } else if (rows.length) {
      const cells = (r: string[]): TableCell[] => r.map((text) => ({ content: text ? [{ type: 'text', text }] : [] }));
      blocks.push({ type: 'table', rows: rows.map(cells), header_rows: 0 });
    }
  };
  const endParagraph = () => {
    flushBytes();
    const text = para.text.replace(/\s+/g, ' ').trim();
    const marker = para.marker.trim();
    para = { text: '', marker: '' };
    if (state.intbl) {
      cell += `${text} `;
      return;
    }
    closeTable();
    if (!text) return;
    const styleName = styleNames.get(state.style) ?? '';
    const heading = state.outline !== undefined ? state.outline + 1 : Number(/^heading (\d)/i.exec(styleName)?.[1] ?? (/^title$/i.test(styleName) ? 1 : 0));
    if (marker || state.list) {
      listItems.push({ ordered: /^\(?\w{1,4}[.)]$/.test(marker), text });
      return;
    }
    closeList();
    blocks.push(heading >= 1 && heading <= 6 ? { type: 'heading', level: heading as HeadingLevel, content: [{ type: 'text', text }] } : paragraph(text));
  };

  const length = rtf.length;
  let i = 0;
  while (i < length) {
    const ch = rtf[i];
    if (ch === '{') {
      flushBytes();
      if (stack.length >= MAX_GROUP_DEPTH) throw corrupt(`The RTF file is nested too deeply (more than ${MAX_GROUP_DEPTH} groups)`);
      stack.push(state);
      state = { ...state };
      i++;
    } else if (ch === '}') {
      flushBytes();
      const closing = state;
      state = stack.pop() ?? state;
      if (closing.destination && closing.destination !== state.destination) {
        if (closing.destination === 'fonttbl-entry' && pendingFont !== undefined) pendingFont = undefined;
        else if (closing.destination === 'style-entry') styleNames.set(closing.style, destText.replace(/;\s*$/, '').trim());
        else if (['title', 'author', 'creatim'].includes(closing.destination)) info[closing.destination] ??= destText.trim();
        destText = '';
      }
      i++;
    } else if (ch === '\\') {
      const next = rtf[i + 1] ?? '';
      if (/[a-zA-Z]/.test(next)) {
        const match = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(rtf.slice(i + 1, i + 46))!;
        i += 1 + match[0].length;
        const word = match[1];
        const param = match[2] === undefined ? undefined : Number(match[2]);
        if (word !== 'u') flushBytes();
        control(word, param);
      } else if (next === "'") {
        const byte = Number.parseInt(rtf.slice(i + 2, i + 4), 16);
        i += 4;
        if (skipChars > 0) skipChars--;
        else if (Number.isFinite(byte) && collecting()) bytes.push(byte);
      } else {
        flushBytes();
        i += 2;
        if (next === '*') {
          state.skip = true;
          state.destination ??= 'ignored';
        } else if (next === '\n' || next === '\r') control('par', undefined);
        else if (next === '~') emit('\u00a0');
        else if (next === '_') emit('-');
        else if (next === '{' || next === '}' || next === '\\') emit(next);
      }
    } else if (ch === '\r' || ch === '\n') {
      i++;
    } else {
      if (skipChars > 0) skipChars--;
      else if (collecting()) bytes.push(rtf.charCodeAt(i) & 0xff);
      i++;
    }
  }
  flushBytes();
  if (para.text.trim()) endParagraph();
  closeList();
  closeTable();

  /** Text is kept in the body and in the few destinations read for names (not in pictures' hex). */
  function collecting(): boolean {
    return !state.skip || COLLECTED.has(state.destination ?? '');
  }

  function control(word: string, param: number | undefined): void {
    switch (word) {
      case 'bin':
        // Raw binary data follows; it is not text.
        i += Math.max(0, param ?? 0);
        return;
      case 'ansicpg':
        if (param) codepage = param;
        return;
      case 'u':
        flushBytes();
        if (param !== undefined) emit(String.fromCharCode(param < 0 ? param + 65536 : param));
        skipChars = state.uc;
        return;
      case 'uc':
        state.uc = param ?? 1;
        return;
      case 'f':
        if (state.destination === 'fonttbl' || state.destination === 'fonttbl-entry') {
          pendingFont = param;
          state.destination = 'fonttbl-entry';
        } else state.font = param;
        return;
      case 'fcharset':
        if (pendingFont !== undefined && param !== undefined && CHARSET_CODEPAGE[param]) fontCodepage.set(pendingFont, CHARSET_CODEPAGE[param]);
        return;
      case 's':
        state.style = param ?? 0;
        if (state.destination === 'stylesheet') {
          state.destination = 'style-entry';
          destText = '';
        }
        return;
      case 'pard':
        state.style = 0;
        state.outline = undefined;
        state.intbl = false;
        state.list = false;
        return;
      case 'outlinelevel':
        state.outline = param !== undefined && param >= 0 && param < 9 ? param : undefined;
        return;
      case 'intbl':
        state.intbl = true;
        return;
      case 'ls':
        // \ls0 (and \ilvl alone) are written on ordinary paragraphs too; a list override is 1 or more.
        state.list = (param ?? 0) > 0;
        return;
      case 'par':
      case 'page':
      case 'sect':
        if (!state.skip) endParagraph();
        return;
      case 'line':
      case 'tab':
      case 'nestcell':
      case 'nestrow':
        if (!state.skip) emit(' ');
        return;
      case 'cell':
        if (state.skip) return;
        flushBytes();
        cell += para.text.replace(/\s+/g, ' ').trim();
        para = { text: '', marker: '' };
        row.push(cell.trim());
        cell = '';
        return;
      case 'row':
        if (state.skip) return;
        closeList();
        if (row.length) table.push(row);
        row = [];
        return;
      case 'listtext':
      case 'pntext':
        state.destination = word;
        return;
      case 'title':
      case 'author':
      case 'creatim':
        state.skip = true;
        state.destination = word;
        destText = '';
        return;
      case 'yr':
      case 'mo':
      case 'dy':
        if (state.destination === 'creatim') destText += `${destText ? '-' : ''}${String(param ?? 0).padStart(word === 'yr' ? 4 : 2, '0')}`;
        return;
      case 'lquote':
      case 'rquote':
        emit(word === 'lquote' ? '\u2018' : '\u2019');
        return;
      case 'ldblquote':
      case 'rdblquote':
        emit(word === 'ldblquote' ? '\u201c' : '\u201d');
        return;
      case 'bullet':
        emit('\u2022');
        return;
      case 'emdash':
      case 'endash':
        emit(word === 'emdash' ? '\u2014' : '\u2013');
        return;
      default:
        if (SKIPPED.has(word)) {
          state.skip = true;
          state.destination = word;
        }
    }
  }

  return {
    blocks,
    metadata: compactMetadata({ title: info.title, author: info.author, created_date: /^\d{4}-\d\d-\d\d$/.test(info.creatim ?? '') ? `${info.creatim}T00:00:00.000Z` : undefined }),
  };
}

export async function readRtf(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  // RTF is 7-bit text; bytes above 127 are read in the document's code page above.
  const rtf = (await readInputFile(input)).toString('latin1');
  const { blocks, metadata } = await parsing('RTF', () => rtfDocument(rtf));
  throwIfAborted(input.signal);
  input.onProgress(1, 1);
  return { document: { version: DOCUMENT_VERSION, metadata, blocks }, totalPages: 1 };
}
