import type MsgReader from '@kenjiuno/msgreader';
import { throwIfAborted, type DocumentMetadata, type ExtractInput, type ExtractResult } from '../types';
import { compactMetadata, finishMarkdown, isoDate, parsing, readInputFile } from './common';
import { convertHtml } from './html';
import { escapeText } from './markdown';
import { rtfToHtml } from './rtf';

/*
 * Email → Markdown: the subject as a level-1 heading (and the title), a short header block (From,
 * To, Cc, Date: who wrote to whom is what people search mail for), the body, and the attachments
 * listed by name (an attached document is not extracted). The HTML body is preferred, cleaned
 * through the HTML path (scripts, styles, tracking images dropped); the plain-text body is used
 * when there is no HTML. Metadata: title (subject), author (sender), from, to, cc, created_date.
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

async function render(message: Message): Promise<ExtractResult> {
  const parts: string[] = [];
  if (message.subject) parts.push(`# ${escapeText(message.subject)}`);
  const header: string[] = [];
  const line = (label: string, value: string | undefined) => value && header.push(`**${label}:** ${escapeText(value)}`);
  line('From', message.from);
  line('To', message.to.join(', '));
  line('Cc', message.cc.join(', '));
  line('Date', message.date);
  if (header.length) parts.push(header.join('  \n'));
  let body = '';
  if (message.html?.trim()) body = (await convertHtml(message.html)).markdown;
  if (!body.trim() && message.text) body = escapeText(message.text.replace(/\r\n?/g, '\n')).replace(/\n/g, '  \n').replace(/( {2}\n){2,}/g, '\n\n');
  if (body.trim()) parts.push(body);
  if (message.attachments.length) parts.push(`**Attachments:**\n\n${message.attachments.map((a) => `- ${escapeText(a)}`).join('\n')}`);
  const metadata: DocumentMetadata = compactMetadata({
    title: message.subject,
    author: message.from,
    from: message.from,
    to: message.to.length ? message.to.join(', ') : undefined,
    cc: message.cc.length ? message.cc.join(', ') : undefined,
    created_date: message.date,
  });
  return { markdown: finishMarkdown(parts.join('\n\n')), totalPages: 1, metadata };
}

/** A message saved as UTF-16 (BOM, or NUL bytes between the ASCII of its first header). */
function decodeRaw(bytes: Buffer): Buffer | string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  if (bytes.length > 4 && bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0) return bytes.subarray(0, bytes.length - (bytes.length % 2)).toString('utf16le');
  return bytes;
}

export async function extractEml(input: ExtractInput): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const raw = decodeRaw(await readInputFile(input));
  const PostalMime = (await import('postal-mime')).default;
  const email = await parsing('email', () => PostalMime.parse(raw, { maxNestingDepth: 50, maxHeadersSize: 2 * 1024 * 1024 }));
  throwIfAborted(input.signal);
  const result = await render({
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

export async function extractMsg(input: ExtractInput): Promise<ExtractResult> {
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
    let html = data.bodyHtml ?? (data.html ? new TextDecoder('utf-8').decode(data.html) : undefined);
    // Some messages keep their body only as compressed RTF.
    if (!html && !data.body?.trim() && data.compressedRtf?.length) {
      html = rtfToHtml(Buffer.from(decompressRTF([...data.compressedRtf])).toString('latin1')).html;
    }
    return {
      subject: data.subject?.trim(),
      from: person({ name: data.senderName, address: data.senderSmtpAddress ?? data.senderEmail })[0],
      to: recipients('to'),
      cc: recipients('cc'),
      date: isoDate(data.clientSubmitTime ?? data.messageDeliveryTime ?? data.creationTime),
      html,
      text: data.body,
      attachments: (data.attachments ?? []).filter((a) => !a.attachmentHidden).map((a) => a.fileName ?? a.name ?? '(unnamed attachment)'),
    } satisfies Message;
  });
  throwIfAborted(input.signal);
  const result = await render(message);
  input.onProgress(1, 1);
  return result;
}
