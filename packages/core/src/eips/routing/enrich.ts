import { invalid, siteOf } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import { RoutekitError } from "../../errors/errors.js";
import { copyExchange, runtime } from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import type { EnrichDefinition, EnrichStrategy } from "../../model/steps/routing-steps.js";
import { describeValue } from "../../support/describe-value.js";

export const enrichVerb = defineVerb({
  record: (recorder, uri: unknown, aggregate?: unknown): EnrichDefinition => {
    if (typeof uri !== "string" || uri.trim() === "") {
      throw invalid(
        siteOf(recorder, "enrich"),
        `expects an endpoint URI (found ${JSON.stringify(uri) ?? typeof uri})`,
      );
    }
    if (aggregate !== undefined && typeof aggregate !== "function") {
      throw invalid(
        siteOf(recorder, "enrich"),
        `expects an aggregate function (original, resource) => exchange as second argument, found ${describeValue(aggregate)}`,
      );
    }
    return { type: "enrich", uri, aggregate: aggregate as EnrichStrategy | undefined };
  },
  step: {
    type: "enrich",
    compile: (definition, scope) => {
      const endpoint = scope.endpoint(definition.uri);
      const aggregate = definition.aggregate;
      const merge = (exchange: Exchange, resource: Exchange): void => {
        if (resource.error !== undefined) {
          // As with `to`: the resource's failure is this step's failure.
          const target = runtime(exchange);
          const source = runtime(resource);
          target.error = resource.error;
          target.failure = source.failure;
          target.exhaustedIn = source.exhaustedIn;
          return;
        }
        if (aggregate === undefined) {
          exchange.body = resource.body;
          return;
        }
        const result: unknown = aggregate(exchange, resource);
        if (typeof result !== "object" || result === null || !("body" in result)) {
          throw new RoutekitError(
            "STEP_FAILED",
            `enrich aggregate strategy must return { body, headers? } or an exchange (original or resource), found ${describeValue(result)}`,
          );
        }
        if (result === exchange) return;
        const headers: unknown = "headers" in result ? result.headers : undefined;
        if (headers !== undefined && (typeof headers !== "object" || headers === null)) {
          throw new RoutekitError(
            "STEP_FAILED",
            `enrich aggregate strategy returned headers that are not an object: ${describeValue(headers)}`,
          );
        }
        exchange.body = result.body;
        if (headers !== undefined) exchange.headers = headers as Exchange["headers"];
      };
      return (exchange) => {
        const resource = copyExchange(exchange);
        resource.pattern = "InOut";
        const result = endpoint.send(resource);
        if (result === undefined) return merge(exchange, resource);
        return result.then(() => merge(exchange, resource));
      };
    },
    shape: { endpoints: (definition) => [{ uri: definition.uri, role: "send" }], runsUserCode: false },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /** Request-reply to `uri` with a copy of the exchange; the reply's body (a `TResource`) replaces the body. */
    enrich<TResource = unknown>(uri: string): RouteDsl<TResource>;
    /**
     * Request-reply to `uri` with a copy of the exchange; `aggregate(original, resource)` returns the
     * body (and headers) that continue, and the body type follows what it returns. Type the
     * resource on the strategy's parameter (`resource: Exchange<Price>`).
     */
    enrich<TResource = unknown, TResult = unknown>(
      uri: string,
      aggregate: EnrichStrategy<TBody, TResource, TResult>,
    ): RouteDsl<TResult>;
  }
}
