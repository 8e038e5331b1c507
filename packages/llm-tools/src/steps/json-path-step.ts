import { defineStep, type Exchange } from "@routekit/core";
import { type JsonPathOptions, resolveJsonPathOptions } from "../json-path/json-path-options.js";
import { runFixedJsonPath, runJsonPathBounded } from "../json-path/run-json-path.js";
import { type StepOutputOption, splitStepOutput, stepBody, writeBody } from "./step-output.js";

/** Options of the `.jsonPath()` step: json_path's, plus `output` (`"json"` text or the `"value"`). */
export type JsonPathStepOptions = JsonPathOptions & StepOutputOption;

/**
 * The `.jsonPath(options)` step: the body is `{json, path}` (object or JSON text), or, with a
 * fixed `options.path`, the document itself; the match becomes the body as compact JSON text
 * (`null` when nothing matches), or with `output: "value"` the matched value itself. A fixed path
 * is the route author's: it runs on the route's thread over documents up to `inlineDocumentChars`
 * and in the budget over larger ones; a path from the body is untrusted and always runs under the
 * budget (see `runJsonPathBounded`).
 * Options are checked when the route is added.
 */
export const jsonPath = defineStep("jsonPath", (options: JsonPathStepOptions = {}) => {
  const { output, toolOptions } = splitStepOutput(options, "json_path");
  const resolved = resolveJsonPathOptions(toolOptions);
  const toBody = (text: string) => stepBody(text, output);
  if (resolved.path !== undefined) {
    // Synchronous when the document is small enough to query here: no promise on the fast path.
    return (exchange: Exchange): void | Promise<void> =>
      writeBody(exchange, runFixedJsonPath(exchange.body, toolOptions, exchange.signal), toBody);
  }
  return (exchange: Exchange): Promise<void> =>
    writeBody(
      exchange,
      runJsonPathBounded(exchange.body, toolOptions, exchange.signal),
      toBody,
    ) as Promise<void>;
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** json_path as a step: the match as compact JSON text, an array for multi-match paths, or `null`. */
    jsonPath(options?: JsonPathOptions & { output?: "json" }): RouteDsl<string>;
    /**
     * json_path as a step whose body becomes the matched value itself (an array for multi-match
     * paths, `null` when nothing matches); name its type with `jsonPath<TValue>(...)`.
     */
    jsonPath<TValue = unknown>(options: JsonPathOptions & { output: "value" }): RouteDsl<TValue>;
  }
}
