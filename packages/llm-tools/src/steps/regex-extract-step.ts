import { defineStep, type Exchange } from "@routekit/core";
import {
  extractFromBody,
  type RegexExtractOptions,
  resolveRegexExtractOptions,
} from "../regex-extract/index.js";

/**
 * The `.regexExtract(options)` step: the body is `{text, pattern, group, all}` (object or JSON
 * text), or, with a fixed `options.pattern`, the text itself; the body becomes JSON text of the
 * match, an array (`all`) or `null`. Matching is bounded by `matchTimeoutMs` without blocking the
 * event loop. Options are checked when the route is added.
 */
export const regexExtract = defineStep("regexExtract", (options: RegexExtractOptions = {}) => {
  resolveRegexExtractOptions(options);
  // Synchronous when the match ran on this thread: no promise for the common small job.
  return (exchange: Exchange): void | Promise<void> => {
    const output = extractFromBody(exchange.body, options, exchange.signal);
    if (typeof output === "string") {
      exchange.body = output;
      return;
    }
    return output.then((text) => {
      exchange.body = text;
    });
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** regex_extract as a step: JSON text of the match, of every match (`all`), or `null`. */
    regexExtract(options?: RegexExtractOptions): RouteDsl<string>;
  }
}
