import { ApiError } from '@/lib/errors';
import type { ByteRange } from '@/lib/storage';

/**
 * The byte range a download request asks for (RFC 9110 §14): `bytes=a-b`, `bytes=a-`, `bytes=-n`.
 * Returns null for the whole file: no Range header, an If-Range validator that no longer matches,
 * a unit other than bytes, or several ranges (answered with the whole file, which the RFC allows).
 * A range starting past the end throws RANGE_NOT_SATISFIABLE (416).
 */
export function requestedRange(header: string | null, size: number, ifRange: string | null, etag: string): ByteRange | null {
  if (!header) return null;
  // A validator that is not the file's current entity tag (a date, another version): whole file.
  if (ifRange !== null && ifRange.trim() !== etag) return null;
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  let start: number;
  let end: number;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
    if (last !== '' && Number(last) < start) return null; // invalid: ignored, as the RFC asks
  }
  if (!Number.isSafeInteger(start) || start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): ApiError {
  return new ApiError('RANGE_NOT_SATISFIABLE', `The requested range is outside the file (${size} bytes)`, { size }, undefined, {
    'Content-Range': `bytes */${size}`,
  });
}
