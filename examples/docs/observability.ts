// The code of docs/guide/observability.md that is not in examples/tracing: type-checked; the test
// runs main() (without an SDK nothing is traced, and the message still arrives).
import { createContext } from "@routekit/core";

/** A processor that sends on to seda: (with the otel plugin, the send is traced); returns what arrived. */
export async function main(): Promise<unknown[]> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    const route = r.from("direct:orders");
    // #region inject
    route.process((exchange) => exchange.context.send("seda:audit", exchange.body));
    // #endregion inject
    r.from("seda:audit").to("mock:audit");
  });
  await context.start();
  const mock = context.endpoint("mock:audit").expectedBodiesReceived("order 1");
  await context.send("direct:orders", "order 1");
  await mock.assertIsSatisfied(2000);
  await context.stop();
  return mock.receivedBodies;
}
