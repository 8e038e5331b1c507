import { defineStep, type Exchange } from "@routekit/core";
import {
  type RegexExtractOptions,
  resolveRegexExtractOptions,
  runRegexExtract,
} from "../regex-extract/index.js";

/**
 * The `.regexExtract(options)` step: the body is `{text, pattern, group, all}` (object or JSON
 * text), or, with a fixed `options.pattern`, the text itself; the body becomes JSON text of the
 * match, an array (`all`) or `null`. Matching is bounded by `matchTimeoutMs` without blocking the
 * event loop. Options are checked when the route is added.
 */
export const regexExtract = defineStep("regexExtract", (options: RegexExtractOptions = {}) => {
  resolveRegexExtractOptions(options);
  return async (exchange: Exchange): Promise<void> => {
    exchange.body = await runRegexExtract(exchange.body, options, exchange.signal);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** regex_extract as a step: JSON text of the match, of every match (`all`), or `null`. */
    regexExtract(options?: RegexExtractOptions): RouteDsl<string>;
  }
}
