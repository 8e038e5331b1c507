import type { ToolCallContext, ToolResult } from "@routekit/llm/tool";
import { Agent, type Dispatcher, interceptors, request } from "undici";
import { createDeadline } from "../http-fetch/deadline.js";
import { describeUrl } from "../http-fetch/describe-url.js";
import { decodeUtf8, readBody } from "../http-fetch/read-body.js";
import { describe } from "../tool-input.js";
import { expandHeaders, redact } from "./expand-headers.js";
import { formatResponse } from "./format-response.js";
import type { ResolvedHttpToolOptions } from "./http-tool-options.js";
import { buildRequestParts } from "./request-parts.js";
import { fillUrlTemplate } from "./url-template.js";

let sharedDispatcher: Dispatcher | undefined;

/** The agent httpTool uses unless given one: follows up to 5 redirects (undici drops credentials across origins). */
function defaultDispatcher(): Dispatcher {
  sharedDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: 5 }));
  return sharedDispatcher;
}

/** One call of an httpTool. Never throws: every failure is an error result. */
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
  const headers = { ...expanded.headers };
  const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  if (parts.contentType !== undefined && !hasContentType) headers["content-type"] = parts.contentType;
  const target = `${options.method} ${describeUrl(new URL(parts.url))}`;
  if (context.signal?.aborted) return failure(`${target} was not sent: the call was aborted`);
  const deadline = createDeadline(Math.ceil(timeoutMs), context.signal);
  let status: number | undefined;
  try {
    const response = await request(parts.url, {
      method: options.method,
      headers,
      body: parts.body ?? null,
      dispatcher: options.dispatcher ?? defaultDispatcher(),
      signal: deadline.signal,
    });
    status = response.statusCode;
    const prefix = await readBody(response.body, options.maxBytes);
    return formatResponse(options.resultMode, status, decodeUtf8(prefix), prefix.truncated);
  } catch (error) {
    let message: string;
    if (deadline.timedOut()) message = `deadline exceeded: ${target} did not complete within ${timeoutMs} ms`;
    else if (context.signal?.aborted)
      message = `${target} aborted by the caller: ${reasonOf(context.signal.reason)}`;
    else message = `${target} failed: ${reasonOf(error)}`;
    return failure(redact(message, expanded.secrets), status);
  } finally {
    deadline.clear();
  }
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
