// The code of docs/guide/observability.md that is not in examples/tracing: type-checked; the test
// runs main() (without an SDK the propagator writes nothing, and the message still arrives).
import assert from "node:assert/strict";
import { context as otelContext, propagation } from "@opentelemetry/api";
import { createContext } from "@routekit/core";

/** A processor that sends on to seda: and injects the current trace context into the headers. */
export async function main(): Promise<void> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    const route = r.from("direct:orders");
    // #region inject
    route.process((exchange) => {
      const headers: Record<string, string> = {};
      propagation.inject(otelContext.active(), headers); // context and propagation of @opentelemetry/api
      return exchange.context.send("seda:audit", exchange.body, headers);
    });
    // #endregion inject
    r.from("seda:audit").to("mock:audit");
  });
  await context.start();
  const mock = context.endpoint("mock:audit").expectedBodiesReceived("order 1");
  await context.send("direct:orders", "order 1");
  await mock.assertIsSatisfied(2000);
  assert.equal(mock.receivedCount, 1);
  await context.stop();
}
