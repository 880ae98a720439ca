/**
 * The EXIF orientation of a JPEG (a phone photo stored sideways with a tag saying how to show
 * it). Neither tesseract nor leptonica applies it, so such a photo is turned before OCR.
 */

/** The orientation (1–8) in a JPEG's EXIF APP1 segment; 1 (as stored) when there is none. */
export function jpegExifOrientation(buf: Buffer): number {
  let at = 2;
  while (at + 4 <= buf.length && buf[at] === 0xff) {
    const marker = buf[at + 1];
    // Image data (SOS) or its end: no EXIF follows.
    if (marker === 0xda || marker === 0xd9) break;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = buf.readUInt16BE(at + 2);
    if (length < 2) break;
    const start = at + 4;
    if (marker === 0xe1 && start + 14 <= buf.length && buf.toString('latin1', start, start + 6) === 'Exif\0\0') {
      return tiffOrientation(buf.subarray(start + 6, Math.min(buf.length, at + 2 + length)));
    }
    at += 2 + length;
  }
  return 1;
}

/** Tag 0x0112 of IFD0 in an EXIF TIFF block. */
function tiffOrientation(tiff: Buffer): number {
  if (tiff.length < 8) return 1;
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return 1;
  const little = order === 'II';
  const u16 = (o: number) => (little ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (little ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) break;
    if (u16(entry) !== 0x0112) continue;
    const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}
