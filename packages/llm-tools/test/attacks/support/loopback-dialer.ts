import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { buildConnector } from "undici";

/**
 * A connector for the guard's `connect` option that records the address the guard decided to
 * dial and then dials the canary on 127.0.0.1 instead — so even a broken guard can only ever
 * reach this machine, and `dialled` shows exactly what it would have reached.
 */
export interface LoopbackDialer {
  readonly connect: buildConnector.connector;
  /** `address:port` of every dial the guard let through, in order. */
  readonly dialled: string[];
}

export function createLoopbackDialer(canaryPort: number): LoopbackDialer {
  const dialled: string[] = [];
  const real = buildConnector({});
  return {
    dialled,
    connect: (options, callback) => {
      const port = options.port || (options.protocol === "https:" ? "443" : "80");
      dialled.push(`${options.hostname}:${port}`);
      real({ ...options, hostname: "127.0.0.1", port: String(canaryPort), protocol: "http:" }, callback);
    },
  };
}

/**
 * A DNS lookup over a fixed table: made-up names answer with the listed addresses, every other
 * name fails with ENOTFOUND. `asked` records each name looked up. Never touches a resolver.
 */
export function tableLookup(
  table: Readonly<Record<string, readonly string[]>>,
  asked: string[] = [],
): LookupFunction {
  return (hostname, options, callback) => {
    asked.push(hostname);
    const answer: LookupAddress[] | undefined = table[hostname]?.map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
    if (answer === undefined) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      callback(error, "", 4);
      return;
    }
    if (options.all === true) callback(null, answer);
    else callback(null, answer[0]?.address ?? "", answer[0]?.family ?? 4);
  };
}
