// The code of docs/guide/components.md; run by examples/test/docs-examples.test.ts.
import { createContext } from "@routekit/core";

/** Sends two messages through an upper-casing route, checks them with a mock endpoint, returns what it received. */
export async function main(): Promise<unknown[]> {
  const context = createContext({ logLevel: "warn" });
  await context.addRoutes((r) => {
    r.from<string>("direct:in")
      .transform((exchange) => exchange.body.toUpperCase())
      .to("mock:out");
  });
  await context.start();
  // #region mock
  const mock = context.endpoint("mock:out");
  mock.expectedBodiesReceived("HI", "YO"); // also sets the expected count
  await context.send("direct:in", "hi");
  await context.send("direct:in", "yo");
  await mock.assertIsSatisfied(2000); // waits up to 2 s for the count, then checks
  // #endregion mock
  await context.stop();
  return mock.receivedBodies;
}
