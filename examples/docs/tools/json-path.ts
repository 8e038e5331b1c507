// The code of docs/tools/json-path.md; run by examples/test/docs-examples.test.ts.
import "@routekit/amqp";
import { createContext, RouteBuilder } from "@routekit/core";
import { JsonPathTool } from "@routekit/llm-tools";

/** Needs a RabbitMQ broker: type-checked only. */
export class FirstItemRoutes extends RouteBuilder {
  configure() {
    // #region step
    this.from("amqp:queue:orders")
      .jsonPath({ path: "$.items[0]" }) // body: the order → '{"sku":"A-1",...}'
      .to("amqp:queue:first-items");
    // #endregion step
  }
}

/** Runs the wrapper and the value step as the page shows them; returns their replies. */
export async function main(): Promise<{ wrapper: unknown; firstItem: unknown }> {
  const context = createContext({ logLevel: "off" });
  // #region value
  await context.addRoutes((r) => {
    r.from("direct:first-item")
      .jsonPath<{ sku: string; price: number }>({ path: "$.items[0]", output: "value" })
      .setBody((exchange) => `${exchange.body.sku}: ${exchange.body.price * 2}`); // no JSON.parse
  });
  // #endregion value
  // #region wrapper
  await context.addRoutes(new JsonPathTool());
  await context.start();
  // = from("direct:llm.json_path").asLlmTool("json_path", { description, input: JSON_PATH_INPUT_SCHEMA }).jsonPath()
  await context.request("direct:llm.json_path", { json: '{"a":[1,2]}', path: "$.a[1]" }); // "2"
  // #endregion wrapper
  try {
    return {
      wrapper: await context.request("direct:llm.json_path", { json: '{"a":[1,2]}', path: "$.a[1]" }),
      firstItem: await context.request("direct:first-item", { items: [{ sku: "A-1", price: 6 }] }),
    };
  } finally {
    await context.stop();
  }
}
