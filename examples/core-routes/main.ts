import { createContext, EndpointOptionError, NoConsumerError, type StepDefinition } from "@routekit/core";
import { OrderRoutes } from "./order-routes.js";

// #region definitions
// A builder records plain data; the context compiles it into processors when the routes are added.
const stepTypes = (steps: readonly StepDefinition[]) => steps.map((step) => step.type).join(" -> ");
for (const route of new OrderRoutes().build().routes) {
  console.log(`route ${route.id}: from ${route.from}: ${stepTypes(route.steps)}`);
}
// #endregion

// #region lifecycle
const context = createContext();
await context.addRoutes(new OrderRoutes());
await context.start();

// InOut: resolves with the reply body (here the order itself).
const reply = await context.request("direct:orders", { kind: "book", title: "Dune" });
console.log("reply:", reply);

// The whole exchange, headers included.
const exchange = await context.requestExchange("direct:orders", {
  body: { kind: "record", title: "Kind of Blue" },
  headers: { customer: "c-42" },
});
console.log("kind header:", exchange.headers.kind, "customer:", exchange.headers.customer);

// InOnly: resolves once the queue accepted the message.
await context.send("seda:books", { kind: "book", title: "Emma" });
// #endregion

// #region mocks
// Mock endpoints record what reached them and check expectations.
await context.endpoint("mock:books").expectedMessageCount(2).assertIsSatisfied(5000);
await context.endpoint("mock:done").expectedMessageCount(2).assertIsSatisfied(5000);
console.log("books received:", context.endpoint("mock:books").receivedBodies);
// #endregion

// #region errors
// Sending where no route consumes is an error naming the endpoint.
try {
  await context.request("direct:nowhere", "hello");
} catch (error) {
  if (!(error instanceof NoConsumerError)) throw error;
  console.log(`error: ${error.message}`);
}
// A misspelt option fails when the route is added, naming the nearest valid option.
try {
  await context.addRoutes((r) => {
    r.from("direct:audit").to("seda:audit?sise=10");
  });
} catch (error) {
  if (!(error instanceof EndpointOptionError)) throw error;
  console.log(`error: ${error.message}`);
}
// #endregion

// Graceful: consumers stop taking work, in-flight exchanges finish, then routes stop.
await context.stop();
