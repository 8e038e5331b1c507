import { invalid, siteOf } from "../../dsl/option-checks.js";
import { defineVerb } from "../../dsl/verbs.js";
import { messageOf } from "../../errors/errors.js";
import { copyExchange } from "../../exchange/runtime-exchange.js";
import type { Exchange } from "../../model/exchange.js";
import type { WireTapDefinition } from "../../model/steps/routing-steps.js";
import { headerRedactor } from "../../support/redact-headers.js";
import { redactUri } from "../../support/redact-uri.js";

export const wireTapVerb = defineVerb({
  record: (recorder, uri: unknown): WireTapDefinition => {
    if (typeof uri !== "string" || uri.trim() === "") {
      throw invalid(
        siteOf(recorder, "wireTap"),
        `expects an endpoint URI (found ${JSON.stringify(uri) ?? typeof uri})`,
      );
    }
    return { type: "wireTap", uri };
  },
  step: {
    type: "wireTap",
    compile: (definition, scope) => {
      const endpoint = scope.endpoint(definition.uri);
      const context = scope.context;
      const where = `Route '${scope.routeId}' step ${scope.label}`;
      const report = (tap: Exchange, error: unknown): void => {
        context.logger.warn(
          `${where}: the wire tap to '${redactUri(definition.uri)}' failed for exchange ${tap.id}: ${headerRedactor(tap.headers)(messageOf(error))}`,
        );
      };
      const deliver = (tap: Exchange): void => {
        let result: Promise<void> | undefined;
        try {
          result = endpoint.send(tap) as Promise<void> | undefined;
        } catch (error) {
          report(tap, error);
          context.trackPending(-1);
          return;
        }
        const settled = (): void => {
          if (tap.error !== undefined) report(tap, tap.error);
          context.trackPending(-1);
        };
        if (result === undefined) settled();
        else
          result.then(settled, (error: unknown) => {
            report(tap, error);
            context.trackPending(-1);
          });
      };
      return (exchange) => {
        // A copy (its own id, copies of the headers and properties, `parentId` naming the original),
        // InOnly, under the context's shutdown signal: the tap never touches the original and
        // outlives its deadline.
        const tap = copyExchange(exchange, undefined, context.shutdownSignal);
        tap.pattern = "InOnly";
        tap.routeId = undefined;
        context.trackPending(1);
        queueMicrotask(() => deliver(tap));
      };
    },
    shape: { endpoints: (definition) => [{ uri: definition.uri, role: "send" }], runsUserCode: false },
  },
});

declare module "../../dsl/route-dsl.js" {
  interface CoreVerbs<TBody> {
    /**
     * Sends a copy of the exchange to `uri`, fire and forget: the route continues at once, the
     * tap's reply and errors never reach it (errors are logged); graceful stop waits for the tap.
     */
    wireTap(uri: string): RouteDsl<TBody>;
  }
}
