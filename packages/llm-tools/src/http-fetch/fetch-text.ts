import { request } from "undici";
import { LlmToolsError, ToolInputError } from "../errors.js";
import { describe } from "../tool-input.js";
import { createDeadline, type Deadline } from "./deadline.js";
import { describeUrl } from "./describe-url.js";
import { guardError } from "./guard-error.js";
import { isHostAllowed, normalizeHost } from "./host-allowlist.js";
import { type HttpFetchOptions, resolveHttpFetchOptions } from "./http-fetch-options.js";
import { decodeUtf8, discardBody, readBody, readExcerpt } from "./read-body.js";

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
 * Fails with an LlmToolsError: TOOL_INPUT_INVALID, TOOL_GUARD_REFUSED, TOOL_LIMIT_EXCEEDED,
 * TOOL_TIMEOUT or TOOL_FAILED (non-2xx and transport errors). A caller's abort rethrows its reason.
 */
export async function fetchText(
  url: string,
  options: HttpFetchOptions,
  signal?: AbortSignal,
): Promise<HttpFetchResult> {
  const resolved = resolveHttpFetchOptions(options);
  const target = parseTarget(url);
  const shown = describeUrl(target);
  if (!isHostAllowed(resolved.hostAllowlist, target.hostname)) {
    const allowed = [...resolved.hostAllowlist].join(", ");
    const host = normalizeHost(target.hostname);
    throw guardError(
      TOOL,
      `${TOOL}: refused request to ${shown}: host '${host}' is not in hostAllowlist [${allowed}]`,
    );
  }
  signal?.throwIfAborted();
  const deadline = createDeadline(resolved.timeoutMs, signal);
  try {
    const response = await request(target, {
      method: "GET",
      dispatcher: resolved.dispatcher,
      signal: deadline.signal,
      headers: { "user-agent": "routekit-http-fetch", accept: "*/*" },
    });
    const status = response.statusCode;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      discardBody(response.body);
      throw new LlmToolsError(
        "TOOL_LIMIT_EXCEEDED",
        TOOL,
        `${TOOL}: ${shown} answered HTTP ${status} (redirect to ${String(location)}) and the redirect limit ` +
          `was reached (maxRedirects: ${resolved.maxRedirects})`,
      );
    }
    if (status < 200 || status >= 300) {
      const excerpt = await readExcerpt(response.body, ERROR_BODY_CHARACTERS);
      throw new LlmToolsError(
        "TOOL_FAILED",
        TOOL,
        `${TOOL}: GET ${shown} returned HTTP ${status}${excerpt === "" ? "" : `: ${excerpt}`}`,
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
    return new LlmToolsError("TOOL_TIMEOUT", TOOL, `${TOOL}: GET ${shown} timed out after ${timeoutMs} ms`, {
      cause: error,
    });
  }
  if (signal?.aborted) return signal.reason;
  if (error instanceof LlmToolsError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (reason.startsWith("Redirect loop detected")) {
    return new LlmToolsError(
      "TOOL_FAILED",
      TOOL,
      `${TOOL}: GET ${shown} failed: redirect loop (a redirect leads back to a URL already visited)`,
      { cause: error },
    );
  }
  return new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: GET ${shown} failed: ${reason}`, { cause: error });
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
