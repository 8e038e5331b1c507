import { defineStep, type Exchange } from "@routekit/core";
import { type JsonPathOptions, resolveJsonPathOptions } from "../json-path/json-path-options.js";
import { runJsonPath, runJsonPathBounded } from "../json-path/run-json-path.js";

/**
 * The `.jsonPath(options)` step: the body is `{json, path}` (object or JSON text), or, with a
 * fixed `options.path`, the document itself; the match becomes the body as compact JSON text
 * (`null` when nothing matches). A fixed path is the route author's and runs on the route's
 * thread; a path from the body is untrusted and runs under the budget (see `runJsonPathBounded`).
 * Options are checked when the route is added.
 */
export const jsonPath = defineStep("jsonPath", (options: JsonPathOptions = {}) => {
  const resolved = resolveJsonPathOptions(options);
  if (resolved.path !== undefined) {
    return (exchange: Exchange): void => {
      exchange.body = runJsonPath(exchange.body, options);
    };
  }
  return async (exchange: Exchange): Promise<void> => {
    exchange.body = await runJsonPathBounded(exchange.body, options, exchange.signal);
  };
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    /** json_path as a step: the match as compact JSON text, an array for multi-match paths, or `null`. */
    jsonPath(options?: JsonPathOptions): RouteDsl<string>;
  }
}
