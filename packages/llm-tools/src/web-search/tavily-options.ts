import { checkOptions, type OptionChecks, optionError } from "@routekit/core/internal";
import type { Dispatcher } from "undici";
import { LlmToolsError } from "../errors.js";
import { DISPATCHER_OPTION, toolOptionsSite } from "../tool-options.js";

/** Options of the Tavily-backed web_search. */
export interface TavilyWebSearchOptions {
  /** The Tavily API key; defaults to the TAVILY_API_KEY environment variable. Never shown in errors. */
  apiKey?: string;
  /** Default https://api.tavily.com; the request goes to `${baseUrl}/search`. */
  baseUrl?: string;
  /** Ask Tavily for a short answer besides the results. Default true. */
  includeAnswer?: boolean;
  /** Deadline per search in milliseconds. Default 20000. */
  timeoutMs?: number;
  /** The undici dispatcher to send through; defaults to undici's global dispatcher. */
  dispatcher?: Dispatcher;
}

/** TavilyWebSearchOptions checked, with defaults applied (the key is resolved separately). */
export interface ResolvedTavilyOptions {
  readonly searchUrl: string;
  readonly includeAnswer: boolean;
  readonly timeoutMs: number;
  readonly dispatcher: Dispatcher | undefined;
}

/** Tavily's public API. */
export const TAVILY_BASE_URL = "https://api.tavily.com";
const TOOL = "web_search";
const SITE = toolOptionsSite(TOOL);
const CHECKS = {
  // Checked by resolveTavilyKey, whose messages never show the key.
  apiKey: { type: "custom", expected: "a non-empty string", check: () => true },
  baseUrl: { type: "string", default: TAVILY_BASE_URL },
  includeAnswer: { type: "boolean", default: true },
  timeoutMs: { type: "integer", min: 1, unit: "milliseconds", default: 20_000 },
  dispatcher: DISPATCHER_OPTION,
} as const satisfies OptionChecks;

/** Checks web_search options (not the key: see `resolveTavilyKey`). */
export function resolveTavilyOptions(options: TavilyWebSearchOptions = {}): ResolvedTavilyOptions {
  const checked = checkOptions(CHECKS, options, SITE);
  return {
    searchUrl: `${checkBaseUrl(checked.baseUrl)}/search`,
    includeAnswer: checked.includeAnswer,
    timeoutMs: checked.timeoutMs,
    dispatcher: checked.dispatcher as Dispatcher | undefined,
  };
}

/**
 * The Tavily API key: `options.apiKey`, else the TAVILY_API_KEY environment variable.
 * A missing or empty key throws TOOL_OPTION_INVALID saying where to set it, so a wrapper can
 * call this when it starts rather than on the first search.
 */
export function resolveTavilyKey(
  options: Pick<TavilyWebSearchOptions, "apiKey"> = {},
  environment: NodeJS.ProcessEnv = process.env,
): string {
  if (options.apiKey !== undefined) {
    if (typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new LlmToolsError(
        "TOOL_OPTION_INVALID",
        TOOL,
        `${TOOL}: option 'apiKey' must be a non-empty string`,
      );
    }
    return options.apiKey.trim();
  }
  const fromEnvironment = environment.TAVILY_API_KEY?.trim();
  if (fromEnvironment === undefined || fromEnvironment === "") {
    throw new LlmToolsError(
      "TOOL_OPTION_INVALID",
      TOOL,
      `${TOOL}: no Tavily API key: set option 'apiKey' or the TAVILY_API_KEY environment variable`,
    );
  }
  return fromEnvironment;
}

function checkBaseUrl(value: unknown): string {
  if (typeof value === "string") {
    try {
      const url = new URL(value);
      if ((url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "") {
        return url.href.replace(/\/+$/, "");
      }
    } catch {
      // reported below
    }
  }
  throw optionError(SITE, "baseUrl", "an absolute http or https URL without query or fragment", value);
}
