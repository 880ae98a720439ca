/**
 * The header the Quarry server sets to the peer address of each connection. Any value a client
 * sends under this name is removed by the server before the request reaches a handler.
 */
export const CLIENT_IP_HEADER = 'x-quarry-client-ip';

/**
 * The caller's address. With QUARRY_TRUST_PROXY the last X-Forwarded-For entry is used: it is the
 * one the trusted proxy in front of Quarry appended, so a client cannot forge it.
 */
export function clientIp(headers: Headers, trustProxy: boolean): string | null {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for');
    if (forwarded) {
      const hops = forwarded
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h !== '');
      if (hops.length > 0) return hops[hops.length - 1];
    }
  }
  return headers.get(CLIENT_IP_HEADER);
}
