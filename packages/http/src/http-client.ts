import type { Exchange } from "@routekit/core";
import { EFFECT_KEY_HEADER } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { createDeadline, createRedactor, printError, truncateForMessage } from "@routekit/core/internal";
import { type Dispatcher, request } from "undici";
import { decodeResponseBody, encodeRequestBody, excerpt } from "./client-body.js";
import { HttpError, HttpOperationFailedError } from "./http-error.js";
import { HTTP_HEADERS } from "./http-headers.js";

/** The producer options of an `http://` or `https://` endpoint, after validation. */
export interface HttpClientOptions {
  readonly httpMethod: string | undefined;
  readonly throwExceptionOnFailure: boolean;
  readonly okStatusCodeRange: readonly [number, number];
  readonly timeout: number;
  readonly maxResponseBytes: number;
}

/** Header names whose values are secrets (API keys, tokens, cookies, passwords). */
const SECRET_HEADER = /auth|key|token|secret|cookie|session|password/i;

/**
 * The producer: sends the exchange to `target` and puts the reply on the exchange (body decoded
 * by content type, `http.status`, `http.reply.headers`). Only `http.request.header.*` headers are
 * sent. The deadline is `timeout` ms, and the exchange's own signal aborts the call too.
 */
export function createHttpClient(
  uri: string,
  target: string,
  options: HttpClientOptions,
  dispatcher: Dispatcher | undefined,
): Processor {
  return async (exchange: Exchange) => {
    const url = targetUrl(uri, target, exchange.headers[HTTP_HEADERS.outgoingQuery]);
    const encoded = encodeRequestBody(exchange, `Endpoint '${uri}'`);
    const method = options.httpMethod ?? (encoded.body === undefined ? "GET" : "POST");
    const where = `${method} ${redact(url)}`;
    const headers = outgoingHeaders(exchange, uri);
    const redactSecrets = createRedactor(secretsOf(headers, url));
    if (encoded.contentType !== undefined && headers["content-type"] === undefined)
      headers["content-type"] = encoded.contentType;
    const deadline = createDeadline(options.timeout, exchange.signal);
    const signal = deadline.signal;
    let status: number;
    let responseHeaders: Record<string, string | string[] | undefined>;
    let bytes: Buffer;
    try {
      const response = await request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: encoded.body,
        signal,
        // Redirects are never followed, whatever redirect interceptor a given dispatcher has.
        maxRedirections: 0,
        ...(dispatcher === undefined ? {} : { dispatcher }),
      } as Parameters<typeof request>[1]);
      refuseFollowedRedirect(response.context, response.body, where);
      status = response.statusCode;
      responseHeaders = response.headers;
      bytes = await readLimited(response.body, options.maxResponseBytes, where);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (deadline.timedOut()) {
        throw new HttpError(
          "HTTP_TIMEOUT",
          `${where}: no complete response within ${options.timeout} ms (timeout)`,
          {
            cause: error,
          },
        );
      }
      if (exchange.signal.aborted) {
        throw new HttpError("HTTP_REQUEST_FAILED", `${where}: aborted with the exchange`, {
          cause: exchange.signal.reason,
        });
      }
      throw new HttpError("HTTP_REQUEST_FAILED", redactSecrets(`${where}: ${printError(error)}`), {
        cause: error,
      });
    } finally {
      deadline.clear();
    }
    const contentType = single(responseHeaders["content-type"]);
    const [low, high] = options.okStatusCodeRange;
    if (options.throwExceptionOnFailure && (status < low || status > high)) {
      throw new HttpOperationFailedError({
        method,
        url: redact(url),
        status,
        // Redacted before the cut, so a cut never leaves the start of a secret behind.
        bodyExcerpt: excerpt(redactSecrets(bytes.toString("utf8"))),
        redirectLocation: mapDefined(single(responseHeaders.location), redactSecrets),
      });
    }
    try {
      exchange.body = decodeResponseBody(bytes, contentType, where);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      throw new HttpError(error.code, redactSecrets(error.message));
    }
    exchange.headers[HTTP_HEADERS.status] = status;
    exchange.headers[HTTP_HEADERS.replyHeaders] = { ...responseHeaders };
  };
}

function targetUrl(uri: string, target: string, query: unknown): string {
  if (query === undefined || query === null || query === "") return target;
  let parameters: URLSearchParams;
  if (typeof query === "string") {
    parameters = new URLSearchParams(query.startsWith("?") ? query.slice(1) : query);
  } else if (typeof query === "object" && !Array.isArray(query)) {
    parameters = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (item === undefined || item === null) continue;
        if (typeof item === "object") {
          throw new HttpError(
            "HTTP_REQUEST_INVALID",
            `Endpoint '${uri}': header '${HTTP_HEADERS.outgoingQuery}' parameter '${truncateForMessage(name)}' must be a string, number or boolean (found an object)`,
          );
        }
        parameters.append(name, String(item));
      }
    }
  } else {
    throw new HttpError(
      "HTTP_REQUEST_INVALID",
      `Endpoint '${uri}': header '${HTTP_HEADERS.outgoingQuery}' must be an object or text like 'a=1&b=2' (found ${Array.isArray(query) ? "an array" : typeof query})`,
    );
  }
  const text = parameters.toString();
  if (text === "") return target;
  return `${target}${target.includes("?") ? "&" : "?"}${text}`;
}

function outgoingHeaders(exchange: Exchange, uri: string): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const prefix = HTTP_HEADERS.outgoingHeaderPrefix;
  for (const [key, value] of Object.entries(exchange.headers)) {
    if (!key.startsWith(prefix) || value === undefined || value === null) continue;
    const name = key.slice(prefix.length).toLowerCase();
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      headers[name] = String(value);
    } else if (Array.isArray(value) && value.every((item) => typeof item === "string")) {
      headers[name] = value as string[];
    } else {
      throw new HttpError(
        "HTTP_REQUEST_INVALID",
        `Endpoint '${truncateForMessage(uri)}': header '${truncateForMessage(key)}' must be a string, number, boolean or string[] (found ${typeof value})`,
      );
    }
  }
  // An effect's key goes along so the server can deduplicate the request (unless one was set).
  const effectKey = exchange.headers[EFFECT_KEY_HEADER];
  if (typeof effectKey === "string" && headers["idempotency-key"] === undefined)
    headers["idempotency-key"] = effectKey;
  return headers;
}

async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): unknown },
  limit: number,
  where: string,
) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new HttpError(
        "HTTP_RESPONSE_TOO_LARGE",
        `${where}: the response body exceeds maxResponseBytes=${limit} bytes`,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * What must not appear in a message: values of outgoing headers that look secret (and the
 * credential after an authorization scheme such as `Bearer`), and the URL's user info.
 */
function secretsOf(headers: Record<string, string | string[]>, url: string): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADER.test(name)) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      secrets.push(item);
      const credential = /^[A-Za-z-]+ (.+)$/.exec(item)?.[1];
      if (credential !== undefined) secrets.push(credential);
    }
  }
  try {
    const parsed = new URL(url);
    secrets.push(decodeURIComponent(parsed.password), decodeURIComponent(parsed.username));
  } catch {
    // not a URL: nothing to add
  }
  return secrets;
}

function mapDefined<TValue, TResult>(
  value: TValue | undefined,
  map: (value: TValue) => TResult,
): TResult | undefined {
  return value === undefined ? undefined : map(value);
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The URL without user info and query (they may hold secrets), for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return "(malformed URL)";
  }
}

/**
 * Fails when the dispatcher followed a redirect on its own (one that ignores `maxRedirections`):
 * the client promises that a 3xx comes back as it is, so a reply from another URL is refused.
 */
function refuseFollowedRedirect(
  context: unknown,
  body: { destroy(): unknown; on(event: "error", listener: () => void): unknown },
  where: string,
): void {
  if (typeof context !== "object" || context === null) return;
  const history: unknown = Reflect.get(context, "history");
  if (!Array.isArray(history) || history.length <= 1) return;
  body.on("error", () => undefined);
  body.destroy();
  throw new HttpError(
    "HTTP_REQUEST_FAILED",
    `${where}: the dispatcher followed ${history.length - 1} redirect(s) on its own; the http: client ` +
      "never follows redirects (a 3xx is the reply), so the reply from another URL was refused",
  );
}
