/**
 * Test images for OCR made from real fixtures: pages turned with @napi-rs/canvas (independently
 * of the code under test), JPEGs carrying an EXIF orientation, scanned pages wrapped in a PDF,
 * and the character error rate used to judge readings.
 */
import { createCanvas, loadImage, type Canvas } from '@napi-rs/canvas';
import { distance } from 'fastest-levenshtein';
import UTIF from 'utif2';

/** A canvas holding an image file's pixels (TIFF through utif2, the rest through canvas). */
export async function canvasOf(bytes: Buffer): Promise<Canvas> {
  if (bytes.subarray(0, 2).toString('latin1') === 'II' || bytes.subarray(0, 2).toString('latin1') === 'MM') {
    const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const [ifd] = UTIF.decode(ab);
    UTIF.decodeImage(ab, ifd);
    const canvas = createCanvas(ifd.width, ifd.height);
    const ctx = canvas.getContext('2d');
    const data = ctx.createImageData(ifd.width, ifd.height);
    data.data.set(UTIF.toRGBA8(ifd));
    ctx.putImageData(data, 0, 0);
    return canvas;
  }
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas;
}

/** The canvas turned clockwise by `degrees` on a white background (any angle, e.g. 3 for a skewed scan). */
export function turned(source: Canvas, degrees: number): Canvas {
  const radians = (degrees * Math.PI) / 180;
  const cos = Math.abs(Math.cos(radians));
  const sin = Math.abs(Math.sin(radians));
  const width = Math.round(source.width * cos + source.height * sin);
  const height = Math.round(source.width * sin + source.height * cos);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate(radians);
  ctx.drawImage(source, -source.width / 2, -source.height / 2);
  return canvas;
}

/** A JPEG with an EXIF APP1 segment holding only the orientation tag (1–8). */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), header, body, jpeg.subarray(2)]);
}

/**
 * A one-page PDF showing a colour JPEG (as @napi-rs/canvas encodes them) over the whole page
 * at `ppi` (a scanned page without a text layer), with an optional /Rotate. Written with exact
 * cross-reference offsets.
 */
export function scannedPdf(jpeg: Buffer, width: number, height: number, ppi: number, rotate = 0): Buffer {
  const w = (width / ppi) * 72;
  const h = (height / ppi) * 72;
  const content = `q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} 0 0 cm /Im1 Do Q`;
  const parts: (string | Buffer)[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (part: string | Buffer) => {
    parts.push(part);
    length += typeof part === 'string' ? Buffer.byteLength(part, 'latin1') : part.length;
  };
  const object = (num: number, body: (string | Buffer)[]) => {
    offsets[num] = length;
    push(`${num} 0 obj\n`);
    body.forEach(push);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, ['<< /Type /Pages /Kids [3 0 R] /Count 1 >>']);
  object(3, [
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w.toFixed(2)} ${h.toFixed(2)}]${rotate ? ` /Rotate ${rotate}` : ''} ` +
      '/Resources << /XObject << /Im1 4 0 R >> >> /Contents 5 0 R >>',
  ]);
  object(4, [
    `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 ` +
      `/Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
    jpeg,
    '\nendstream',
  ]);
  object(5, [`<< /Length ${content.length} >>\nstream\n${content}\nendstream`]);
  const xref = length;
  push(`xref\n0 6\n0000000000 65535 f \n`);
  for (let num = 1; num <= 5; num++) push(`${String(offsets[num]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
}

/** Text compared as a reader sees it: page markers, bidi marks and runs of white space dropped. */
function comparable(text: string): string {
  return text
    .replace(/<!-- page \d+ -->/g, ' ')
    .replace(/[\u200e\u200f\u061c]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Character error rate: edit distance over the length of the true text. */
export function characterErrorRate(actual: string, expected: string): number {
  const a = comparable(actual);
  const b = comparable(expected);
  return b.length === 0 ? (a.length === 0 ? 0 : 1) : distance(a, b) / b.length;
}
