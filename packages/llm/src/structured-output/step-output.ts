import { type RouteContext, RoutekitError } from "@routekit/core";
import { inlineOutput } from "./inline-outputs.js";
import type { StructuredOutput } from "./structured-output.js";

/** The structured outputs registered with `llmPlugin({ schemas })`, by name. */
export function outputsOf(context: RouteContext): Map<string, StructuredOutput> {
  return context.service("routekit.llm.outputs", () => new Map<string, StructuredOutput>());
}

/** The output an llm step's `output=` option names; an unknown name fails the route naming the known ones. */
export function resolveStepOutput(context: RouteContext, name: string, uri: string): StructuredOutput {
  const registered = outputsOf(context);
  const output = registered.get(name) ?? inlineOutput(name);
  if (output !== undefined) return output;
  const known = [...registered.keys()];
  throw new RoutekitError(
    "URI_INVALID",
    `Endpoint '${uri}': option 'output' names no registered schema '${name}'; ` +
      (known.length === 0
        ? "no schemas are registered (llmPlugin({ models, schemas: { name: schema } }))"
        : `registered schemas: ${known.join(", ")}`),
  );
}
