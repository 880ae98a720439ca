// Answers for requests that must not reach Next.js, in the API's own error body: Next answers a
// path with a malformed percent-escape with a plain-text 500, and Node's HTTP parser answers bad
// request lines and oversized headers with an empty 400 or 431.
import { STATUS_CODES } from 'node:http';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

export const newRequestId = () => `req_${ulid().toLowerCase()}`;

/** Methods Next.js route handlers serve; anything else never reaches a handler. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The contract's error body with a fresh request id: `{ status, headers, body }`. */
export function errorReply(status, code, message, details) {
  const requestId = newRequestId();
  const body = JSON.stringify({ error: { code, message, ...(details ? { details } : {}), request_id: requestId } });
  return {
    status,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      'cache-control': 'no-store',
    },
    body,
  };
}

/** The early answer for a request Next.js would mishandle, or null to pass it on. */
export function earlyReply(method, url) {
  if (!KNOWN_METHODS.has(method)) {
    const reply = errorReply(405, 'METHOD_NOT_ALLOWED', `The method ${method} is not supported`, { allowed: [...KNOWN_METHODS] });
    reply.headers.allow = [...KNOWN_METHODS].join(', ');
    return reply;
  }
  const raw = url ?? '/';
  const path = raw.split('?')[0];
  try {
    decodeURIComponent(path);
  } catch {
    return errorReply(400, 'INVALID_REQUEST', 'The request path holds a percent-escape that is not valid UTF-8', {
      field: 'path',
      reason: 'invalid percent-encoding',
    });
  }
  return null;
}

/** The raw HTTP response for an error Node's parser raised before any request existed. */
export function clientErrorResponse(err) {
  const status = err?.code === 'HPE_HEADER_OVERFLOW' ? 431 : err?.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const [code, message] =
    status === 431
      ? ['HEADERS_TOO_LARGE', 'The request headers are too large']
      : status === 408
        ? ['REQUEST_TIMEOUT', 'The request was not received in time']
        : ['INVALID_REQUEST', 'The request is not valid HTTP'];
  const reply = errorReply(status, code, message);
  const head = Object.entries({ ...reply.headers, connection: 'close' })
    .map(([name, value]) => `${name}: ${value}`)
    .join('\r\n');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${reply.body}`;
}
