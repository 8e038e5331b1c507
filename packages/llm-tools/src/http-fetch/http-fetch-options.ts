import type { LookupFunction } from "node:net";
import { checkOptions, type OptionChecks } from "@routekit/core/internal";
import type { Dispatcher } from "undici";
import { LlmToolsError } from "../errors.js";
import { resolveOncePerObject } from "../resolve-once.js";
import { DISPATCHER_OPTION, toolOptionsSite } from "../tool-options.js";
import { createGuardedDispatcher, guardRedirects } from "./guarded-dispatcher.js";
import { type HostAllowlist, prepareHostAllowlist } from "./host-allowlist.js";

/** Guards and limits of http_fetch. */
export interface HttpFetchOptions {
  /** Exact host names (case-insensitive) allowed on every hop; empty or absent = any host. */
  hostAllowlist?: readonly string[];
  /** Response bytes kept; the rest is dropped and the result marked truncated. Default 1 MiB. */
  maxBytes?: number;
  /** Deadline for the whole fetch, body included. Default 15000 ms. */
  timeoutMs?: number;
  /** Allow loopback, private, link-local and metadata addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /** Redirects followed (each hop re-checked). Default 5; 0 disables redirects. */
  maxRedirects?: number;
  /**
   * Replaces the guarded dispatcher: the connect-time address guard is then the caller's business,
   * but redirects are still followed by http_fetch (up to `maxRedirects`) with `hostAllowlist`
   * checked on every hop, whatever redirect handling the dispatcher has of its own.
   */
  dispatcher?: Dispatcher;
  /** The DNS lookup the connect-time guard checks; defaults to `dns.lookup`. */
  lookup?: LookupFunction;
}

/** HttpFetchOptions checked, with defaults applied and the dispatcher built. */
export interface ResolvedHttpFetchOptions {
  readonly hostAllowlist: HostAllowlist;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly dispatcher: Dispatcher;
}

/** Default limits of http_fetch. */
export const HTTP_FETCH_DEFAULTS = { maxBytes: 1024 * 1024, timeoutMs: 15_000, maxRedirects: 5 } as const;
const DEFAULTS = HTTP_FETCH_DEFAULTS;

const TOOL = "http_fetch";
const CHECKS = {
  // Each entry is checked by prepareHostAllowlist.
  hostAllowlist: { type: "custom", expected: "an array of host names", check: Array.isArray },
  maxBytes: { type: "integer", min: 1, default: DEFAULTS.maxBytes },
  timeoutMs: { type: "integer", min: 1, default: DEFAULTS.timeoutMs },
  allowPrivateNetwork: { type: "boolean" },
  maxRedirects: { type: "integer", min: 0, default: DEFAULTS.maxRedirects },
  dispatcher: DISPATCHER_OPTION,
  lookup: { type: "function", expected: "a dns.lookup-compatible function" },
} as const satisfies OptionChecks;
const NO_OPTIONS: HttpFetchOptions = {};
const resolveOnce = resolveOncePerObject(resolveOptions);

/**
 * Checks http_fetch options and builds their dispatcher once per options object (later calls
 * with the same object reuse it; options are read once, so change them by passing a new object).
 */
export function resolveHttpFetchOptions(options: HttpFetchOptions = NO_OPTIONS): ResolvedHttpFetchOptions {
  return resolveOnce(options);
}

function resolveOptions(options: HttpFetchOptions): ResolvedHttpFetchOptions {
  const checked = checkOptions(CHECKS, options, toolOptionsSite(TOOL));
  const hostAllowlist = (checked.hostAllowlist as readonly string[] | undefined) ?? [];
  const custom = checked.dispatcher as Dispatcher | undefined;
  const guardOnly = (["allowPrivateNetwork", "lookup"] as const).find((key) => options[key] !== undefined);
  if (custom !== undefined && guardOnly !== undefined) {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      TOOL,
      `${TOOL}: option '${guardOnly}' configures the built-in guarded dispatcher and has no effect with ` +
        "option 'dispatcher' (build that one with createGuardedDispatcher)",
    );
  }
  const { maxRedirects } = checked;
  const allowlist = prepareHostAllowlist(hostAllowlist, TOOL);
  const result: ResolvedHttpFetchOptions = {
    hostAllowlist: allowlist,
    maxBytes: checked.maxBytes,
    timeoutMs: checked.timeoutMs,
    maxRedirects,
    // A given dispatcher still has every hop checked against the allowlist (its addresses are its own business).
    dispatcher:
      custom === undefined
        ? createGuardedDispatcher({
            hostAllowlist,
            maxRedirections: maxRedirects,
            toolName: TOOL,
            ...(options.allowPrivateNetwork === undefined
              ? {}
              : { allowPrivateNetwork: options.allowPrivateNetwork }),
            ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
          })
        : guardRedirects(custom, {
            allowlist,
            allowPrivateNetwork: true,
            maxRedirections: maxRedirects,
            toolName: TOOL,
          }),
  };
  return result;
}
