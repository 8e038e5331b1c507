// The code of docs/tools/http-fetch.md: type-checked, not run (it fetches from a remote host).
import "@routekit/amqp";
import { createContext, RouteBuilder } from "@routekit/core";
import { HttpFetchError, HttpFetchTool } from "@routekit/llm-tools";

export class EnrichmentRoutes extends RouteBuilder {
  configure() {
    // #region step
    this.from("amqp:queue:urls")
      .httpFetch({ hostAllowlist: ["api.example.com"] })
      .jsonPath({ path: "$.items[0]" })
      .to("amqp:queue:enriched");
    // #endregion step
  }
}

export class PriceRoutes extends RouteBuilder {
  configure() {
    // #region retry
    this.from("direct:prices")
      .onException(HttpFetchError, {
        retryWhile: "${exception.status} >= 500",
        maximumRedeliveries: 3,
        redeliveryDelay: 200,
        backOffMultiplier: 2,
      })
      .httpFetch({ hostAllowlist: ["api.example.com"] })
      .to("mock:prices");
    // #endregion retry
  }
}

/** Mounts the wrapper and fetches one URL through it. */
export async function main(): Promise<void> {
  const context = createContext();
  // #region wrapper
  await context.addRoutes(new HttpFetchTool({ hostAllowlist: ["api.example.com"] }));
  await context.start();
  await context.request("direct:llm.http_fetch", { url: "https://api.example.com/items" });
  // #endregion wrapper
  await context.stop();
}
