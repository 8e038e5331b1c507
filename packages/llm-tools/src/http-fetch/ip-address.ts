/**
 * IP address parsing for the SSRF guard. IPv4 accepts every notation `inet_aton` accepts
 * (`127.1`, `0x7f.0.0.1`, `2130706433`, `0177.0.0.1`), because some resolvers and clients do;
 * IPv6 accepts `::` compression, an embedded dotted IPv4 tail, brackets and a zone id.
 */

const IPV4_PART = /^(?:0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i;
const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;

/** Parses an IPv4 address in any `inet_aton` notation to an unsigned 32-bit number. */
export function parseIpv4(text: string): number | undefined {
  const parts = text.endsWith(".") ? text.slice(0, -1).split(".") : text.split(".");
  if (parts.length < 1 || parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return undefined;
    const value = parsePart(part);
    if (value === undefined) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() ?? 0;
  if (numbers.some((value) => value > 255)) return undefined;
  if (last >= 2 ** (8 * (4 - numbers.length))) return undefined;
  let address = 0;
  for (const [index, value] of numbers.entries()) address += value * 2 ** (8 * (3 - index));
  return address + last;
}

function parsePart(part: string): number | undefined {
  if (/^0x/i.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (part.length > 1 && part.startsWith("0")) return Number.parseInt(part.slice(1), 8);
  const value = Number(part);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Parses an IPv6 address to its eight 16-bit groups; brackets and a `%zone` suffix are ignored. */
export function parseIpv6(text: string): number[] | undefined {
  let address = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = address.indexOf("%");
  if (zone !== -1) address = address.slice(0, zone);
  if (!address.includes(":")) return undefined;
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? "", halves.length === 1);
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? "", true) : [];
  if (head === undefined || tail === undefined) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return undefined;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

function parseGroups(text: string, mayEndWithIpv4: boolean): number[] | undefined {
  if (text === "") return [];
  const pieces = text.split(":");
  const groups: number[] = [];
  for (const [index, piece] of pieces.entries()) {
    if (mayEndWithIpv4 && index === pieces.length - 1 && piece.includes(".")) {
      if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(piece)) return undefined;
      const ipv4 = parseIpv4(piece);
      if (ipv4 === undefined) return undefined;
      groups.push(Math.floor(ipv4 / 0x10000), ipv4 % 0x10000);
    } else {
      if (!IPV6_GROUP.test(piece)) return undefined;
      groups.push(Number.parseInt(piece, 16));
    }
  }
  return groups;
}

/** Formats an unsigned 32-bit IPv4 number as a dotted quad. */
export function formatIpv4(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join(".");
}
