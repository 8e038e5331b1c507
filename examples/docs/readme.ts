// The code of the root README.md; run by examples/test/docs-examples.test.ts.
// #region orders
import { createContext } from "@routekit/core";

const context = createContext();
await context.addRoutes((r) => {
  r.from<{ kind: string }>("direct:orders")
    .routeId("orders")
    .setHeader("kind", "${body.kind}")
    .choice((c) =>
      c
        .when("${header.kind} == 'book'", (route) => route.to("seda:books"))
        .otherwise((route) => route.to("log:other")),
    )
    .to("mock:done");
  r.from("seda:books").to("mock:books");
});
await context.start();
await context.request("direct:orders", { kind: "book" });
await context.stop();
// #endregion orders

/** What the README's route did: the bodies that reached each mock. */
export function main(): { books: unknown[]; done: unknown[] } {
  return {
    books: context.endpoint("mock:books").receivedBodies,
    done: context.endpoint("mock:done").receivedBodies,
  };
}
