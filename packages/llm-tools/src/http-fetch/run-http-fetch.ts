import { ToolInputError } from "../errors.js";
import { idempotencyKeyOf } from "../idempotency-key.js";
import { parseToolInput, requireString } from "../tool-input.js";
import { fetchText } from "./fetch-text.js";
import type { HttpFetchOptions } from "./http-fetch-options.js";

/** JSON Schema of the http_fetch tool input. */
export const HTTP_FETCH_INPUT_SCHEMA = {
  type: "object",
  properties: {
    url: { type: "string", description: "Absolute http:// or https:// URL to GET." },
  },
  required: ["url"],
  additionalProperties: false,
} as const;

/** Headers http_fetch sets on the exchange. */
export interface HttpFetchHeaders {
  "llm.http_fetch.status": number;
  "llm.http_fetch.bytes": number;
  "llm.http_fetch.truncated": boolean;
}

/** The outcome of one http_fetch step: the body text for the exchange and its headers. */
export interface HttpFetchStepResult {
  text: string;
  headers: HttpFetchHeaders;
}

const TOOL = "http_fetch";
const URL_TEXT = /^https?:\/\//i;

/**
 * Reads the http_fetch URL from a message body: a `{url}` object, JSON text of one, or (as an
 * enrichment step) the URL itself as plain text starting with http:// or https://.
 */
export function readHttpFetchUrl(body: unknown): string {
  const text = body instanceof Uint8Array ? new TextDecoder().decode(body) : body;
  if (typeof text === "string" && URL_TEXT.test(text.trim())) return text.trim();
  return requireString(parseToolInput(text, TOOL), "url", TOOL);
}

/**
 * Runs http_fetch on a message body; see `readHttpFetchUrl` and `fetchText`. `effectKey` (the
 * `routekit.effectKey` header of a durable run's tool call) goes out as `Idempotency-Key`.
 */
export async function runHttpFetch(
  body: unknown,
  options: HttpFetchOptions,
  signal?: AbortSignal,
  effectKey?: unknown,
): Promise<HttpFetchStepResult> {
  const url = readHttpFetchUrl(body);
  const idempotencyKey = idempotencyKeyOf(effectKey, TOOL);
  if (typeof idempotencyKey === "object") throw new ToolInputError(TOOL, idempotencyKey.error);
  const result = await fetchText(url, options, signal, idempotencyKey);
  return {
    text: result.text,
    headers: {
      "llm.http_fetch.status": result.status,
      "llm.http_fetch.bytes": result.bytes,
      "llm.http_fetch.truncated": result.truncated,
    },
  };
}
