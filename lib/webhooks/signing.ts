import { createHmac } from 'node:crypto';

/*
 * Every delivery is signed twice over the same raw body:
 *  - X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the body, keyed with the secret>;
 *  - Standard Webhooks (https://www.standardwebhooks.com): webhook-id, webhook-timestamp (Unix
 *    seconds of this attempt) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>",
 *    keyed with the secret's UTF-8 bytes, so a receiver can also reject replays by their age.
 */

export function serviceSignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export function standardSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secret).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

export interface DeliveryHeadersInput {
  secret: string;
  body: string;
  eventId: string;
  eventType: string;
  deliveryId: string;
  /** Unix seconds. */
  timestamp: number;
}

export function deliveryHeaders(input: DeliveryHeadersInput): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Quarry-Webhooks/1',
    'x-service-signature': serviceSignature(input.secret, input.body),
    'x-service-event': input.eventType,
    'x-service-delivery': input.deliveryId,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(input.timestamp),
    'webhook-signature': standardSignature(input.secret, input.eventId, input.timestamp, input.body),
  };
}
