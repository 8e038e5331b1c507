import { request } from "undici";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { describe } from "../tool-input.js";
import { createDeadline, type Deadline } from "./deadline.js";
import { isHostAllowed, normalizeHost } from "./host-allowlist.js";
import { HttpFetchError, isRetryableStatus } from "./http-fetch-error.js";
import { type HttpFetchOptions, resolveHttpFetchOptions } from "./http-fetch-options.js";
import { decodeUtf8, discardBody, readBody, readExcerpt } from "./read-body.js";
import { secretFreeUrl } from "./secret-free-url.js";

/** What http_fetch got back. */
export interface HttpFetchResult {
  /** The URL that answered, after redirects. */
  url: string;
  status: number;
  /** The body decoded as UTF-8, cut at `maxBytes`. */
  text: string;
  /** Body bytes kept (at most `maxBytes`). */
  bytes: number;
  /** True when the body was longer than `maxBytes`. */
  truncated: boolean;
  contentType?: string;
}

const TOOL = "http_fetch";
const ERROR_BODY_CHARACTERS = 200;

/**
 * GETs an absolute http(s) URL under the http_fetch guards (host allowlist, SSRF address policy
 * on every hop and connection, byte limit, deadline) and returns the body as text.
 * A bad URL is a ToolInputError; every other failure is an HttpFetchError (TOOL_GUARD_REFUSED,
 * TOOL_LIMIT_EXCEEDED, TOOL_TIMEOUT, or TOOL_FAILED for non-2xx and transport errors) with
 * `status`, a secret-free `url` and `retryable`. A caller's abort rethrows its reason.
 * `idempotencyKey` (a durable run's effect key) is sent as the `Idempotency-Key` header.
 */
export async function fetchText(
  url: string,
  options: HttpFetchOptions,
  signal?: AbortSignal,
  idempotencyKey?: string,
): Promise<HttpFetchResult> {
  const resolved = resolveHttpFetchOptions(options);
  const target = parseTarget(url);
  const shown = secretFreeUrl(target);
  if (!isHostAllowed(resolved.hostAllowlist, target.hostname)) {
    const allowed = [...resolved.hostAllowlist].join(", ");
    const host = normalizeHost(target.hostname);
    throw new HttpFetchError(
      "TOOL_GUARD_REFUSED",
      `${TOOL}: refused request to ${shown}: host '${host}' is not in hostAllowlist [${allowed}]`,
      { url: shown, retryable: false },
    );
  }
  signal?.throwIfAborted();
  const deadline = createDeadline(resolved.timeoutMs, signal);
  try {
    const response = await request(target, {
      method: "GET",
      dispatcher: resolved.dispatcher,
      signal: deadline.signal,
      headers: {
        "user-agent": "routekit-http-fetch",
        accept: "*/*",
        ...(idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }),
      },
    });
    const status = response.statusCode;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      discardBody(response.body);
      throw new HttpFetchError(
        "TOOL_LIMIT_EXCEEDED",
        `${TOOL}: ${shown} answered HTTP ${status} (redirect to ${secretFreeLocation(String(location), target)}) and the redirect limit ` +
          `was reached (maxRedirects: ${resolved.maxRedirects})`,
        { status, url: shown, retryable: false },
      );
    }
    if (status < 200 || status >= 300) {
      const excerpt = await readExcerpt(response.body, ERROR_BODY_CHARACTERS);
      throw new HttpFetchError(
        "TOOL_FAILED",
        `${TOOL}: GET ${shown} returned HTTP ${status}${excerpt === "" ? "" : `: ${excerpt}`}`,
        { status, url: shown, retryable: isRetryableStatus(status) },
      );
    }
    const prefix = await readBody(response.body, resolved.maxBytes);
    const contentType = firstHeader(response.headers["content-type"]);
    return {
      url: finalUrl(response.context) ?? target.href,
      status,
      text: decodeUtf8(prefix),
      bytes: prefix.bytes.length,
      truncated: prefix.truncated,
      ...(contentType === undefined ? {} : { contentType }),
    };
  } catch (error) {
    throw toFetchError(error, deadline, signal, shown, resolved.timeoutMs);
  } finally {
    deadline.clear();
  }
}

function parseTarget(url: unknown): URL {
  const expected = `${TOOL}: key 'url' must be an absolute http or https URL`;
  if (typeof url !== "string") throw new ToolInputError(TOOL, `${expected} (found ${describe(url)})`, "url");
  let target: URL;
  try {
    target = new URL(url.trim());
  } catch {
    throw new ToolInputError(TOOL, `${expected} (found ${describe(url)})`, "url");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new ToolInputError(TOOL, `${expected} (found scheme '${target.protocol}')`, "url");
  }
  return target;
}

function toFetchError(
  error: unknown,
  deadline: Deadline,
  signal: AbortSignal | undefined,
  shown: string,
  timeoutMs: number,
): unknown {
  if (deadline.timedOut()) {
    return new HttpFetchError("TOOL_TIMEOUT", `${TOOL}: GET ${shown} timed out after ${timeoutMs} ms`, {
      url: shown,
      retryable: true,
      cause: error,
    });
  }
  if (signal?.aborted) return signal.reason;
  if (error instanceof HttpFetchError) return error;
  if (error instanceof LlmToolsError) {
    // a refusal of the guarded dispatcher, raised while connecting
    return new HttpFetchError(error.code, error.message, { url: shown, retryable: false, cause: error });
  }
  const reason = reasonOf(error);
  if (reason.startsWith("Redirect loop detected")) {
    return new HttpFetchError(
      "TOOL_FAILED",
      `${TOOL}: GET ${shown} failed: redirect loop (a redirect leads back to a URL already visited)`,
      { url: shown, retryable: false, cause: error },
    );
  }
  return new HttpFetchError("TOOL_FAILED", `${TOOL}: GET ${shown} failed: ${reason}`, {
    url: shown,
    retryable: isRetryableTransportError(error),
    cause: error,
  });
}

/**
 * Error codes of a transport failure worth trying again: the peer reset or closed the connection
 * under the request, or a connect, header or body timeout of the dispatcher fired.
 */
const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** True when the error, or one of its causes, is a reset connection or a transport timeout. */
function isRetryableTransportError(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE_CODES.has(code)) return true;
    current = current.cause;
  }
  return false;
}

/** A redirect's location for a message, secrets removed; a relative one stays relative. */
function secretFreeLocation(location: string, base: URL): string {
  let resolved: URL;
  try {
    resolved = new URL(location, base);
  } catch {
    return "(an invalid location)";
  }
  const shown = secretFreeUrl(resolved);
  if (URL.canParse(location)) return shown;
  const origin = `${resolved.protocol}//${resolved.host}`;
  return shown.startsWith(origin) ? shown.slice(origin.length) : shown;
}

function finalUrl(context: unknown): string | undefined {
  if (typeof context !== "object" || context === null) return undefined;
  const history: unknown = Reflect.get(context, "history");
  const last: unknown = Array.isArray(history) ? history.at(-1) : undefined;
  return last instanceof URL ? last.href : undefined;
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
