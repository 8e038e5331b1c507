import { createRedactor } from "@routekit/core/internal";
import type { ToolCallContext, ToolResult } from "@routekit/llm/tool";
import { Agent, type Dispatcher, interceptors } from "undici";
import { createDeadline } from "../http-fetch/deadline.js";
import { describeUrl } from "../http-fetch/describe-url.js";
import { decodeUtf8, readBody } from "../http-fetch/read-body.js";
import { idempotencyKeyOf } from "../idempotency-key.js";
import { describe } from "../tool-input.js";
import { expandHeaders } from "./expand-headers.js";
import { formatResponse } from "./format-response.js";
import type { ResolvedHttpToolOptions } from "./http-tool-options.js";
import { buildRequestParts } from "./request-parts.js";
import { SAME_ORIGIN_REDIRECTS, type SendOutcome, sendPlain, sendWithinOrigin } from "./send-request.js";
import { fillUrlTemplate } from "./url-template.js";

let sharedDispatcher: Dispatcher | undefined;
let sharedPlainAgent: Dispatcher | undefined;

/** The agent httpTool uses unless given one: follows up to 5 redirects (undici drops credentials across origins). */
function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));
  return sharedDispatcher;
}

/** The agent of tools with secret headers: redirects are followed by `sendWithinOrigin` only. */
function defaultSecretDispatcher(): Dispatcher {
  sharedPlainAgent ??= new Agent();
  return sharedPlainAgent;
}

/**
 * One call of an httpTool. Never throws: every failure is an error result. When a header takes
 * a value from the environment, redirects are followed only within the URL's origin and every
 * output (error or not) is redacted for those values in every encoding.
 */
export async function callEndpoint(
  options: ResolvedHttpToolOptions,
  args: unknown,
  context: ToolCallContext = {},
): Promise<ToolResult> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return failure(`arguments must be a JSON object (found ${describe(args)})`);
  }
  const argumentsObject = args as Record<string, unknown>;
  const filled = fillUrlTemplate(options.template, argumentsObject);
  if (typeof filled === "string") return failure(filled);
  const leftover = new Map(
    Object.entries(argumentsObject).filter(([key]) => !options.template.placeholders.includes(key)),
  );
  const queryOnly = options.method === "GET" || options.method === "HEAD";
  const parts = buildRequestParts(filled.url, leftover, {
    queryOnly,
    queryNames: new Set(options.query),
    bodyMode: options.body,
  });
  if (typeof parts === "string") return failure(parts);
  const expanded = expandHeaders(options.headers);
  if (typeof expanded === "string") return failure(expanded);
  const timeoutMs = context.timeoutMs ?? options.timeoutMs;
  if (typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    return failure(
      `context.timeoutMs must be a positive number of milliseconds (found ${describe(timeoutMs)})`,
    );
  }
  const headers = requestHeaders(expanded.headers, parts.contentType, context.effectKey, options.name);
  if (typeof headers === "string") return failure(headers);
  const hasSecrets = expanded.secrets.length > 0;
  const redact = createRedactor(expanded.secrets);
  const target = `${options.method} ${describeUrl(new URL(parts.url))}`;
  if (context.signal?.aborted) return failure(redact(`${target} was not sent: the call was aborted`));
  const deadline = createDeadline(Math.ceil(timeoutMs), context.signal);
  let status: number | undefined;
  try {
    const outgoing = {
      url: parts.url,
      method: options.method,
      headers,
      body: parts.body,
      signal: deadline.signal,
    };
    const outcome: SendOutcome = hasSecrets
      ? await sendWithinOrigin({ ...outgoing, dispatcher: options.dispatcher ?? defaultSecretDispatcher() })
      : await sendPlain({ ...outgoing, dispatcher: options.dispatcher ?? defaultDispatcher() });
    if ("refusedRedirect" in outcome) {
      const { status: redirectStatus, location } = outcome.refusedRedirect;
      return failure(
        redact(
          `HTTP ${redirectStatus}: redirect to ${describeUrl(new URL(location))} not followed: ` +
            `httpTool '${options.name}' sends headers filled from the environment and follows redirects ` +
            `only within ${new URL(parts.url).origin} (at most ${SAME_ORIGIN_REDIRECTS})`,
        ),
        redirectStatus,
      );
    }
    status = outcome.response.statusCode;
    return await responseResult(options, outcome.response, expanded.secrets, redact);
  } catch (error) {
    let message: string;
    if (deadline.timedOut()) message = `deadline exceeded: ${target} did not complete within ${timeoutMs} ms`;
    else if (context.signal?.aborted)
      message = `${target} aborted by the caller: ${reasonOf(context.signal.reason)}`;
    else message = `${target} failed: ${reasonOf(error)}`;
    return failure(redact(message), status);
  } finally {
    deadline.clear();
  }
}

/** The tool result of an answer: its body read up to maxBytes, redacted for `secrets`. */
async function responseResult(
  options: ResolvedHttpToolOptions,
  response: Dispatcher.ResponseData<unknown>,
  secrets: readonly string[],
  redact: (text: string) => string,
): Promise<ToolResult> {
  const hasSecrets = secrets.length > 0;
  // Read past maxBytes by the longest encoded secret, redact, then cut: a cut can never leave
  // the first characters of a secret behind.
  const margin = hasSecrets ? secretMargin(secrets) : 0;
  const prefix = await readBody(response.body, options.maxBytes + margin);
  const text = hasSecrets ? redact(decodeUtf8(prefix)) : decodeUtf8(prefix);
  const { kept, cut } = hasSecrets ? cutToBytes(text, options.maxBytes) : { kept: text, cut: false };
  const result = formatResponse(options.resultMode, response.statusCode, kept, prefix.truncated || cut);
  return hasSecrets ? { ...result, output: redact(result.output) } : result;
}

/**
 * The request's headers: the tool's own, the body's content type unless the tool set one, and a
 * durable run's effect key as `Idempotency-Key` (so the endpoint can tell a retried call from a
 * new one) unless the tool set one. An effect key that cannot be a header value is an error text.
 */
function requestHeaders(
  own: Readonly<Record<string, string>>,
  contentType: string | undefined,
  effectKey: unknown,
  toolName: string,
): Record<string, string> | string {
  const headers = { ...own };
  const named = (header: string) => Object.keys(headers).some((name) => name.toLowerCase() === header);
  if (contentType !== undefined && !named("content-type")) headers["content-type"] = contentType;
  const idempotencyKey = idempotencyKeyOf(effectKey, `httpTool '${toolName}'`);
  if (typeof idempotencyKey === "object") return idempotencyKey.error;
  if (idempotencyKey !== undefined && !named("idempotency-key")) headers["idempotency-key"] = idempotencyKey;
  return headers;
}

/** Bytes that the longest encoded form of a secret can take (percent-encoded UTF-8 is the widest). */
function secretMargin(secrets: readonly string[]): number {
  return Math.max(...secrets.map((secret) => Buffer.byteLength(secret, "utf8") * 9));
}

/** Cuts text to at most `maxBytes` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, maxBytes: number): { kept: string; cut: boolean } {
  if (Buffer.byteLength(text, "utf8") <= maxBytes) return { kept: text, cut: false };
  const bytes = Buffer.from(text, "utf8").subarray(0, maxBytes);
  return { kept: new TextDecoder().decode(bytes, { stream: true }), cut: true };
}

function failure(output: string, status?: number): ToolResult {
  return status === undefined ? { output, isError: true } : { output, isError: true, metadata: { status } };
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code: unknown = Reflect.get(error, "code");
  return typeof code === "string" && !error.message.includes(code)
    ? `${error.message} (${code})`
    : error.message;
}
