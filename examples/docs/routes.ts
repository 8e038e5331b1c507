// The code of docs/guide/routes.md; run by examples/test/docs-examples.test.ts.
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

/** What the page's routes did: the replies, what reached mock:greeted, and the header it carried. */
export interface RoutesOutcome {
  /** What mock:greeted received when the page's own lines ran (at import). */
  greetedAtImport: unknown[];
  greeting: unknown;
  greeted: unknown[];
  lengthHeader: unknown;
  shout: unknown;
  ask: unknown;
}

/** Runs the page's routes again (and reports what its own lines did); returns what they did. */
export async function main(): Promise<RoutesOutcome> {
  const checked = createContext({ logLevel: "warn" });
  await checked.addRoutes(new Greeting());
  await checked.addRoutes((r) => {
    r.from("direct:shout").shout();
    r.from("direct:ask").process(shout({ suffix: "?" }));
  });
  await checked.start();
  const greeting = await checked.request("direct:greet", "Ada");
  const shouted = await checked.request("direct:shout", "hey");
  const asked = await checked.request("direct:ask", "why");
  await checked.stop();
  const mock = checked.endpoint("mock:greeted");
  return {
    greetedAtImport: context.endpoint("mock:greeted").receivedBodies,
    greeting,
    greeted: mock.receivedBodies,
    lengthHeader: mock.received[0]?.headers.length,
    shout: shouted,
    ask: asked,
  };
}
