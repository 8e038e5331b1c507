import { createContext, type Exchange } from "@routekit/core";
import "@routekit/llm-tools";
import type { HttpFetchOptions } from "@routekit/llm-tools";
import { startPriceServer } from "./price-server.js";

const prices = await startPriceServer();
const skus = ["W-1", "G-2", "S-3"];

// #region options
// The tool steps refuse loopback and private addresses unless told otherwise; this example's
// server is on 127.0.0.1, so it allows private addresses but only that one host.
const fetchOptions: HttpFetchOptions = {
  allowPrivateNetwork: true,
  hostAllowlist: ["127.0.0.1"],
  timeoutMs: 5000,
};
// #endregion

const context = createContext();
// #region routes
await context.addRoutes((r) => {
  // A timer drives the pipeline: each tick looks up one SKU. No LLM is involved: the tool
  // steps are ordinary pipeline stages.
  r.from("timer:prices?period=500&repeatCount=3")
    .routeId("price-poller")
    .setHeader("sku", (exchange) => skus[Number(exchange.headers["timer.counter"]) - 1])
    .setBody((exchange: Exchange) => `${prices.baseUrl}/prices/${String(exchange.headers.sku)}`)
    .httpFetch(fetchOptions)
    .jsonPath({ path: "$.price" })
    .log("price of ${header.sku}: ${body} EUR")
    .to("mock:prices");

  // The same steps behind a request-reply endpoint: the body in is a SKU, the reply its stock.
  r.from("direct:stock")
    .routeId("stock-lookup")
    .setBody((exchange) => `${prices.baseUrl}/prices/${String(exchange.body)}`)
    .httpFetch(fetchOptions)
    .jsonPath({ path: "$.stock" });
});
// #endregion

// #region run
const polled = context.endpoint("mock:prices").expectedMessageCount(3);
await context.start();
await polled.assertIsSatisfied(10_000);
console.log("prices polled:", polled.receivedBodies);
console.log("stock of W-1:", await context.request("direct:stock", "W-1"));

// A failing fetch fails the exchange with the tool's message (here: HTTP 404).
const missing = await context.requestExchange("direct:stock", { body: "X-9" });
console.log("stock of X-9:", missing.error?.message);
await context.stop();
await prices.close();
// #endregion
