import { checkOptionKeys, invalid, siteOf } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
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

defineVerb(
  "multicast",
  (recorder, uris: unknown, options?: unknown): MulticastDefinition => {
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
  (definition, scope) => {
    // Each endpoint is a one-step block: it runs under the route's error handling (per branch).
    const branches: EndpointBranch[] = definition.uris.map((uri) => ({
      uri,
      block: scope.compileSteps([{ type: "to", uri }], scope.label),
    }));
    const plan = endpointPlan(scope.routeId, scope.label, "multicast", definition);
    return (exchange) => runFanOut(plan, exchange, arraySource(branches));
  },
);

declare module "../../dsl/route-dsl.js" {
  interface RouteDsl<TBody> {
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
