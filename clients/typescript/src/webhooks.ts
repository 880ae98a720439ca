// Checking that a webhook delivery came from Quarry. Every delivery is signed two ways over the
// same raw body (lib/webhooks/signing.ts on the server):
//  - X-Service-Signature: "sha256=" + hex HMAC-SHA256 of the body, keyed with the secret;
//  - Standard Webhooks: webhook-id, webhook-timestamp (Unix seconds) and webhook-signature
//    "v1," + base64 HMAC-SHA256 of "id.timestamp.body", keyed with the secret's UTF-8 bytes.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The envelope every delivery POSTs. */
export interface WebhookEvent<TData = Record<string, unknown>> {
  id: string;
  type: string;
  created_at: string;
  data: TData;
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The webhook's secret, as given when it was created. */
  secret: string;
  /** The raw request body, exactly as received (not parsed and re-serialised). */
  body: string | Uint8Array;
  /** The request headers (Node's `req.headers`, a Fetch `Headers`, or a plain object). */
  headers: WebhookHeaders;
  /**
   * Which signatures must hold. `both` (default, what Quarry sends) and `standard` also reject a
   * timestamp outside `toleranceSeconds`, so a captured delivery cannot be replayed later;
   * `service` checks X-Service-Signature alone, which carries no timestamp.
   */
  scheme?: 'both' | 'standard' | 'service';
  /** Largest accepted age (or clock skew) of webhook-timestamp, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time in milliseconds (for tests). */
  now?: number;
}

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(', ') : value;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const bytesOf = (body: string | Uint8Array) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength));

/** Whether `signature` (the X-Service-Signature header) is the body's `sha256=<hex>` HMAC. */
export function verifyServiceSignature(secret: string, body: string | Uint8Array, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(bytesOf(body)).digest('hex')}`;
  return sameText(expected, signature.trim().toLowerCase());
}

/**
 * Whether the Standard Webhooks headers sign the body: one of the space-separated `v1,<base64>`
 * signatures matches, and the timestamp is within `toleranceSeconds` of now.
 */
export function verifyStandardSignature(
  secret: string,
  body: string | Uint8Array,
  headers: { id: string | undefined; timestamp: string | undefined; signature: string | undefined },
  { toleranceSeconds = 300, now = Date.now() }: { toleranceSeconds?: number; now?: number } = {},
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(`${id}.${timestamp}.`, 'utf8').update(bytesOf(body));
  const expected = `v1,${mac.digest('base64')}`;
  return signature.split(' ').some((candidate) => candidate !== '' && sameText(expected, candidate));
}

/**
 * Checks a delivery's signatures and returns its parsed envelope, or throws
 * WebhookVerificationError saying what did not hold.
 */
export function verifyWebhook<TData = Record<string, unknown>>(input: VerifyWebhookInput): WebhookEvent<TData> {
  const { secret, body, headers, scheme = 'both' } = input;
  if (!secret) throw new WebhookVerificationError('No webhook secret was given');
  if (scheme !== 'service') {
    const standard = { id: header(headers, 'webhook-id'), timestamp: header(headers, 'webhook-timestamp'), signature: header(headers, 'webhook-signature') };
    if (!standard.id || !standard.timestamp || !standard.signature) {
      throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header');
    }
    if (!verifyStandardSignature(secret, body, standard, input)) {
      const age = Math.abs((input.now ?? Date.now()) / 1000 - Number(standard.timestamp));
      throw new WebhookVerificationError(
        age > (input.toleranceSeconds ?? 300) ? `webhook-timestamp is ${Math.round(age)} s away from now` : 'webhook-signature does not match the body',
      );
    }
  }
  if (scheme !== 'standard') {
    const signature = header(headers, 'x-service-signature');
    if (!signature) throw new WebhookVerificationError('Missing X-Service-Signature header');
    if (!verifyServiceSignature(secret, body, signature)) throw new WebhookVerificationError('X-Service-Signature does not match the body');
  }
  const text = typeof body === 'string' ? body : bytesOf(body).toString('utf8');
  try {
    return JSON.parse(text) as WebhookEvent<TData>;
  } catch {
    throw new WebhookVerificationError('The body is not JSON');
  }
}
