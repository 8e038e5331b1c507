import { optionalNumber, parseToolInput, requireString, startsAsJsonObject } from "../tool-input.js";
import type { TavilyWebSearchOptions } from "./tavily-options.js";
import { tavilySearch, type WebSearchInput } from "./tavily-search.js";

/** JSON Schema of the web_search tool input. */
export const WEB_SEARCH_INPUT_SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", description: "What to search the web for." },
    max_results: {
      type: "integer",
      minimum: 1,
      maximum: 20,
      description: "How many results to return (1-20, default 5).",
    },
  },
  required: ["query"],
  additionalProperties: false,
} as const;

/** The outcome of one web_search step: the JSON result text and its headers. */
export interface WebSearchStepResult {
  /** `{"answer"?: ..., "results": [{title, url, content}]}` as JSON text. */
  text: string;
  headers: { "llm.web_search.results": number };
}

const TOOL = "web_search";

/**
 * Reads the web_search input from a message body: a `{query, max_results}` object, JSON text of
 * one, or (as an enrichment step) plain text that is the query itself.
 */
export function readWebSearchInput(body: unknown): WebSearchInput {
  const text = body instanceof Uint8Array ? new TextDecoder().decode(body) : body;
  if (typeof text === "string" && text.trim() !== "" && !startsAsJsonObject(text))
    return { query: text.trim() };
  const input = parseToolInput(text, TOOL);
  const maxResults = optionalNumber(input, "max_results", TOOL);
  const query = requireString(input, "query", TOOL);
  return maxResults === undefined ? { query } : { query, max_results: maxResults };
}

/** Runs web_search on a message body; see `readWebSearchInput` and `tavilySearch`. */
export async function runWebSearch(
  body: unknown,
  options: TavilyWebSearchOptions,
  signal?: AbortSignal,
): Promise<WebSearchStepResult> {
  const result = await tavilySearch(readWebSearchInput(body), options, signal);
  return { text: JSON.stringify(result), headers: { "llm.web_search.results": result.results.length } };
}
