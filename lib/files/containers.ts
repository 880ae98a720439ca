import { FORMATS } from '@/lib/formats/registry';
import { extensionOf, typeByExtension, typeByMime, unsupported, type FileTypeEntry } from './types';

/*
 * Zip and OLE compound (CFB) files are only containers: what they are (DOCX or ODT or EPUB; DOC or
 * XLS or MSG) is decided by the entries they hold, and those need not be in the first bytes. A
 * DOCX written by Word puts [Content_Types].xml last (the 872-page handbook: at byte 477,757 of
 * 482,883), and a CFB's directory can sit at the end of the file (a 600 KB .ppt: the last KB).
 * Raising the sniff window would mean buffering whole files, so the upload is watched as it
 * streams instead, in constant memory:
 *
 * - zip: the last TAIL_BYTES are kept; at the end the central directory (which is at the end)
 *   lists every entry name. The first bytes are kept too, for the ODF/EPUB `mimetype` entry.
 * - CFB: every 128-byte-aligned block is checked for a directory entry (UTF-16 name, length,
 *   object type), and the names that identify a format are noted.
 */

/** Enough for the central directory of a zip with LIMITS.zipEntries (20,000) entries of typical names. */
const TAIL_BYTES = 2 * 1024 * 1024;


function u16(data: Uint8Array, at: number): number {
  return data[at] | (data[at + 1] << 8);
}

function u32(data: Uint8Array, at: number): number {
  return (data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)) >>> 0;
}

/** Entry names from the central directory at the end of `tail`; undefined when it is not all there. */
export function zipEntryNames(tail: Uint8Array): string[] | undefined {
  let eocd = -1;
  for (let i = tail.length - 22; i >= Math.max(0, tail.length - 22 - 0xffff); i--) {
    if (tail[i] === 0x50 && u32(tail, i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return undefined;
  let dirSize = u32(tail, eocd + 12);
  // ZIP64: the 64-bit end record (before its locator, before the classic record) has the size.
  const locator = eocd - 20;
  if (dirSize === 0xffffffff && locator >= 0 && u32(tail, locator) === 0x07064b50) {
    const record = locator - 56;
    if (record < 0 || u32(tail, record) !== 0x06064b50) return undefined;
    dirSize = u32(tail, record + 40) + u32(tail, record + 44) * 0x1_0000_0000;
    eocd = record;
  } else if (locator >= 0 && u32(tail, locator) === 0x07064b50) {
    const record = locator - 56;
    if (record >= 0 && u32(tail, record) === 0x06064b50) eocd = record;
  }
  const start = eocd - dirSize;
  if (start < 0) return undefined;
  const names: string[] = [];
  const decoder = new TextDecoder('utf-8');
  for (let at = start; at + 46 <= eocd; ) {
    if (u32(tail, at) !== 0x02014b50) return undefined;
    const nameLength = u16(tail, at + 28);
    names.push(decoder.decode(tail.subarray(at + 46, at + 46 + nameLength)).replace(/\\/g, '/').replace(/^\/+/, ''));
    at += 46 + nameLength + u16(tail, at + 30) + u16(tail, at + 32);
  }
  return names;
}

/** The content of a stored (uncompressed) `mimetype` entry at the start of the archive (ODF, EPUB). */
function mimetypeEntry(head: Uint8Array): string | undefined {
  if (head.length < 30 || u32(head, 0) !== 0x04034b50 || u16(head, 8) !== 0) return undefined;
  const nameLength = u16(head, 26);
  const name = Buffer.from(head.subarray(30, 30 + nameLength)).toString('latin1');
  if (name !== 'mimetype') return undefined;
  const start = 30 + nameLength + u16(head, 28);
  return Buffer.from(head.subarray(start, start + Math.min(u32(head, 18), 200))).toString('latin1').trim();
}

/** Decides what a zip is from its entry names (and its leading `mimetype` entry). */
export function zipFormat(names: readonly string[], head: Uint8Array): string | undefined {
  const has = (name: string) => names.includes(name);
  const under = (dir: string) => names.some((n) => n.startsWith(dir));
  if (has('[Content_Types].xml')) {
    for (const f of OOXML_FORMATS) if (under(f.ooxmlFolder!)) return f.mime;
  }
  const declared = mimetypeEntry(head);
  if (declared && typeByMime(declared)) return declared;
  if (has('META-INF/container.xml') && names.some((n) => n.toLowerCase().endsWith('.opf'))) return 'application/epub+zip';
  return undefined;
}

/** OOXML formats by the package folder of their main part (lib/formats/registry.ts). */
const OOXML_FORMATS = FORMATS.filter((f) => f.ooxmlFolder);

/** Directory entry names that identify a CFB format, with the MIME type they mean (lib/formats/registry.ts). */
const CFB_MARKERS: [test: (name: string) => boolean, mime: string][] = [
  ...FORMATS.filter((f) => f.cfbEntry).map((f): [(name: string) => boolean, string] => [f.cfbEntry!, f.mime]),
  [(n) => n === 'EncryptedPackage', 'encrypted'],
];

/** Watches a zip or CFB upload go by and decides its type at the end. */
export class ContainerProbe {
  private tail: Buffer[] = [];
  private tailLength = 0;
  private offset = 0;
  private carry: Buffer = Buffer.alloc(0);
  /** CFB formats in the order their first directory entry was seen. */
  private readonly found: string[] = [];

  constructor(
    readonly kind: 'zip' | 'cfb',
    private readonly head: Buffer,
  ) {
    this.push(head);
  }

  push(chunk: Buffer): void {
    if (this.kind === 'zip') this.keepTail(chunk);
    else this.scanDirectoryEntries(chunk);
    this.offset += chunk.length;
  }

  private keepTail(chunk: Buffer): void {
    this.tail.push(chunk);
    this.tailLength += chunk.length;
    while (this.tail.length > 1 && this.tailLength - this.tail[0].length >= TAIL_BYTES) this.tailLength -= this.tail.shift()!.length;
  }

  private scanDirectoryEntries(chunk: Buffer): void {
    // Directory sectors start at 512 + n × sector size, so entries are 128-byte aligned.
    const data = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const base = this.offset - this.carry.length;
    let at = (128 - (base % 128)) % 128;
    for (; at + 128 <= data.length; at += 128) {
      if (base + at < 512) continue;
      const nameBytes = u16(data, at + 0x40);
      const objectType = data[at + 0x42];
      if (nameBytes < 4 || nameBytes > 64 || nameBytes % 2 || (objectType !== 1 && objectType !== 2) || data[at + 0x43] > 1) continue;
      if (u16(data, at + nameBytes - 2) !== 0) continue;
      const name = data.toString('utf16le', at, at + nameBytes - 2);
      const marker = CFB_MARKERS.find(([test]) => test(name));
      if (marker && !this.found.includes(marker[1])) this.found.push(marker[1]);
    }
    // What is left is the start of the next aligned block.
    this.carry = Buffer.from(data.subarray(Math.min(at, data.length)));
  }

  /** The type the entries show; 415 UNSUPPORTED_FORMAT for other zips and compound files. */
  decide(filename: string): FileTypeEntry {
    const ext = extensionOf(filename);
    const claimed = typeByExtension(ext);
    const mime = this.kind === 'zip' ? this.decideZip() : this.decideCfb(claimed);
    const type = mime ? typeByMime(mime, claimed) : undefined;
    if (type) return type;
    if (mime === 'encrypted') {
      throw unsupported('The file is a password-protected Office document; remove the password and upload it again', {
        extension: ext || null,
        detected_type: 'application/x-cfb',
        reason: 'encrypted',
      });
    }
    const what = this.kind === 'zip' ? 'a ZIP archive' : 'an OLE compound file';
    const detected = this.kind === 'zip' ? 'application/zip' : 'application/x-cfb';
    throw unsupported(
      claimed ? `The file is named ${ext} but its content is ${what} of no supported format` : `Unsupported file format: the content is ${what} of no supported format`,
      { extension: ext || null, detected_type: detected },
    );
  }

  private decideZip(): string | undefined {
    const names = zipEntryNames(Buffer.concat(this.tail));
    return names ? zipFormat(names, this.head) : undefined;
  }

  private decideCfb(claimed: FileTypeEntry | undefined): string | undefined {
    // The name breaks ties (a workbook embedded in a Word file has a Workbook stream too).
    if (claimed && this.found.includes(claimed.mime_type)) return claimed.mime_type;
    return this.found.find((m) => m !== 'encrypted') ?? this.found[0];
  }
}
