import type { IncomingMessage, ServerResponse } from "node:http";
import { type Exchange, type Headers, type RouteContext, RouteStepError } from "@routekit/core";
import {
  abortExchange,
  type RouteProcessor,
  releaseExchange,
  reportConsumerFailure,
} from "@routekit/core/internal";
import { HttpError } from "./http-error.js";
import { HTTP_HEADERS } from "./http-headers.js";
import { isObservableBody, observableToIterable } from "./observable-body.js";
import { type RequestBodyResult, readRequestBody } from "./read-request-body.js";
import { type RouteMatch, type RouteTable, requestSegments } from "./route-table.js";
import { isStreamBody } from "./stream-body.js";
import { jsonReply, type ReplyParts, replyFromExchange, writeReply } from "./write-reply.js";
import { writeStreamReply } from "./write-stream.js";

/** What a consumer registers for its path: the endpoint URI and the route to run. */
export interface HttpRouteTarget {
  readonly uri: string;
  readonly processor: RouteProcessor;
}

/** The server-wide settings and state a request handler needs. */
export interface RequestEnvironment {
  readonly context: RouteContext;
  readonly table: RouteTable<HttpRouteTarget>;
  readonly maxBodyBytes: number;
  readonly maxJsonDepth: number;
  readonly requestTimeoutMs: number;
  readonly timeoutStatus: number;
  readonly errorDetail: "message" | "none";
  /** True once the server stopped taking new work. */
  stopping(): boolean;
}

/** Writes a reply (asking the client to close the connection while the server stops). */
function reply(response: ServerResponse, environment: RequestEnvironment, parts: ReplyParts): void {
  writeReply(response, parts, environment.stopping());
}

/** Handles one request: routing, body, exchange, reply. Never throws. */
export async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  environment: RequestEnvironment,
): Promise<void> {
  if (environment.stopping()) {
    reply(response, environment, jsonReply(503, { error: "The server is stopping" }));
    return;
  }
  const method = (request.method ?? "GET").toUpperCase();
  const routed = routeOf(request, method, environment);
  if (routed === "malformed") {
    reply(
      response,
      environment,
      jsonReply(400, { error: `Malformed request target '${request.url ?? ""}'` }),
    );
    return;
  }
  if (routed.match.kind !== "found") {
    const { error, allow } = refusal(routed.match, method, routed.target.pathname);
    reply(
      response,
      environment,
      jsonReply(allow === undefined ? 404 : 405, { error }, allow === undefined ? {} : { allow }),
    );
    return;
  }
  const read = await readRequestBody(request, environment.maxBodyBytes, environment.maxJsonDepth);
  if (read.kind !== "ok") {
    refuseBody(read, response, environment);
    return;
  }
  const headers = requestHeaders(request, method, routed.target, routed.match.parameters);
  await runAndReply(routed.match.entry.handler, read.body, headers, response, environment);
}

/** The request's target and its route match; "malformed" when the target cannot be read. */
function routeOf(
  request: IncomingMessage,
  method: string,
  environment: RequestEnvironment,
): { target: RequestTarget; match: RouteMatch<HttpRouteTarget> } | "malformed" {
  const target = parseTarget(request.url);
  const match = target === undefined ? undefined : matchTarget(environment.table, method, target);
  if (target === undefined || match === undefined) return "malformed";
  return { target, match };
}

/** The 404 or 405 answer to a request no route takes (405 names the allowed methods). */
function refusal(
  match: Exclude<RouteMatch<HttpRouteTarget>, { kind: "found" }>,
  method: string,
  pathname: string,
): { error: string; allow?: string } {
  if (match.kind === "not-found") return { error: `No route for ${method} ${pathname}` };
  const allow = match.allow.join(", ");
  return { error: `Method ${method} is not allowed on ${pathname}; allowed: ${allow}`, allow };
}

/** Answers a body that was not read: too large (413, closing), not JSON or too deep (400). */
function refuseBody(
  read: Exclude<RequestBodyResult, { kind: "ok" }>,
  response: ServerResponse,
  environment: RequestEnvironment,
): void {
  if (read.kind === "aborted") return;
  if (read.kind === "too-large") {
    writeReply(
      response,
      jsonReply(413, { error: `Request body exceeds the limit of ${read.limit} bytes` }),
      true,
    );
    return;
  }
  const error =
    read.kind === "invalid-json"
      ? `Request body is not valid JSON: ${read.message}`
      : `Request body refused: ${read.message}; the server accepts up to ${environment.maxJsonDepth} levels (option 'maxJsonDepth')`;
  reply(response, environment, jsonReply(400, { error }));
}

/** Runs the route on an exchange made for the request and writes what it left as the reply. */
async function runAndReply(
  target: HttpRouteTarget,
  body: unknown,
  headers: Headers,
  response: ServerResponse,
  environment: RequestEnvironment,
): Promise<void> {
  const exchange = environment.context.createExchange({
    body,
    pattern: "InOut",
    timeoutMs: environment.requestTimeoutMs,
  });
  // Built for this exchange alone: handed over, not copied again.
  exchange.headers = headers;
  exchange.fromEndpoint = target.uri;
  let clientGone = false;
  response.once("close", () => {
    if (response.writableFinished) return;
    clientGone = true;
    abortExchange(exchange, new HttpError("HTTP_REQUEST_FAILED", "The client closed the connection"));
  });
  const finished = await runUntilAborted(target.processor, exchange);
  // The route released the exchange's deadline when it finished; an aborted one is released now.
  releaseExchange(exchange);
  if (clientGone) return;
  if (!finished) {
    const parts = abortReply(exchange, environment);
    report(exchange, exchange.signal.reason, environment, `HTTP ${parts.status} sent`);
    reply(response, environment, parts);
    return;
  }
  if (exchange.error !== undefined) {
    reply(response, environment, jsonReply(500, errorBody(exchange, exchange.error, environment)));
    return;
  }
  await replyWithBody(exchange, response, environment);
}

/** Writes the route's answer: a stream, or status, headers and body from the exchange. */
async function replyWithBody(
  exchange: Exchange,
  response: ServerResponse,
  environment: RequestEnvironment,
): Promise<void> {
  if (isObservableBody(exchange.body)) exchange.body = observableToIterable(exchange.body);
  if (isStreamBody(exchange.body)) {
    await writeStreamReply(response, exchange, exchange.body, {
      close: environment.stopping(),
      describeError: (error) => errorBody(exchange, error, environment, "the reply stream ended"),
      failBeforeStart: (error) =>
        reply(response, environment, jsonReply(500, errorBody(exchange, error, environment))),
    });
    return;
  }
  let parts: ReplyParts;
  try {
    parts = replyFromExchange(exchange);
  } catch (error) {
    parts = jsonReply(500, errorBody(exchange, error, environment));
  }
  try {
    reply(response, environment, parts);
  } catch (error) {
    reply(response, environment, jsonReply(500, errorBody(exchange, error, environment)));
  }
}

/** The parts of a request target a route needs. */
interface RequestTarget {
  readonly pathname: string;
  readonly searchParams: Iterable<[string, string]>;
}

/** The route for a target: a plain path to a literal route in one lookup; undefined when malformed. */
function matchTarget(
  table: RouteTable<HttpRouteTarget>,
  method: string,
  target: RequestTarget,
): RouteMatch<HttpRouteTarget> | undefined {
  if (target.searchParams === NO_QUERY) {
    const plain = table.matchPlain(method, target.pathname);
    if (plain !== undefined) return plain;
  }
  const segments = requestSegments(target.pathname);
  return segments === undefined ? undefined : table.match(method, segments);
}

const NO_QUERY: Iterable<[string, string]> = [];
/** A plain path: nothing to decode, normalise or split off, so no URL parse is needed. */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~/]*$/;

function parseTarget(url: string | undefined): RequestTarget | undefined {
  if (url === undefined || !url.startsWith("/")) return undefined;
  if (PLAIN_PATH.test(url) && !url.includes("//") && !url.includes("/.")) {
    return { pathname: url, searchParams: NO_QUERY };
  }
  try {
    return new URL(url, "http://routekit.invalid");
  } catch {
    return undefined;
  }
}

/** True when the route finished; false when the exchange's signal fired first. */
function runUntilAborted(processor: RouteProcessor, exchange: Exchange): Promise<boolean> | boolean {
  const outcome = processor(exchange);
  if (outcome === undefined) return true;
  if (exchange.signal.aborted) return false;
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(false);
    exchange.signal.addEventListener("abort", onAbort, { once: true });
    outcome.then(() => {
      exchange.signal.removeEventListener("abort", onAbort);
      resolve(true);
    });
  });
}

/** `http.request.header.<name>` for each header name seen (names are few and repeat). */
const prefixedNames = new Map<string, string>();
const PREFIXED_NAMES_LIMIT = 1_000;

function prefixed(name: string): string {
  let key = prefixedNames.get(name);
  if (key === undefined) {
    key = HTTP_HEADERS.requestHeaderPrefix + name;
    if (prefixedNames.size < PREFIXED_NAMES_LIMIT) prefixedNames.set(name, key);
  }
  return key;
}

function requestHeaders(
  request: IncomingMessage,
  method: string,
  target: RequestTarget,
  parameters: Record<string, string>,
): Headers {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of target.searchParams) {
    const previous = query[name];
    query[name] =
      previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  const headers: Headers = {
    [HTTP_HEADERS.method]: method,
    [HTTP_HEADERS.path]: target.pathname,
    [HTTP_HEADERS.query]: query,
    [HTTP_HEADERS.remoteAddress]: request.socket.remoteAddress,
  };
  for (const name in parameters) headers[HTTP_HEADERS.pathParameterPrefix + name] = parameters[name];
  const incoming = request.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined) headers[prefixed(name)] = value;
  }
  return headers;
}

function abortReply(exchange: Exchange, environment: RequestEnvironment): ReplyParts {
  const reason: unknown = exchange.signal.reason;
  if (reason instanceof DOMException && reason.name === "TimeoutError") {
    return jsonReply(environment.timeoutStatus, {
      error: `The request timed out after ${environment.requestTimeoutMs} ms`,
      exchangeId: exchange.id,
    });
  }
  return jsonReply(503, {
    error: "The request was aborted: the server is stopping",
    exchangeId: exchange.id,
  });
}

/** Longest request path a log line quotes. */
const MAX_LOGGED_PATH = 200;

/** The consumer's failure line (the same as every consumer's), naming the request. */
function report(exchange: Exchange, error: unknown, environment: RequestEnvironment, how: string): void {
  const path = String(exchange.headers[HTTP_HEADERS.path]);
  const shown = path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}...` : path;
  const source = `${exchange.fromEndpoint ?? "http"} (${String(exchange.headers[HTTP_HEADERS.method])} ${shown})`;
  reportConsumerFailure(environment.context, exchange, source, { kind: "answered", how }, error);
}

/**
 * `{ error, exchangeId }`. The full detail (route, step, message) always goes to the log with the
 * exchange id; the client gets a fixed text, or with `errorDetail: "message"` the innermost
 * error's message (never a stack).
 */
function errorBody(
  exchange: Exchange,
  error: unknown,
  environment: RequestEnvironment,
  how = "HTTP 500 sent",
): { error: string; exchangeId: string } {
  report(exchange, error, environment, how);
  if (environment.errorDetail === "none") return { error: "Internal Server Error", exchangeId: exchange.id };
  let innermost = error;
  while (innermost instanceof RouteStepError && innermost.cause !== undefined) innermost = innermost.cause;
  const message = innermost instanceof Error ? innermost.message : String(innermost);
  return { error: message, exchangeId: exchange.id };
}
