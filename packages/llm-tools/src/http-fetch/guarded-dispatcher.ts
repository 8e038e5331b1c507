import { isIP, type LookupFunction } from "node:net";
import { Agent, type Dispatcher, interceptors } from "undici";
import { classifyAddress } from "./address-policy.js";
import { describeUrl } from "./describe-url.js";
import { createGuardedLookup, guardError } from "./guarded-lookup.js";
import { type HostAllowlist, isHostAllowed, normalizeHost, prepareHostAllowlist } from "./host-allowlist.js";
import { booleanOption, integerOption, optionError } from "./option-checks.js";

/** Options of `createGuardedDispatcher`. */
export interface GuardedDispatcherOptions {
  /** Allow loopback, private, link-local and other non-public addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /** Exact host names (case-insensitive) every request and redirect hop must target; empty = any. */
  hostAllowlist?: readonly string[];
  /** Redirects followed before the 3xx response is handed back as it is. Default 5. */
  maxRedirections?: number;
  /** The DNS lookup to guard; defaults to `dns.lookup`. Tests inject one to resolve made-up names. */
  lookup?: LookupFunction;
  /** The tool named in refusal errors. Default "http_fetch". */
  toolName?: string;
}

/**
 * An undici dispatcher that refuses server-side request forgery: every redirect hop is checked
 * against the host allowlist and for refused IP literals, and every connection re-checks the
 * addresses DNS returned at connect time (so rebinding between check and use does not help).
 */
export function createGuardedDispatcher(options: GuardedDispatcherOptions = {}): Dispatcher {
  const toolName = options.toolName ?? "http_fetch";
  const allowPrivateNetwork = booleanOption(
    options.allowPrivateNetwork,
    "allowPrivateNetwork",
    false,
    toolName,
  );
  const maxRedirections = integerOption(options.maxRedirections, "maxRedirections", 0, 5, toolName);
  if (options.hostAllowlist !== undefined && !Array.isArray(options.hostAllowlist)) {
    throw optionError(toolName, "hostAllowlist", "an array of host names", options.hostAllowlist);
  }
  if (options.lookup !== undefined && typeof options.lookup !== "function") {
    throw optionError(toolName, "lookup", "a dns.lookup-compatible function", options.lookup);
  }
  const allowlist = prepareHostAllowlist(options.hostAllowlist ?? [], toolName);
  const lookup = allowPrivateNetwork ? options.lookup : createGuardedLookup(toolName, options.lookup);
  return new Agent({ connect: lookup === undefined ? {} : { lookup } }).compose(
    createHopCheck(allowlist, allowPrivateNetwork, toolName),
    interceptors.redirect({ maxRedirections }),
  );
}

/** Checks each hop (the first request and every redirect) before it is dispatched. */
function createHopCheck(
  allowlist: HostAllowlist,
  allowPrivateNetwork: boolean,
  toolName: string,
): Dispatcher.DispatcherComposeInterceptor {
  const seen = new WeakSet<object>();
  return (dispatch) => (dispatchOptions, handler) => {
    const redirected = seen.has(handler);
    seen.add(handler);
    const target = new URL(dispatchOptions.path, String(dispatchOptions.origin));
    const refusal = checkHop(target, allowlist, allowPrivateNetwork, toolName, redirected);
    if (refusal === undefined) return dispatch(dispatchOptions, handler);
    handler.onResponseError?.(refusedController(refusal), refusal);
    return true;
  };
}

function checkHop(
  target: URL,
  allowlist: HostAllowlist,
  allowPrivateNetwork: boolean,
  toolName: string,
  redirected: boolean,
): Error | undefined {
  const where = redirected ? `redirect to ${describeUrl(target)}` : `request to ${describeUrl(target)}`;
  if (!isHostAllowed(allowlist, target.hostname)) {
    return guardError(
      toolName,
      `${toolName}: refused ${where}: host '${normalizeHost(target.hostname)}' is not in hostAllowlist ` +
        `[${[...allowlist].join(", ")}]`,
    );
  }
  if (allowPrivateNetwork) return undefined;
  const reason = blockedReason(target.hostname);
  return reason === undefined ? undefined : guardError(toolName, `${toolName}: refused ${where}: ${reason}`);
}

/** Why an IP-literal host is refused (IP literals never reach a DNS lookup); names are left to the lookup. */
function blockedReason(hostname: string): string | undefined {
  const host = normalizeHost(hostname);
  if (isIP(host) === 0) return undefined;
  const verdict = classifyAddress(host);
  return verdict.blocked
    ? `address ${host} is ${verdict.reason} (set allowPrivateNetwork: true to allow private addresses)`
    : undefined;
}

function refusedController(reason: Error): Dispatcher.DispatchController {
  return {
    aborted: true,
    paused: false,
    reason,
    abort: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
  };
}
