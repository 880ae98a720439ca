import dns, { type LookupAddress } from 'node:dns';
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';
import { parseIp } from '@/lib/auth/ip';

/*
 * Server-side request forgery guard. A webhook may only reach public unicast addresses: never
 * loopback, private (RFC 1918, unique local), link-local (which holds cloud metadata services such
 * as 169.254.169.254), carrier-grade NAT, multicast, broadcast, reserved or documentation ranges.
 * The target's name is resolved once per attempt, every address it resolves to must be public,
 * and the connection goes to the checked address: a DNS answer that changes between the check and
 * the connection (DNS rebinding) cannot redirect it.
 */

export type LookupFunction = (hostname: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: LookupFunction = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** True for a public unicast address (IPv4-mapped IPv6 is judged as its IPv4 address). */
export function isPublicAddress(ip: string): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  const range = addr.range();
  if (addr.kind() === 'ipv4') return range === 'unicast';
  // Global unicast IPv6 is 2000::/3; ipaddr.js calls everything it has no other name for "unicast".
  return range === 'unicast' && (addr as ipaddr.IPv6).match(ipaddr.IPv6.parse('2000::'), 3);
}

/**
 * A host name as every check must see it: without IPv6 brackets, lower case, without trailing
 * dots ("LOCALHOST." is "localhost"), and in its ASCII (IDNA) form, so that no spelling of a name
 * slips past a comparison that its canonical form would fail.
 */
export function normaliseHostname(hostname: string): string {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase().replace(/\.+$/, '');
  if (bare.includes(':')) return bare;
  return domainToASCII(bare) || bare;
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

/** Names that only mean something on a local network (and single-label names, which resolve there). */
export function isLocalName(host: string): boolean {
  return host === 'localhost' || !host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix));
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a URL's host to the address to connect to. Throws BlockedAddressError when any resolved
 * address is not public (unless `allowPrivate`), or when the name does not resolve.
 */
export async function resolveTarget(
  hostname: string,
  opts: { allowPrivate: boolean; lookup?: LookupFunction; /** Who is refused, for the message (default webhooks). */ subject?: 'webhooks' | 'sources' },
): Promise<ResolvedTarget> {
  const subject = opts.subject ?? 'webhooks';
  const host = normaliseHostname(hostname);
  const literal = parseIp(host);
  if (!literal && !opts.allowPrivate && isLocalName(host)) {
    throw new BlockedAddressError(`${host} is a local host name; ${subject} may not reach private, loopback, link-local or metadata addresses`);
  }
  let addresses: { address: string; family: number }[];
  if (literal) addresses = [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }];
  else {
    try {
      addresses = await (opts.lookup ?? systemLookup)(host);
    } catch (err) {
      throw new BlockedAddressError(`${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  if (addresses.length === 0) throw new BlockedAddressError(`${host} does not resolve`);
  if (!opts.allowPrivate) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) {
      throw new BlockedAddressError(`${host} resolves to ${blocked.address}, which is not a public address; ${subject} may not reach private, loopback, link-local or metadata addresses`);
    }
  }
  const first = addresses[0];
  const parsed = parseIp(first.address)!;
  return { address: parsed.toString(), family: parsed.kind() === 'ipv4' ? 4 : 6 };
}

/**
 * A `lookup` for http(s).request that answers only `target`: the connection goes to the checked
 * address whatever the name resolves to by then (TLS still verifies the certificate against the name).
 */
export function pinnedLookup(target: ResolvedTarget) {
  return (
    _hostname: string,
    options: { all?: boolean },
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
