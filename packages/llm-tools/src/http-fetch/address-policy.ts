import { formatIpv4, parseIpv4, parseIpv6 } from "./ip-address.js";

/** The verdict of the SSRF address policy on one IP address. */
export type AddressVerdict = { blocked: false } | { blocked: true; reason: string };

type Ipv4Range = readonly [base: string, prefixLength: number, reason: string];

const BLOCKED_IPV4: readonly Ipv4Range[] = [
  ["0.0.0.0", 8, "unspecified address (0.0.0.0/8)"],
  ["10.0.0.0", 8, "private network (10.0.0.0/8)"],
  ["100.64.0.0", 10, "carrier-grade NAT (100.64.0.0/10)"],
  ["127.0.0.0", 8, "loopback (127.0.0.0/8)"],
  ["169.254.169.254", 32, "cloud metadata service (169.254.169.254)"],
  ["169.254.0.0", 16, "link-local (169.254.0.0/16)"],
  ["172.16.0.0", 12, "private network (172.16.0.0/12)"],
  ["192.0.0.0", 24, "IETF protocol assignments (192.0.0.0/24)"],
  ["192.0.2.0", 24, "documentation range (192.0.2.0/24)"],
  ["192.88.99.0", 24, "6to4 relay anycast (192.88.99.0/24)"],
  ["192.168.0.0", 16, "private network (192.168.0.0/16)"],
  ["198.18.0.0", 15, "benchmarking range (198.18.0.0/15)"],
  ["198.51.100.0", 24, "documentation range (198.51.100.0/24)"],
  ["203.0.113.0", 24, "documentation range (203.0.113.0/24)"],
  ["224.0.0.0", 4, "multicast (224.0.0.0/4)"],
  ["255.255.255.255", 32, "broadcast (255.255.255.255)"],
  ["240.0.0.0", 4, "reserved (240.0.0.0/4)"],
];

const IPV4_RANGES = BLOCKED_IPV4.map(([base, prefixLength, reason]) => ({
  base: parseIpv4(base) ?? 0,
  size: 2 ** (32 - prefixLength),
  reason,
}));

const ALLOWED: AddressVerdict = { blocked: false };

/**
 * Decides whether an outbound connection to `ip` is refused by the SSRF guard: loopback,
 * private, link-local (and the metadata address), carrier-grade NAT, unspecified, multicast,
 * broadcast, documentation and reserved ranges, IPv6 unique-local, link-local and site-local.
 * IPv4 embedded in IPv6 (mapped, translated, NAT64, 6to4) is unwrapped and judged as IPv4.
 * Anything that is not an IP address is refused.
 */
export function classifyAddress(ip: string): AddressVerdict {
  const ipv4 = parseIpv4(ip);
  if (ipv4 !== undefined) return classifyIpv4(ipv4);
  const groups = parseIpv6(ip);
  if (groups !== undefined) return classifyIpv6(groups);
  return { blocked: true, reason: `'${ip}' is not an IP address` };
}

function classifyIpv4(address: number, wrapper?: string): AddressVerdict {
  const range = IPV4_RANGES.find(({ base, size }) => address >= base && address < base + size);
  if (range === undefined) return ALLOWED;
  const where = wrapper === undefined ? "" : ` embedded in ${wrapper} as ${formatIpv4(address)}`;
  return { blocked: true, reason: `${range.reason}${where}` };
}

function classifyIpv6(groups: readonly number[]): AddressVerdict {
  const group = (index: number): number => groups[index] ?? 0;
  const zeroUpTo = (end: number): boolean => groups.slice(0, end).every((value) => value === 0);
  const lowIpv4 = group(6) * 0x10000 + group(7);
  if (zeroUpTo(8)) return { blocked: true, reason: "unspecified address (::)" };
  if (zeroUpTo(7) && group(7) === 1) return { blocked: true, reason: "loopback (::1)" };
  if (zeroUpTo(5) && group(5) === 0xffff) return classifyIpv4(lowIpv4, "an IPv4-mapped IPv6 address");
  if (zeroUpTo(4) && group(4) === 0xffff && group(5) === 0) {
    return classifyIpv4(lowIpv4, "an IPv4-translated IPv6 address");
  }
  if (zeroUpTo(6)) return { blocked: true, reason: "deprecated IPv4-compatible IPv6 address (::/96)" };
  if (group(0) === 0x64 && group(1) === 0xff9b) {
    if (groups.slice(2, 6).every((value) => value === 0)) return classifyIpv4(lowIpv4, "a NAT64 address");
    if (group(2) === 1) return { blocked: true, reason: "local-use NAT64 (64:ff9b:1::/48)" };
  }
  if (group(0) === 0x2002) return classifyIpv4(group(1) * 0x10000 + group(2), "a 6to4 address");
  if (group(0) === 0x2001 && group(1) === 0x0db8) {
    return { blocked: true, reason: "documentation range (2001:db8::/32)" };
  }
  if (group(0) === 0x0100 && groups.slice(1, 4).every((value) => value === 0)) {
    return { blocked: true, reason: "discard-only range (100::/64)" };
  }
  if (group(0) < 0x0100) return { blocked: true, reason: "reserved (::/8)" };
  if ((group(0) & 0xfe00) === 0xfc00) return { blocked: true, reason: "unique-local (fc00::/7)" };
  if ((group(0) & 0xffc0) === 0xfe80) return { blocked: true, reason: "link-local (fe80::/10)" };
  if ((group(0) & 0xffc0) === 0xfec0) return { blocked: true, reason: "site-local (fec0::/10)" };
  if ((group(0) & 0xff00) === 0xff00) return { blocked: true, reason: "multicast (ff00::/8)" };
  return ALLOWED;
}
