import type MsgReader from '@kenjiuno/msgreader';
import { DOCUMENT_VERSION, type Block, type Inline, type Section } from '@/lib/document/types';
import { throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { compactMetadata, isoDate, parsing, readInputFile } from './common';
import { htmlDocument } from './html';
import { rtfDocument } from './rtf';

/*
 * Email → the document model: the message is a section holding the subject as a level-1 heading
 * (and the title), a short header block (From, To, Cc, Date: who wrote to whom is what people
 * search mail for), the body, and the attachments listed by name, each also an attachment section
 * with its name (an attached document is not extracted, so the section is empty). The HTML body
 * is preferred, read through the HTML path (scripts, styles, tracking images dropped); the
 * plain-text body is used when there is no HTML, its lines kept. Metadata: title (subject),
 * author (sender), from, to, cc, created_date.
 *
 * - .eml with postal-mime (MIME, encoded words, charsets, quoted-printable/base64). A message
 *   saved as UTF-16 (with or without a BOM) is decoded first; nesting is bounded.
 * - .msg (Outlook, an OLE compound file) with @kenjiuno/msgreader; a body kept only as
 *   compressed RTF is decompressed (@kenjiuno/decompressrtf) and read by the RTF reader.
 */

// The mail packages are imported on first use: only mail extractions pay for loading them.
async function loadReader(): Promise<typeof MsgReader> {
  const loaded = (await import('@kenjiuno/msgreader')).default;
  // A CommonJS module whose class is its `default` export: Node's ESM import wraps it once more.
  return (loaded as unknown as { default?: typeof MsgReader }).default ?? loaded;
}

interface Message {
  subject?: string;
  from?: string;
  to: string[];
  cc: string[];
  date?: string;
  html?: string;
  /** A body read already (from RTF). */
  blocks?: Block[];
  text?: string;
  attachments: string[];
}

interface Named {
  name?: string;
  address?: string;
  group?: Named[];
}

function person(value: Named | undefined): string[] {
  if (!value) return [];
  if (value.group) return value.group.flatMap(person);
  const name = (value.name ?? '').trim();
  const address = (value.address ?? '').trim();
  if (name && address && name !== address) return [`${name} <${address}>`];
  return name || address ? [name || address] : [];
}

/** A plain-text body: paragraphs at empty lines, the lines of each kept. */
function textBlocks(text: string): Block[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n(?:[ \t]*\n)+/)
    .filter((para) => /\S/.test(para))
    .map((para) => ({
      type: 'paragraph',
      content: para.split('\n').flatMap((line, i): Inline[] => (i === 0 ? [{ type: 'text', text: line }] : [{ type: 'break' }, { type: 'text', text: line }])),
    }));
}

async function read(message: Message): Promise<ExtractedDocument> {
  const content: Block[] = [];
  if (message.subject) content.push({ type: 'heading', level: 1, content: [{ type: 'text', text: message.subject }] });
  const header: Inline[] = [];
  const line = (label: string, value: string | undefined) => {
    if (!value) return;
    if (header.length) header.push({ type: 'break' });
    header.push({ type: 'text', text: `${label}:`, bold: true }, { type: 'text', text: ` ${value}` });
  };
  line('From', message.from);
  line('To', message.to.join(', '));
  line('Cc', message.cc.join(', '));
  line('Date', message.date);
  if (header.length) content.push({ type: 'paragraph', content: header });
  let body: Block[] = message.blocks ?? [];
  if (!body.length && message.html?.trim()) body = (await htmlDocument(message.html)).blocks;
  if (!body.length && message.text) body = textBlocks(message.text);
  content.push(...body);
  const attachments: Section[] = message.attachments.map((name) => ({ type: 'section', kind: 'attachment', name, content: [] }));
  if (attachments.length) {
    content.push(
      { type: 'paragraph', content: [{ type: 'text', text: 'Attachments:', bold: true }] },
      { type: 'list', ordered: false, items: message.attachments.map((name) => ({ content: [{ type: 'paragraph', content: [{ type: 'text', text: name }] }] })) },
      ...attachments,
    );
  }
  const metadata: DocumentMetadata = compactMetadata({
    title: message.subject,
    author: message.from,
    from: message.from,
    to: message.to.length ? message.to.join(', ') : undefined,
    cc: message.cc.length ? message.cc.join(', ') : undefined,
    created_date: message.date,
  });
  const blocks: Block[] = content.length ? [{ type: 'section', kind: 'message', content }] : [];
  return { document: { version: DOCUMENT_VERSION, metadata, blocks }, totalPages: 1 };
}

/** A message saved as UTF-16 (BOM, or NUL bytes between the ASCII of its first header). */
function decodeRaw(bytes: Buffer): Buffer | string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  if (bytes.length > 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) return bytes.subarray(0, bytes.length - (bytes.length % 2)).toString('utf16le');
  return bytes;
}

export async function readEml(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const raw = decodeRaw(await readInputFile(input));
  const PostalMime = (await import('postal-mime')).default;
  const email = await parsing('email', () => PostalMime.parse(raw, { maxNestingDepth: 50, maxHeadersSize: 2 * 1024 * 1024 }));
  throwIfAborted(input.signal);
  const result = await read({
    subject: email.subject?.trim(),
    from: person(email.from)[0],
    to: (email.to ?? []).flatMap(person),
    cc: (email.cc ?? []).flatMap(person),
    date: isoDate(email.date),
    html: email.html,
    text: email.text,
    // Inline parts of the HTML body (cid: images) are not attachments a reader would name.
    attachments: email.attachments.filter((a) => a.disposition !== 'inline' || !a.contentId).map((a) => a.filename ?? `(unnamed ${a.mimeType})`),
  });
  input.onProgress(1, 1);
  return result;
}

export async function readMsg(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const bytes = await readInputFile(input);
  const Reader = await loadReader();
  const { decompressRTF } = await import('@kenjiuno/decompressrtf');
  const message = await parsing('Outlook message', () => {
    const reader = new Reader(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
    const data = reader.getFileData();
    if (data.error) throw new Error(data.error);
    const recipients = (kind: 'to' | 'cc') =>
      (data.recipients ?? []).filter((r) => (r.recipType ?? 'to') === kind).flatMap((r) => person({ name: r.name, address: r.smtpAddress ?? r.email }));
    const html = data.bodyHtml ?? (data.html ? new TextDecoder('utf-8').decode(data.html) : undefined);
    // Some messages keep their body only as compressed RTF.
    const blocks = !html && !data.body?.trim() && data.compressedRtf?.length ? rtfDocument(Buffer.from(decompressRTF([...data.compressedRtf])).toString('latin1')).blocks : undefined;
    return {
      subject: data.subject?.trim(),
      from: person({ name: data.senderName, address: data.senderSmtpAddress ?? data.senderEmail })[0],
      to: recipients('to'),
      cc: recipients('cc'),
      date: isoDate(data.clientSubmitTime ?? data.messageDeliveryTime ?? data.creationTime),
      html,
      blocks,
      text: data.body,
      attachments: (data.attachments ?? []).filter((a) => !a.attachmentHidden).map((a) => a.fileName ?? a.name ?? '(unnamed attachment)'),
    } satisfies Message;
  });
  throwIfAborted(input.signal);
  const result = await read(message);
  input.onProgress(1, 1);
  return result;
}
