import { describe, expect, it } from "vitest";
import { classifyAddress } from "../src/http-fetch/index.js";

function reasonOf(ip: string): string | undefined {
  const verdict = classifyAddress(ip);
  return verdict.blocked ? verdict.reason : undefined;
}

describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private network (10.0.0.0/8)"],
    ["172.16.0.1", "private network (172.16.0.0/12)"],
    ["172.31.255.255", "private network (172.16.0.0/12)"],
    ["192.168.1.1", "private network (192.168.0.0/16)"],
    ["169.254.169.254", "cloud metadata service"],
    ["169.254.1.1", "link-local (169.254.0.0/16)"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.100.100.200", "carrier-grade NAT"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved (240.0.0.0/4)"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
  ])("refuses IPv4 %s (%s)", (ip, reason) => {
    expect(reasonOf(ip)).toContain(reason);
  });

  it.each([
    ["::1", "loopback (::1)"],
    ["::", "unspecified"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fd00:ec2::254", "unique-local"],
    ["fe80::1", "link-local (fe80::/10)"],
    ["fe80::1%eth0", "link-local (fe80::/10)"],
    ["febf::1", "link-local (fe80::/10)"],
    ["fec0::1", "site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["::7f00:1", "IPv4-compatible"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["100::1", "discard-only"],
  ])("refuses IPv6 %s (%s)", (ip, reason) => {
    expect(reasonOf(ip)).toContain(reason);
  });

  it.each([
    ["::ffff:127.0.0.1", "loopback (127.0.0.0/8) embedded in an IPv4-mapped IPv6 address as 127.0.0.1"],
    ["::ffff:7f00:1", "loopback (127.0.0.0/8) embedded in an IPv4-mapped IPv6 address as 127.0.0.1"],
    [
      "[::ffff:a9fe:a9fe]",
      "cloud metadata service (169.254.169.254) embedded in an IPv4-mapped IPv6 address as 169.254.169.254",
    ],
    [
      "::ffff:0:10.1.2.3",
      "private network (10.0.0.0/8) embedded in an IPv4-translated IPv6 address as 10.1.2.3",
    ],
    ["64:ff9b::a00:1", "private network (10.0.0.0/8) embedded in a NAT64 address as 10.0.0.1"],
    ["2002:7f00:1::", "loopback (127.0.0.0/8) embedded in a 6to4 address as 127.0.0.1"],
    ["2002:c0a8:0101::1", "private network (192.168.0.0/16) embedded in a 6to4 address as 192.168.1.1"],
  ])("unwraps IPv4 embedded in IPv6: %s", (ip, reason) => {
    expect(reasonOf(ip)).toBe(reason);
  });

  it.each([
    ["2130706433", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0xa9.0xfe.0xa9.0xfe", "169.254.169.254"],
    ["10.1", "10.0.0.1"],
  ])("reads the non-canonical IPv4 notation %s as %s", (ip, canonical) => {
    expect(classifyAddress(ip)).toEqual(classifyAddress(canonical));
    expect(classifyAddress(ip).blocked).toBe(true);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:0808:0808::1",
  ])("allows the public address %s", (ip) => {
    expect(classifyAddress(ip)).toEqual({ blocked: false });
  });

  it.each(["example.com", "", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "1::2::3", "12345::", "::ffff:1.2.3"])(
    "refuses %j, which is not an IP address",
    (text) => {
      expect(classifyAddress(text)).toEqual({ blocked: true, reason: `'${text}' is not an IP address` });
    },
  );
});
