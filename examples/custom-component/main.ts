import { createContext, EndpointOptionError } from "@routekit/core";
import { memoryPlugin } from "./memory-component.js";

// #region use
const context = createContext({ logLevel: "warn" });
context.use(memoryPlugin());

await context.addRoutes((r) => {
  r.from("direct:remember").routeId("remember").to("memory:notes?operation=put");
  r.from("direct:recall").routeId("recall").to("memory:notes?operation=get");
  r.from("direct:forget").routeId("forget").to("memory:notes?operation=delete");
});
// #endregion

// #region validation
// Options are checked when a route is added: the error names the option and the nearest valid one.
try {
  await context.addRoutes((r) => {
    r.from("direct:typo").to("memory:notes?operation=get&keyHeadr=id");
  });
} catch (error) {
  if (!(error instanceof EndpointOptionError)) throw error;
  console.log(`rejected: ${error.message}`);
}
// #endregion
try {
  await context.addRoutes((r) => {
    r.from("direct:bad-value").to("memory:notes?operation=fetch");
  });
} catch (error) {
  if (!(error instanceof EndpointOptionError)) throw error;
  console.log(`rejected: ${error.message}`);
}

// #region run
await context.start();
await context.request("direct:remember", "buy milk", { key: "today" });
console.log("recall today ->", await context.request("direct:recall", undefined, { key: "today" }));
console.log("forget today ->", await context.request("direct:forget", undefined, { key: "today" }));
console.log("recall today ->", await context.request("direct:recall", undefined, { key: "today" }));

// A missing key header fails the exchange with the component's own message.
const failed = await context.requestExchange("direct:recall", { body: "?" });
console.log(`missing key -> ${failed.error?.message}`);

await context.stop();
// #endregion
