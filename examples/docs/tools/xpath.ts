// The code of docs/tools/xpath.md; run by examples/test/docs-examples.test.ts.
import { createContext, RouteBuilder } from "@routekit/core";
import { type HttpFetchOptions, XPathTool } from "@routekit/llm-tools";

/** Fetches a feed (type-checked only: it needs an HTTP server). */
export class FeedRoutes extends RouteBuilder {
  constructor(private readonly fetchOptions: HttpFetchOptions) {
    super();
  }

  configure() {
    const fetchOptions = this.fetchOptions;
    // #region step
    this.from("direct:feed")
      .httpFetch(fetchOptions)
      .xpath({ xpath: "string(//entry/title)" })
      .filter((exchange) => exchange.body !== null)
      .to("mock:titles");
    // #endregion step
  }
}

/** Runs the wrapper as the page shows it; returns its reply. */
export async function main(): Promise<unknown> {
  const xml = "<books><book><title>Dune</title></book><book><title>Emma</title></book></books>";
  const context = createContext({ logLevel: "off" });
  // #region wrapper
  await context.addRoutes(new XPathTool());
  await context.start();
  await context.request("direct:llm.xpath", { xml, xpath: "count(//book)" }); // "2"
  // #endregion wrapper
  try {
    return await context.request("direct:llm.xpath", { xml, xpath: "count(//book)" });
  } finally {
    await context.stop();
  }
}
