import { formatIpv4, parseIpv4, parseIpv6 } from "./ip-address.js";

/** The verdict of the SSRF address policy on one IP address. */
export type AddressVerdict = { blocked: false } | { blocked: true; reason: string };

type Ipv4Range = readonly [base: string, prefixLength: number, reason: string];

/** Special-purpose IPv4 ranges (IANA registry) that a fetch on a model's behalf never reaches. */
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

/**
 * What an IPv6 range means for the policy: refused outright, or judged by the IPv4 address it
 * carries (`embedded` reads it from the eight 16-bit groups, `wrapper` names the form).
 */
type Ipv6Rule =
  | { readonly refuse: string }
  | { readonly embedded: (groups: readonly number[]) => number; readonly wrapper: string };

type Ipv6Range = readonly [base: string, prefixLength: number, rule: Ipv6Rule];

const lowIpv4 = (groups: readonly number[]): number => (groups[6] ?? 0) * 0x10000 + (groups[7] ?? 0);
const sixToFourIpv4 = (groups: readonly number[]): number => (groups[1] ?? 0) * 0x10000 + (groups[2] ?? 0);

/**
 * Special-purpose IPv6 ranges, most specific first (the first match decides). Transition forms
 * that carry an IPv4 address are judged by that address; Teredo (whose client address is
 * obfuscated and whose traffic goes through a relay) is refused. Anything outside the global
 * unicast block 2000::/3 is refused by the last rule.
 */
const IPV6_RANGES: readonly Ipv6Range[] = [
  ["::", 128, { refuse: "unspecified address (::)" }],
  ["::1", 128, { refuse: "loopback (::1)" }],
  ["::ffff:0:0", 96, { embedded: lowIpv4, wrapper: "an IPv4-mapped IPv6 address" }],
  ["::ffff:0:0:0", 96, { embedded: lowIpv4, wrapper: "an IPv4-translated IPv6 address" }],
  ["::", 96, { refuse: "deprecated IPv4-compatible IPv6 address (::/96)" }],
  ["64:ff9b::", 96, { embedded: lowIpv4, wrapper: "a NAT64 address" }],
  ["64:ff9b:1::", 48, { refuse: "local-use NAT64 (64:ff9b:1::/48)" }],
  ["100::", 64, { refuse: "discard-only range (100::/64)" }],
  ["2001::", 32, { refuse: "Teredo tunnel (2001::/32)" }],
  ["2001:2::", 48, { refuse: "benchmarking range (2001:2::/48)" }],
  ["2001::", 23, { refuse: "IETF protocol assignments (2001::/23)" }],
  ["2001:db8::", 32, { refuse: "documentation range (2001:db8::/32)" }],
  ["2002::", 16, { embedded: sixToFourIpv4, wrapper: "a 6to4 address" }],
  ["3fff::", 20, { refuse: "documentation range (3fff::/20)" }],
  ["5f00::", 16, { refuse: "segment routing SIDs (5f00::/16)" }],
  ["::", 8, { refuse: "reserved (::/8)" }],
  ["fc00::", 7, { refuse: "unique-local (fc00::/7)" }],
  ["fe80::", 10, { refuse: "link-local (fe80::/10)" }],
  ["fec0::", 10, { refuse: "site-local (fec0::/10)" }],
  ["ff00::", 8, { refuse: "multicast (ff00::/8)" }],
  ["2000::", -3, { refuse: "not a global unicast address (outside 2000::/3)" }],
];

const IPV4_RANGES = BLOCKED_IPV4.map(([base, prefixLength, reason]) => ({
  base: parseIpv4(base) ?? 0,
  size: 2 ** (32 - prefixLength),
  reason,
}));

const IPV6_MATCHERS = IPV6_RANGES.map(([base, prefixLength, rule]) => {
  // A negative length inverts the match: the rule applies to addresses OUTSIDE the prefix.
  const length = Math.abs(prefixLength);
  const shift = BigInt(128 - length);
  const prefix = toBigInt(parseIpv6(base) ?? []) >> shift;
  return { matches: (value: bigint) => (value >> shift === prefix) === prefixLength >= 0, rule };
});

const ALLOWED: AddressVerdict = { blocked: false };

/**
 * Decides whether an outbound connection to `ip` is refused by the SSRF guard: loopback,
 * private, link-local (and the metadata address), carrier-grade NAT, unspecified, multicast,
 * broadcast, documentation, benchmarking and reserved ranges; IPv6 unique-local, link-local,
 * site-local, Teredo, documentation and everything outside global unicast. IPv4 carried in
 * IPv6 (mapped, translated, NAT64 64:ff9b::/96, 6to4 2002::/16) is unwrapped and judged as IPv4.
 * IPv4 in any `inet_aton` notation (`127.1`, `0x7f.1`, `2130706433`) is read as such.
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
  const value = toBigInt(groups);
  const match = IPV6_MATCHERS.find((matcher) => matcher.matches(value));
  if (match === undefined) return ALLOWED;
  const { rule } = match;
  if ("refuse" in rule) return { blocked: true, reason: rule.refuse };
  return classifyIpv4(rule.embedded(groups), rule.wrapper);
}

function toBigInt(groups: readonly number[]): bigint {
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}
