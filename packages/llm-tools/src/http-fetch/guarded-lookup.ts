import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { classifyAddress } from "./address-policy.js";
import { guardError } from "./guard-error.js";

/**
 * Wraps a DNS lookup so that a name resolving to any refused address (see `classifyAddress`)
 * fails before a socket connects (for a custom agent; the guarded dispatcher checks in its connector). All addresses are resolved and checked, not only the first:
 * a DNS answer that mixes a public and a private address is refused as a whole.
 */
export function createGuardedLookup(toolName: string, lookup: LookupFunction = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, result, family) => {
      if (error) {
        callback(error, []);
        return;
      }
      const addresses = toAddressList(result, family);
      const first = addresses[0];
      if (first === undefined) {
        callback(guardError(toolName, `${toolName}: '${hostname}' resolved to no address`), []);
        return;
      }
      for (const { address } of addresses) {
        const verdict = classifyAddress(address);
        if (verdict.blocked) {
          const message =
            `${toolName}: refused to connect to '${hostname}': it resolves to ${address}, ` +
            `${verdict.reason} (set allowPrivateNetwork: true to allow private addresses)`;
          callback(guardError(toolName, message), []);
          return;
        }
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

function toAddressList(result: string | LookupAddress[], family: number | undefined): LookupAddress[] {
  if (Array.isArray(result)) return result;
  return result === "" ? [] : [{ address: result, family: family ?? (result.includes(":") ? 6 : 4) }];
}
