import { inflateRawSync } from 'node:zlib';
import { zipSync, type Zippable } from 'fflate';
import { ExtractionError } from '../types';
import { corrupt, LIMITS, type OfficeFormat } from './common';

/**
 * A guarded reader for the ZIP containers of DOCX, XLSX and PPTX.
 *
 * The central directory is parsed here (not trusted to a library) so that limits apply before
 * anything is inflated: too many entries, an entry declaring more than LIMITS.zipEntryBytes, or
 * more than LIMITS.zipTotalBytes in total end as CORRUPT_DOCUMENT. Inflation (node:zlib, native)
 * is bounded by the bytes it really produces (maxOutputLength), so an entry lying about its size
 * is stopped at the same limits; fflate's one-shot inflate trusts the declared size and would keep
 * decoding a lying bomb to its end, and its streaming inflate is ~10x slower. Nothing is handed
 * to mammoth or exceljs except a re-packed archive (fflate zipSync) of entries read here.
 */

interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const MB = 1024 * 1024;

function u16(data: Uint8Array, at: number): number {
  return data[at] | (data[at + 1] << 8);
}

function u32(data: Uint8Array, at: number): number {
  return (data[at] | (data[at + 1] << 8) | (data[at + 2] << 16) | (data[at + 3] << 24)) >>> 0;
}

function u64(data: Uint8Array, at: number): number {
  return u32(data, at) + u32(data, at + 4) * 0x1_0000_0000;
}

function formatMb(bytes: number): string {
  return `${Math.round((bytes / MB) * 10) / 10} MB`;
}

/** OLE compound file signature: legacy .doc/.xls/.ppt, and also password-protected OOXML. */
function isCompoundFile(data: Uint8Array): boolean {
  const sig = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
  return data.length >= 8 && sig.every((b, i) => data[i] === b);
}

function containsUtf16(data: Uint8Array, text: string): boolean {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).includes(Buffer.from(text, 'utf16le'));
}

export class OfficeZip {
  private readonly entries = new Map<string, ZipEntry>();
  private readonly cache = new Map<string, Uint8Array>();
  private inflatedBytes = 0;

  private constructor(
    private readonly data: Uint8Array,
    readonly format: OfficeFormat,
  ) {}

  /** Parses the central directory; throws CORRUPT_DOCUMENT / ENCRYPTED_DOCUMENT for bad archives. */
  static open(data: Uint8Array, format: OfficeFormat): OfficeZip {
    if (isCompoundFile(data)) {
      if (containsUtf16(data, 'EncryptionInfo') || containsUtf16(data, 'EncryptedPackage')) {
        throw new ExtractionError('ENCRYPTED_DOCUMENT', `The ${format} file is password-protected`);
      }
      throw new ExtractionError(
        'UNSUPPORTED_FORMAT',
        `The file is a legacy binary Office document (.doc/.xls/.ppt), not ${format}; save it in the ${format} format`,
      );
    }
    const zip = new OfficeZip(data, format);
    zip.readCentralDirectory();
    return zip;
  }

  private fail(detail: string): ExtractionError {
    return corrupt(`The ${this.format} file is damaged or not a valid ${this.format} document: ${detail}`);
  }

  private readCentralDirectory(): void {
    const data = this.data;
    if (data.length < 22 || u32(data, 0) !== 0x04034b50) throw this.fail('it is not a ZIP archive');
    let eocd = -1;
    const stop = Math.max(0, data.length - 22 - 0xffff);
    for (let i = data.length - 22; i >= stop; i--) {
      if (data[i] === 0x50 && u32(data, i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw this.fail('the ZIP directory is missing (the file is truncated?)');

    let count = u16(data, eocd + 10);
    let dirSize = u32(data, eocd + 12);
    let dirOffset = u32(data, eocd + 16);
    if (eocd >= 20 && u32(data, eocd - 20) === 0x07064b50) {
      const z64 = u64(data, eocd - 20 + 8);
      if (z64 + 56 > data.length || u32(data, z64) !== 0x06064b50) throw this.fail('the ZIP64 directory is invalid');
      count = u64(data, z64 + 32);
      dirSize = u64(data, z64 + 40);
      dirOffset = u64(data, z64 + 48);
    }
    if (count > LIMITS.zipEntries) throw this.fail(`the archive lists ${count} entries (limit ${LIMITS.zipEntries})`);
    if (dirOffset + dirSize > data.length) throw this.fail('the ZIP directory points outside the file (the file is truncated?)');

    let at = dirOffset;
    const decoder = new TextDecoder('utf-8');
    for (let i = 0; i < count; i++) {
      if (at + 46 > data.length || u32(data, at) !== 0x02014b50) throw this.fail('a ZIP directory entry is invalid');
      const flags = u16(data, at + 8);
      const method = u16(data, at + 10);
      let compressedSize = u32(data, at + 20);
      let size = u32(data, at + 24);
      const nameLength = u16(data, at + 28);
      const extraLength = u16(data, at + 30);
      const commentLength = u16(data, at + 32);
      let localOffset = u32(data, at + 42);
      const nameEnd = at + 46 + nameLength;
      if (nameEnd + extraLength + commentLength > data.length) throw this.fail('a ZIP directory entry is truncated');
      const name = normalizeName(decoder.decode(data.subarray(at + 46, nameEnd)));
      // ZIP64 extended information: the 64-bit values present are those saturated in the header.
      for (let e = nameEnd; e + 4 <= nameEnd + extraLength; ) {
        const id = u16(data, e);
        const len = u16(data, e + 2);
        if (id === 0x0001) {
          let f = e + 4;
          if (size === 0xffffffff && f + 8 <= e + 4 + len) (size = u64(data, f)), (f += 8);
          if (compressedSize === 0xffffffff && f + 8 <= e + 4 + len) (compressedSize = u64(data, f)), (f += 8);
          if (localOffset === 0xffffffff && f + 8 <= e + 4 + len) localOffset = u64(data, f);
        }
        e += 4 + len;
      }
      at = nameEnd + extraLength + commentLength;
      if (name.endsWith('/')) continue; // directory
      this.entries.set(name.toLowerCase(), { name, method, flags, compressedSize, size, localOffset });
    }
    if (this.entries.size === 0) throw this.fail('the archive is empty');
  }

  /** Entry names as stored (original case). */
  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  has(name: string): boolean {
    return this.entries.has(normalizeName(name).toLowerCase());
  }

  /** Declared (uncompressed) size of an entry, 0 when absent. */
  declaredSize(name: string): number {
    return this.entries.get(normalizeName(name).toLowerCase())?.size ?? 0;
  }

  /** The entry's bytes, or undefined when it does not exist. Limits apply; results are cached. */
  read(name: string): Uint8Array | undefined {
    const key = normalizeName(name).toLowerCase();
    const cached = this.cache.get(key);
    if (cached) return cached;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const bytes = this.inflate(entry);
    this.cache.set(key, bytes);
    return bytes;
  }

  /**
   * Forgets the cached bytes of an entry that will not be read again (a large part handed to a
   * library); they still count against the decompression limits.
   */
  release(name: string): void {
    this.cache.delete(normalizeName(name).toLowerCase());
  }

  /** An entry as text (UTF-8, BOM stripped), or undefined when it does not exist. */
  text(name: string): string | undefined {
    const bytes = this.read(name);
    if (!bytes) return undefined;
    const text = new TextDecoder('utf-8').decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  private inflate(entry: ZipEntry): Uint8Array {
    const data = this.data;
    if (entry.flags & 1) throw new ExtractionError('ENCRYPTED_DOCUMENT', `The ${this.format} file is encrypted`);
    if (entry.size > LIMITS.zipEntryBytes) {
      throw this.fail(
        `the part ${entry.name} would be ${formatMb(entry.size)} once decompressed, more than the ${formatMb(LIMITS.zipEntryBytes)} limit`,
      );
    }
    const remaining = LIMITS.zipTotalBytes - this.inflatedBytes;
    if (entry.size > remaining) {
      throw this.fail(`the parts read would be more than ${formatMb(LIMITS.zipTotalBytes)} once decompressed`);
    }
    const at = entry.localOffset;
    if (at + 30 > data.length || u32(data, at) !== 0x04034b50) throw this.fail(`the part ${entry.name} is missing or truncated`);
    const start = at + 30 + u16(data, at + 26) + u16(data, at + 28);
    const end = start + entry.compressedSize;
    if (end > data.length) throw this.fail(`the part ${entry.name} is truncated`);
    const source = data.subarray(start, end);
    const limit = Math.min(LIMITS.zipEntryBytes, remaining);

    let out: Uint8Array;
    if (entry.method === 0) {
      if (source.length > limit) throw this.fail(`the part ${entry.name} is larger than the limits allow`);
      out = source.slice();
    } else if (entry.method === 8) {
      out = this.inflateLimited(entry.name, source, limit);
    } else {
      throw this.fail(`the part ${entry.name} uses an unsupported compression method (${entry.method})`);
    }
    this.inflatedBytes += out.length;
    return out;
  }

  private inflateLimited(name: string, source: Uint8Array, limit: number): Uint8Array {
    try {
      // Native inflate, stopped by zlib itself as soon as the output passes the limit.
      const out = inflateRawSync(source, { maxOutputLength: Math.max(limit, 1) });
      return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw this.fail(`the part ${name} inflates to more than the ${formatMb(limit)} allowed (a zip bomb?)`);
      }
      throw this.fail(`the part ${name} cannot be decompressed (${err instanceof Error ? err.message : 'invalid data'})`);
    }
  }

  /**
   * Re-packs the entries selected by `keep` (read through the limits above) into a new archive
   * without compression, for libraries that unzip by themselves (mammoth, exceljs): they then
   * only ever see bytes this class has measured. `replace` substitutes the bytes of some entries.
   */
  repack(keep: (name: string) => boolean, replace: Map<string, Uint8Array> = new Map()): Uint8Array {
    const files: Zippable = {};
    for (const entry of this.entries.values()) {
      if (!keep(entry.name)) continue;
      const bytes = replace.get(entry.name) ?? this.read(entry.name)!;
      // Office parts never carry a DTD; one is the vehicle of entity-expansion bombs, and the
      // libraries' XML parsers must not be trusted to refuse it.
      if (/\.(xml|rels)$/i.test(entry.name) && (indexOf(bytes, '<!DOCTYPE') >= 0 || indexOf(bytes, '<!ENTITY') >= 0)) {
        throw corrupt(`The ${this.format} file is not valid: the part ${entry.name} declares a DTD`);
      }
      files[entry.name] = bytes;
    }
    return zipSync(files, { level: 0 });
  }
}

function indexOf(bytes: Uint8Array, text: string): number {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(text, 0, 'latin1');
}

function normalizeName(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '');
}

/** Resolves a relationship target against the directory of the part that holds the relationship. */
export function resolvePartPath(sourcePart: string, target: string): string {
  if (target.startsWith('/')) return normalizeName(target);
  const base = sourcePart.includes('/') ? sourcePart.slice(0, sourcePart.lastIndexOf('/') + 1) : '';
  const parts: string[] = [];
  for (const segment of (base + target).split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return parts.join('/');
}

/** The relationships file of a part: word/document.xml → word/_rels/document.xml.rels. */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}
