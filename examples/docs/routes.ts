// The code of docs/guide/routes.md; run by examples/test/docs-examples.test.ts.
import assert from "node:assert/strict";

// #region greeting
import { createContext, RouteBuilder } from "@routekit/core";

class Greeting extends RouteBuilder {
  configure() {
    this.from<string>("direct:greet")
      .routeId("greet")
      .setHeader("length", (exchange) => exchange.body.length)
      .transform((exchange) => `Hello, ${exchange.body}!`)
      .to("mock:greeted");
  }
}

const context = createContext();
await context.addRoutes(new Greeting()); // or: context.addRoutes((r) => { r.from(...)... })
await context.start();
await context.request("direct:greet", "Ada"); // "Hello, Ada!"
await context.stop();

// #endregion greeting

// #region shout
import { defineStep, type Exchange } from "@routekit/core";

export const shout = defineStep("shout", (options: { suffix?: string } = {}) => (exchange: Exchange) => {
  exchange.body = `${String(exchange.body).toUpperCase()}${options.suffix ?? "!"}`;
});

declare module "@routekit/core" {
  interface RouteDsl<TBody> {
    shout(options?: { suffix?: string }): RouteDsl<string>;
  }
}
// #endregion shout

/** Runs the page's routes again and checks what the page says they return. */
export async function main(): Promise<void> {
  const checked = createContext({ logLevel: "warn" });
  await checked.addRoutes(new Greeting());
  await checked.addRoutes((r) => {
    r.from("direct:shout").shout();
    r.from("direct:ask").process(shout({ suffix: "?" }));
  });
  await checked.start();
  assert.equal(await checked.request("direct:greet", "Ada"), "Hello, Ada!");
  const mock = checked.endpoint("mock:greeted");
  assert.deepEqual(mock.receivedBodies, ["Hello, Ada!"]);
  assert.equal(mock.received[0]?.headers.length, 3);
  assert.equal(await checked.request("direct:shout", "hey"), "HEY!");
  assert.equal(await checked.request("direct:ask", "why"), "WHY?");
  await checked.stop();
}
