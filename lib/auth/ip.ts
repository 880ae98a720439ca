import ipaddr from 'ipaddr.js';

/** Parses an IP address, mapping IPv4-mapped IPv6 addresses (::ffff:1.2.3.4) to IPv4. */
export function parseIp(value: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const trimmed = value.trim().replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(trimmed)) return null;
  // Only canonical dotted-quad IPv4 (ipaddr.isValid accepts forms like "0x7f.1" too).
  if (trimmed.includes('.') && !trimmed.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(trimmed)) return null;
  const addr = ipaddr.parse(trimmed);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/** True when `entry` is a valid IP address or CIDR range (IPv4 or IPv6). */
export function isValidIpOrCidr(entry: string): boolean {
  if (entry.includes('/')) {
    try {
      ipaddr.parseCIDR(entry.trim());
      const [addr] = entry.split('/');
      return parseIp(addr) !== null || ipaddr.IPv6.isValid(addr);
    } catch {
      return false;
    }
  }
  return parseIp(entry) !== null;
}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address or CIDR entry as a network and prefix length (IPv4-mapped ranges as IPv4), or null. */
function toRange(entry: string): Range | null {
  const text = entry.trim();
  if (!text.includes('/')) {
    const addr = parseIp(text);
    return addr ? [addr, addr.kind() === 'ipv4' ? 32 : 128] : null;
  }
  try {
    let [net, bits] = ipaddr.parseCIDR(text);
    if (net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      net = (net as ipaddr.IPv6).toIPv4Address();
      bits -= 96;
    }
    return [net, bits];
  } catch {
    return null;
  }
}

/** True when every address of `entry` (an address or CIDR range) lies in one of the `allowed` entries. */
export function rangeCovered(entry: string, allowed: readonly string[]): boolean {
  const inner = toRange(entry);
  if (!inner) return false;
  return allowed.some((a) => {
    const outer = toRange(a);
    return !!outer && outer[0].kind() === inner[0].kind() && inner[1] >= outer[1] && inner[0].match(outer as never);
  });
}

/** True when `ip` matches one of the allowed entries (addresses or CIDR ranges). */
export function ipAllowed(ip: string | null, allowed: readonly string[]): boolean {
  return !!ip && !ip.includes('/') && rangeCovered(ip, allowed);
}
