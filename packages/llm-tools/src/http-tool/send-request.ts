import { type Dispatcher, request } from "undici";
import { discardBody } from "../http-fetch/read-body.js";

/** One request of an httpTool call, before redirects. */
export interface OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly dispatcher: Dispatcher;
  readonly signal: AbortSignal;
}

/** What came back: the final response, or a redirect the tool refused to follow. */
export type SendOutcome =
  | { readonly response: Dispatcher.ResponseData<unknown> }
  | { readonly refusedRedirect: { readonly status: number; readonly location: string } };

/** Redirects followed within the origin by a tool with secret headers. */
export const SAME_ORIGIN_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * Sends a request whose headers carry secrets and follows redirects only within the origin of
 * `url`: every dispatcher's own redirect following is switched off for the call
 * (`maxRedirections: 0`), so secret headers can never be sent to another origin, whatever
 * dispatcher the tool was given. A redirect to another origin (or a longer chain than
 * `SAME_ORIGIN_REDIRECTS`) is returned as refused, its body discarded.
 * 303, and 301/302 after a POST, continue as GET without a body, as browsers do.
 */
export async function sendWithinOrigin(outgoing: OutgoingRequest): Promise<SendOutcome> {
  let url = new URL(outgoing.url);
  let method = outgoing.method;
  let body = outgoing.body;
  let headers = outgoing.headers;
  for (let hop = 0; ; hop += 1) {
    const options = {
      method,
      headers,
      body: body ?? null,
      dispatcher: outgoing.dispatcher,
      signal: outgoing.signal,
      maxRedirections: 0,
    };
    const response = await request(url, options as Parameters<typeof request>[1]);
    refuseFollowedRedirect(response);
    const location = single(response.headers.location);
    if (!REDIRECT_STATUSES.has(response.statusCode) || location === undefined) return { response };
    const next = new URL(location, url);
    if (next.origin !== url.origin || hop >= SAME_ORIGIN_REDIRECTS) {
      discardBody(response.body);
      return { refusedRedirect: { status: response.statusCode, location: next.href } };
    }
    discardBody(response.body);
    if (response.statusCode === 303 || (response.statusCode <= 302 && method === "POST")) {
      method = method === "HEAD" ? "HEAD" : "GET";
      body = undefined;
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !name.toLowerCase().startsWith("content-")),
      );
    }
    url = next;
  }
}

/** Sends a request that carries no secret header (redirects are the dispatcher's business). */
export async function sendPlain(outgoing: OutgoingRequest): Promise<SendOutcome> {
  const response = await request(outgoing.url, {
    method: outgoing.method as Dispatcher.HttpMethod,
    headers: outgoing.headers,
    body: outgoing.body ?? null,
    dispatcher: outgoing.dispatcher,
    signal: outgoing.signal,
  });
  return { response };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Throws when the dispatcher followed a redirect on its own, ignoring `maxRedirections: 0` (a
 * hand-written redirect handler): the reply may come from another origin, so it is not used.
 */
function refuseFollowedRedirect(response: Dispatcher.ResponseData<unknown>): void {
  const context: unknown = response.context;
  const history: unknown =
    typeof context === "object" && context !== null ? Reflect.get(context, "history") : undefined;
  if (!Array.isArray(history) || history.length <= 1) return;
  discardBody(response.body);
  throw new Error(
    `the dispatcher followed ${history.length - 1} redirect(s) on its own, which a tool sending ` +
      "headers filled from the environment never does; the reply was not used",
  );
}
