import type { LookupFunction } from "node:net";
import { Agent, type buildConnector, type Dispatcher, interceptors } from "undici";
import { classifyAddress } from "./address-policy.js";
import { guardError } from "./guard-error.js";
import { createGuardedConnector } from "./guarded-connector.js";
import { type HostAllowlist, isHostAllowed, normalizeHost, prepareHostAllowlist } from "./host-allowlist.js";
import { formatIpv4, parseIpv4 } from "./ip-address.js";
import { booleanOption, integerOption, optionError } from "./option-checks.js";

/** Options of `createGuardedDispatcher`. */
export interface GuardedDispatcherOptions {
  /** Allow loopback, private, link-local and other non-public addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /** Exact host names (case-insensitive) every connection and redirect hop must target; empty = any. */
  hostAllowlist?: readonly string[];
  /** Redirects followed before the 3xx response is handed back as it is. Default 5. */
  maxRedirections?: number;
  /** The DNS lookup to guard; defaults to `dns.lookup`. Tests inject one to resolve made-up names. */
  lookup?: LookupFunction;
  /**
   * Opens the socket once the guard has checked the address (it receives the checked address as
   * `hostname`); defaults to undici's connector. For proxies, custom TLS, or tests that must
   * never dial anything but loopback.
   */
  connect?: buildConnector.connector;
  /** The tool named in refusal errors. Default "http_fetch". */
  toolName?: string;
}

/**
 * An undici dispatcher that refuses server-side request forgery where it matters: on the socket.
 * Its connector judges every connection — first request, each redirect hop, each reconnect — by
 * the origin it connects to (never by how a path parses): the host must be in the allowlist, and
 * the address actually dialled (an IP literal, or every address the lookup returns) must pass
 * `classifyAddress` unless `allowPrivateNetwork`. A per-hop check in front of the redirect
 * interceptor refuses the same hops earlier, with the redirect named in the message.
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
  if (options.connect !== undefined && typeof options.connect !== "function") {
    throw optionError(toolName, "connect", "an undici connector function", options.connect);
  }
  const allowlist = prepareHostAllowlist(options.hostAllowlist ?? [], toolName);
  const connect = createGuardedConnector({
    toolName,
    allowlist,
    allowPrivateNetwork,
    lookup: options.lookup,
    connect: options.connect,
  });
  return guardRedirects(new Agent({ connect }), {
    allowlist,
    allowPrivateNetwork,
    maxRedirections,
    toolName,
  });
}

/** Options of `guardRedirects`. */
export interface RedirectGuardOptions {
  readonly allowlist: HostAllowlist;
  /** When false, a hop to an IP literal outside the public address space is refused too. */
  readonly allowPrivateNetwork: boolean;
  readonly maxRedirections: number;
  readonly toolName: string;
}

/**
 * `dispatcher` with redirects followed by routekit, each hop (the first request and every
 * redirect) checked by its origin before it is dispatched. Every hop goes to `dispatcher` with
 * `maxRedirections: 0`, so a redirect interceptor inside it passes the 3xx back instead of
 * following it unchecked: the check holds whatever dispatcher is given.
 */
export function guardRedirects(dispatcher: Dispatcher, options: RedirectGuardOptions): Dispatcher {
  return dispatcher.compose(
    createHopCheck(options.allowlist, options.allowPrivateNetwork, options.toolName),
    interceptors.redirect({ maxRedirections: options.maxRedirections }),
  );
}

/** Checks each hop (the first request and every redirect) by its origin before it is dispatched. */
function createHopCheck(
  allowlist: HostAllowlist,
  allowPrivateNetwork: boolean,
  toolName: string,
): Dispatcher.DispatcherComposeInterceptor {
  const seen = new WeakSet<object>();
  return (dispatch) => (dispatchOptions, handler) => {
    const redirected = seen.has(handler);
    seen.add(handler);
    const refusal = checkHop(
      String(dispatchOptions.origin ?? ""),
      dispatchOptions.path,
      allowlist,
      allowPrivateNetwork,
      toolName,
      redirected,
    );
    // No redirect interceptor below this one may follow a hop this check has not seen.
    if (refusal === undefined) return dispatch(withoutRedirects(dispatchOptions), handler);
    handler.onResponseError?.(refusedController(refusal), refusal);
    return true;
  };
}

function checkHop(
  origin: string,
  path: string,
  allowlist: HostAllowlist,
  allowPrivateNetwork: boolean,
  toolName: string,
  redirected: boolean,
): Error | undefined {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname;
  } catch {
    return guardError(toolName, `${toolName}: refused a request with no valid origin (found '${origin}')`);
  }
  // Shown as sent: origin, then the path as is (a path is never resolved as a URL of its own).
  const where = `${redirected ? "redirect to" : "request to"} ${origin.replace(/\/$/, "")}${path}`;
  if (!isHostAllowed(allowlist, hostname)) {
    return guardError(
      toolName,
      `${toolName}: refused ${where}: host '${normalizeHost(hostname)}' is not in hostAllowlist ` +
        `[${[...allowlist].join(", ")}]`,
    );
  }
  if (allowPrivateNetwork) return undefined;
  const reason = blockedReason(hostname);
  return reason === undefined ? undefined : guardError(toolName, `${toolName}: refused ${where}: ${reason}`);
}

/** Why an IP-literal host is refused; names are judged by the connector once resolved. */
function blockedReason(hostname: string): string | undefined {
  const host = normalizeHost(hostname);
  const ipv4 = parseIpv4(host);
  const address = ipv4 === undefined ? host : formatIpv4(ipv4);
  if (ipv4 === undefined && !host.includes(":")) return undefined;
  const verdict = classifyAddress(address);
  return verdict.blocked
    ? `address ${address} is ${verdict.reason} (set allowPrivateNetwork: true to allow private addresses)`
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

/** The options of one hop with `maxRedirections: 0`, which undici's redirect interceptor passes through. */
function withoutRedirects(options: Dispatcher.DispatchOptions): Dispatcher.DispatchOptions {
  return { ...options, maxRedirections: 0 } as Dispatcher.DispatchOptions;
}
