/**
 * An uncompressed little-endian TIFF of 8-bit grey pages. A page without `grey` only declares its
 * size (no pixel data), which is how a file can claim a huge page in a few bytes; `thumbnail`
 * marks a page as a reduced-resolution copy.
 */
export function greyTiff(pages: { width: number; height: number; grey?: Uint8Array; thumbnail?: boolean }[]): Buffer {
  const chunks: Buffer[] = [];
  let offset = 8;
  const header = Buffer.alloc(8);
  header.write('II', 0, 'latin1');
  header.writeUInt16LE(42, 2);
  chunks.push(header);
  const ifdOffsets: number[] = [];
  const nextPointers: number[] = [];
  for (const page of pages) {
    const pixels = Buffer.from(page.grey ?? new Uint8Array(0));
    const pixelOffset = offset;
    chunks.push(pixels);
    offset += pixels.length + (pixels.length % 2);
    if (pixels.length % 2) chunks.push(Buffer.alloc(1));
    const tags: [number, number, number][] = [
      [254, 4, page.thumbnail ? 1 : 0],
      [256, 4, page.width],
      [257, 4, page.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, pixelOffset],
      [277, 3, 1],
      [278, 4, page.height],
      [279, 4, pixels.length],
    ];
    const ifd = Buffer.alloc(2 + tags.length * 12 + 4);
    ifd.writeUInt16LE(tags.length, 0);
    tags.forEach(([tag, type, value], i) => {
      const at = 2 + i * 12;
      ifd.writeUInt16LE(tag, at);
      ifd.writeUInt16LE(type, at + 2);
      ifd.writeUInt32LE(1, at + 4);
      if (type === 3) ifd.writeUInt16LE(value, at + 8);
      else ifd.writeUInt32LE(value, at + 8);
    });
    ifdOffsets.push(offset);
    nextPointers.push(offset + 2 + tags.length * 12);
    chunks.push(ifd);
    offset += ifd.length;
  }
  const file = Buffer.concat(chunks);
  file.writeUInt32LE(ifdOffsets[0], 4);
  for (let i = 0; i < pages.length - 1; i++) file.writeUInt32LE(ifdOffsets[i + 1], nextPointers[i]);
  return file;
}
