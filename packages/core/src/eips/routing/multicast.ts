import { checkOptionKeys, invalid, siteOf } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import type { NestedBlock } from "../../model/step-shape.js";
import type { MulticastDefinition } from "../../model/steps/routing-steps.js";
import { describeValue } from "../../support/describe-value.js";
import {
  checkEndpointFanOut,
  type EndpointBranch,
  endpointPlan,
  type MulticastOptions,
} from "../fan-out/endpoint-fan-out.js";
import { runFanOut } from "../fan-out/fan-out.js";
import { arraySource } from "../fan-out/part-source.js";

const OPTIONS = ["parallel", "aggregate", "stopOnError"] as const;

/** The block a multicast makes of each endpoint: one `to` step, under the multicast's own path. */
function endpointBlocks(definition: MulticastDefinition): NestedBlock[] {
  return definition.uris.map((uri, index) => ({
    name: `to #${index + 1}`,
    suffix: "",
    options: {},
    steps: [{ type: "to", uri }],
  }));
}

export const multicastVerb = defineVerb({
  record: (recorder, uris: unknown, options?: unknown): MulticastDefinition => {
    if (!Array.isArray(uris) || uris.length === 0) {
      throw invalid(
        siteOf(recorder, "multicast"),
        `expects a non-empty array of endpoint URIs, found ${describeValue(uris)}`,
      );
    }
    uris.forEach((uri, index) => {
      if (typeof uri !== "string" || uri.trim() === "") {
        throw invalid(
          siteOf(recorder, "multicast"),
          `expects endpoint URIs; item ${index} is ${describeValue(uri)}`,
        );
      }
    });
    const settings = checkEndpointFanOut(
      recorder,
      "multicast",
      checkOptionKeys(siteOf(recorder, "multicast"), options, OPTIONS),
    );
    return { type: "multicast", uris: [...(uris as string[])], ...settings };
  },
  step: {
    type: "multicast",
    compile: (definition, scope) => {
      // Each endpoint is a one-step block: it runs under the route's error handling (per branch).
      const branches: EndpointBranch[] = endpointBlocks(definition).map((block, index) => ({
        uri: definition.uris[index]!,
        block: scope.compileSteps(block.steps, scope.label + block.suffix),
      }));
      const plan = endpointPlan(scope.routeId, scope.label, "multicast", definition);
      return (exchange) => runFanOut(plan, exchange, arraySource(branches));
    },
    shape: {
      endpoints: (definition) => definition.uris.map((uri) => ({ uri, role: "fan-out" })),
      innerBlocks: endpointBlocks,
      runsUserCode: false,
    },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Sends a copy of the exchange to every endpoint, in order (or concurrently with `parallel`).
     * The last endpoint's reply replaces the body and headers, unless `aggregate` builds the result.
     */
    multicast<TResult = TBody>(
      uris: readonly string[],
      options?: MulticastOptions<TResult>,
    ): RouteDsl<TResult>;
  }
}
