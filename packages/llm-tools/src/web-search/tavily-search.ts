import { createRedactor } from "@routekit/core/internal";
import { request } from "undici";
import { LlmToolsError, reasonOf, ToolInputError } from "../errors.js";
import { createDeadline } from "../http-fetch/deadline.js";
import { decodeUtf8, readBody } from "../http-fetch/read-body.js";
import { describe } from "../tool-input.js";
import { resolveTavilyKey, resolveTavilyOptions, type TavilyWebSearchOptions } from "./tavily-options.js";

/** The web_search input (the tool's contract). */
export interface WebSearchInput {
  query: string;
  max_results?: number;
}

/** One search hit. */
export interface WebSearchHit {
  title: string;
  url: string;
  content: string;
}

/** The web_search output: `answer` is absent when Tavily gave none. */
export interface WebSearchResult {
  answer?: string;
  results: WebSearchHit[];
}

const TOOL = "web_search";
const ERROR_BODY_CHARACTERS = 512;
const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/**
 * Searches the web through Tavily: POST `${baseUrl}/search` with a bearer key, `max_results`
 * clamped to 1..20 (default 5), basic depth, answer included unless disabled. Fails with an
 * LlmToolsError (TOOL_INPUT_INVALID, TOOL_OPTION_INVALID for a missing key, TOOL_TIMEOUT,
 * TOOL_FAILED naming the status and at most 512 characters of the body); the key never appears
 * in a message. A caller's abort rethrows its reason.
 */
export async function tavilySearch(
  input: WebSearchInput,
  options: TavilyWebSearchOptions,
  signal?: AbortSignal,
): Promise<WebSearchResult> {
  const resolved = resolveTavilyOptions(options);
  const key = resolveTavilyKey(options);
  const query = typeof input?.query === "string" ? input.query.trim() : "";
  if (query === "") {
    throw new ToolInputError(
      TOOL,
      `${TOOL}: key 'query' must be a non-empty string (found ${describe(input?.query)})`,
      "query",
    );
  }
  const maxResults = clampMaxResults(input.max_results);
  signal?.throwIfAborted();
  const deadline = createDeadline(resolved.timeoutMs, signal);
  // Redact whole texts before any excerpt is cut, so a cut never leaves part of the key.
  const redact = createRedactor([key]);
  try {
    const response = await request(resolved.searchUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        query,
        max_results: maxResults,
        search_depth: "basic",
        include_answer: resolved.includeAnswer,
      }),
      dispatcher: resolved.dispatcher,
      signal: deadline.signal,
    });
    const prefix = await readBody(response.body, MAX_RESPONSE_BYTES);
    const text = decodeUtf8(prefix);
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw failed(`Tavily answered HTTP ${response.statusCode}: ${errorDetail(redact(text))}`);
    }
    if (prefix.truncated) {
      throw new LlmToolsError(
        "TOOL_LIMIT_EXCEEDED",
        TOOL,
        `${TOOL}: Tavily's response exceeds ${MAX_RESPONSE_BYTES} bytes`,
      );
    }
    return toResult(text, redact);
  } catch (error) {
    if (deadline.timedOut()) {
      throw new LlmToolsError(
        "TOOL_TIMEOUT",
        TOOL,
        `${TOOL}: Tavily did not answer within ${resolved.timeoutMs} ms`,
      );
    }
    if (signal?.aborted) throw signal.reason;
    if (error instanceof LlmToolsError) throw error;
    const reason = reasonOf(error);
    throw failed(redact(`request to ${resolved.searchUrl} failed: ${reason}`));
  } finally {
    deadline.clear();
  }
}

function clampMaxResults(value: unknown): number {
  if (value === undefined || value === null) return 5;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new ToolInputError(
      TOOL,
      `${TOOL}: key 'max_results' must be a number (found ${describe(value)})`,
      "max_results",
    );
  }
  return Math.min(20, Math.max(1, Math.trunc(value)));
}

function toResult(text: string, redact: (text: string) => string): WebSearchResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw failed(`Tavily's response is not valid JSON: ${excerpt(redact(text))}`);
  }
  const results: unknown =
    typeof body === "object" && body !== null ? Reflect.get(body, "results") : undefined;
  if (!Array.isArray(results))
    throw failed(`Tavily's response has no 'results' array: ${excerpt(redact(text))}`);
  const hits = results.map((item: unknown, index): WebSearchHit => {
    if (typeof item !== "object" || item === null)
      throw failed(`Tavily's results[${index}] is not an object`);
    return { title: field(item, "title"), url: field(item, "url"), content: field(item, "content") };
  });
  const answer: unknown = Reflect.get(body as object, "answer");
  return typeof answer === "string" && answer !== "" ? { answer, results: hits } : { results: hits };
}

function field(item: object, key: string): string {
  const value: unknown = Reflect.get(item, key);
  return typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
}

/** Tavily errors look like `{"detail":{"error":"..."}}`; other bodies are shown cut to 512 characters. */
function errorDetail(text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    const detail: unknown =
      typeof body === "object" && body !== null ? Reflect.get(body, "detail") : undefined;
    const message: unknown =
      typeof detail === "object" && detail !== null ? Reflect.get(detail, "error") : detail;
    if (typeof message === "string" && message !== "") return excerpt(message);
  } catch {
    // not JSON: show the body itself
  }
  return excerpt(text);
}

function excerpt(text: string): string {
  const characters = Array.from(text);
  return characters.length > ERROR_BODY_CHARACTERS
    ? `${characters.slice(0, ERROR_BODY_CHARACTERS).join("")}…`
    : text;
}

function failed(message: string): LlmToolsError {
  return new LlmToolsError("TOOL_FAILED", TOOL, `${TOOL}: ${message}`);
}
