import { defineStep, type Exchange } from "@routekit/core";
import {
  extractFromBody,
  type RegexExtractOptions,
  resolveRegexExtractOptions,
} from "../regex-extract/index.js";
import { type StepOutputOption, splitStepOutput, stepBody, writeBody } from "./step-output.js";

/** Options of the `.regexExtract()` step: regex_extract's, plus `output` (`"json"` text or the `"value"`). */
export type RegexExtractStepOptions = RegexExtractOptions & StepOutputOption;

/**
 * The `.regexExtract(options)` step: the body is `{text, pattern, group, all}` (object or JSON
 * text), or, with a fixed `options.pattern`, the text itself; the body becomes JSON text of the
 * match, an array (`all`) or `null`; with `output: "value"`, that string, array or `null` itself. Matching is bounded by `matchTimeoutMs` without blocking the
 * event loop. Options are checked when the route is added.
 */
export const regexExtract = defineStep("regexExtract", (options: RegexExtractStepOptions = {}) => {
  const { output, toolOptions } = splitStepOutput(options, "regex_extract");
  resolveRegexExtractOptions(toolOptions);
  const toBody = (text: string) => stepBody(text, output);
  // Synchronous when the match ran on this thread: no promise for the common small job.
  return (exchange: Exchange): void | Promise<void> =>
    writeBody(exchange, extractFromBody(exchange.body, toolOptions, exchange.signal), toBody);
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** regex_extract as a step: JSON text of the match, of every match (`all`), or `null`. */
    regexExtract(options?: RegexExtractOptions & { output?: "json" }): RouteDsl<string>;
    /** regex_extract as a step whose body becomes every match (`all: true`), or `null` for none. */
    regexExtract(options: RegexExtractOptions & { output: "value"; all: true }): RouteDsl<string[] | null>;
    /** regex_extract as a step whose body becomes the first match, or `null` for none. */
    regexExtract(options: RegexExtractOptions & { output: "value"; all: false }): RouteDsl<string | null>;
    /**
     * regex_extract as a step whose body becomes the match itself; without `all` in the options
     * the body's input decides between one match and every match.
     */
    regexExtract(options: RegexExtractOptions & { output: "value" }): RouteDsl<string | string[] | null>;
  }
}
