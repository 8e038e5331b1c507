import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { buildConnector } from "undici";
import { classifyAddress } from "./address-policy.js";
import { guardError } from "./guard-error.js";
import { type HostAllowlist, isHostAllowed, normalizeHost } from "./host-allowlist.js";
import { formatIpv4, parseIpv4 } from "./ip-address.js";

/** Options of `createGuardedConnector`. */
export interface GuardedConnectorOptions {
  /** The tool named in refusal errors. */
  readonly toolName: string;
  /** Prepared host allowlist; empty = any host. Judged on the origin of every connection. */
  readonly allowlist: HostAllowlist;
  /** Skip the address policy (the allowlist still applies). */
  readonly allowPrivateNetwork: boolean;
  /** Resolves names; defaults to `dns.lookup`. Every address it returns is checked. */
  readonly lookup?: LookupFunction | undefined;
  /** Opens the socket to the checked address; defaults to undici's connector. */
  readonly connect?: buildConnector.connector | undefined;
}

/**
 * An undici connector that enforces the SSRF policy on the socket itself. For every connection
 * (the first request, each redirect hop, each reconnect) it takes the origin's host name — never
 * a request path — checks it against the allowlist, turns it into addresses (an IP literal in any
 * notation as itself, a name through the lookup, all answers), refuses the connection when any
 * address is refused by `classifyAddress`, and otherwise opens the socket to the checked address
 * (TLS keeps the name for SNI and certificate checks). Nothing is dialled before the verdict.
 */
export function createGuardedConnector(options: GuardedConnectorOptions): buildConnector.connector {
  const { toolName, allowlist, allowPrivateNetwork } = options;
  const lookup = options.lookup ?? dnsLookup;
  const connect = options.connect ?? buildConnector({});
  return (connectOptions, callback) => {
    const host = normalizeHost(connectOptions.hostname);
    const where = `${connectOptions.protocol}//${connectOptions.host ?? host}`;
    if (!isHostAllowed(allowlist, host)) {
      callback(
        guardError(
          toolName,
          `${toolName}: refused to connect to ${where}: host '${host}' is not in hostAllowlist ` +
            `[${[...allowlist].join(", ")}]`,
        ),
        null,
      );
      return;
    }
    const literal = ipLiteral(host);
    const servername =
      literal === undefined ? (connectOptions.servername ?? host) : connectOptions.servername;
    // Dials the checked addresses in order, moving on when one cannot be reached (an IPv6
    // answer on a host without IPv6, say); every one of them passed the policy.
    const dial = (addresses: readonly string[], index = 0): void => {
      const address = addresses[index] ?? "";
      connect(
        { ...connectOptions, hostname: address, ...(servername ? { servername } : {}) },
        (error, socket) => {
          if (error === null) {
            callback(null, socket);
          } else if (index + 1 < addresses.length && UNREACHABLE.has(codeOf(error))) {
            dial(addresses, index + 1);
          } else {
            callback(error, null);
          }
        },
      );
    };
    if (literal !== undefined) {
      const refusal = allowPrivateNetwork ? undefined : refusalFor(literal, `${where}`, toolName);
      if (refusal !== undefined) callback(refusal, null);
      else dial([literal]);
      return;
    }
    lookup(host, { all: true }, (error, result, family) => {
      if (error) {
        callback(error, null);
        return;
      }
      const addresses = toAddressList(result, family);
      const first = addresses[0];
      if (first === undefined) {
        callback(guardError(toolName, `${toolName}: '${host}' resolved to no address`), null);
        return;
      }
      if (!allowPrivateNetwork) {
        for (const { address } of addresses) {
          const verdict = classifyAddress(address);
          if (verdict.blocked) {
            callback(
              guardError(
                toolName,
                `${toolName}: refused to connect to '${host}': it resolves to ${address}, ` +
                  `${verdict.reason} (set allowPrivateNetwork: true to allow private addresses)`,
              ),
              null,
            );
            return;
          }
        }
      }
      dial(addresses.map(({ address }) => address));
    });
  };
}

/** Connection errors after which the next resolved address is tried. */
const UNREACHABLE = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "EAFNOSUPPORT"]);

function codeOf(error: Error): string {
  const code: unknown = Reflect.get(error, "code");
  return typeof code === "string" ? code : "";
}

/** The host as an IP address to dial when it is an IP literal in any notation, else undefined. */
function ipLiteral(host: string): string | undefined {
  if (isIP(host) !== 0) return host;
  const ipv4 = parseIpv4(host);
  return ipv4 === undefined ? undefined : formatIpv4(ipv4);
}

function refusalFor(address: string, where: string, toolName: string): Error | undefined {
  const verdict = classifyAddress(address);
  if (!verdict.blocked) return undefined;
  return guardError(
    toolName,
    `${toolName}: refused to connect to ${where}: address ${address} is ${verdict.reason} ` +
      "(set allowPrivateNetwork: true to allow private addresses)",
  );
}

function toAddressList(result: string | LookupAddress[], family: number | undefined): LookupAddress[] {
  if (Array.isArray(result)) return result;
  return result === "" ? [] : [{ address: result, family: family ?? (result.includes(":") ? 6 : 4) }];
}
