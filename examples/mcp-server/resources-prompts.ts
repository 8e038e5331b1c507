// Routes as MCP resources, resource templates and prompts, tool routes with rich results, log
// lines, sampling and elicitation — a routes module for `routekit-mcp serve`.
import { createContext, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import {
  mcpElicit,
  mcpImage,
  mcpLog,
  mcpResource,
  mcpSample,
  mcpText,
  notifyResourceUpdated,
} from "@routekit/mcp";

const logo = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const orders: Record<string, { status: string }> = {
  "A-17": { status: "shipped" },
  "B-4": { status: "packing" },
};

export async function context(): Promise<RouteContext> {
  const routes = createContext({ name: "mcp-resources-example", logLevel: "warn" });
  await routes.addRoutes((r) => {
    // #region resources
    // A fixed resource: the reply is its content (a string is text/plain).
    r.from("direct:policy")
      .asMcpResource("docs://returns-policy", { description: "How returns work", mimeType: "text/markdown" })
      .setBody(() => "# Returns\nWithin 30 days.");
    // Bytes are sent as a blob with the MIME type.
    r.from("direct:logo")
      .asMcpResource("docs://logo", { mimeType: "image/png" })
      .setBody(() => logo);
    // A template: the route gets { uri, id } and serves every matching URI; `complete` suggests ids.
    r.from("direct:order")
      .asMcpResource("orders://{id}", {
        description: "One order as JSON",
        complete: { id: (typed) => Object.keys(orders).filter((id) => id.startsWith(typed)) },
      })
      .setBody(({ body }) => orders[String(body.id)] ?? { error: `no order '${body.id}'` });
    // #endregion

    // #region prompts
    // A prompt: the arguments come in as the body, the reply is the messages.
    r.from("direct:review")
      .asMcpPrompt("review_order", {
        description: "Ask the model to review an order",
        arguments: [{ name: "orderId", description: "the order id", required: true }],
        complete: { orderId: (typed) => Object.keys(orders).filter((id) => id.startsWith(typed)) },
      })
      .setBody(({ body }) => [
        mcpResource({ uri: `orders://${body.orderId}`, text: JSON.stringify(orders[body.orderId ?? ""]) }),
        mcpImage(logo, "image/png"),
        { role: "user" as const, content: `Review order ${body.orderId} against our returns policy.` },
      ]);
    // #endregion

    // #region rich-results
    // A tool whose reply is MCP content: a caption and an image (a plain object stays JSON text).
    r.from("direct:tool.logo")
      .asLlmTool("shop_logo", { description: "The shop's logo with a caption" })
      .setBody(() => [mcpText("Our logo:"), mcpImage(logo, "image/png")]);
    // #endregion

    // #region logging
    // Log lines of a running call reach the calling client at the level it set (logging/setLevel).
    r.from("direct:tool.reindex")
      .asLlmTool("reindex", { description: "Rebuild the order index" })
      .log("reindexing orders") // a log step: the context's log, and the calling client at "info"
      .process((exchange) => {
        mcpLog(exchange, "warning", { skipped: 0 });
        notifyResourceUpdated(routes, "orders://A-17"); // subscribers of that resource hear of it
      })
      .setBody(() => "reindexed");
    // #endregion

    // #region ask-client
    // Ask the calling client's model (sampling) and its user (elicitation) from inside a tool route.
    r.from("direct:tool.name_product")
      .asLlmTool("name_product", { description: "Suggest a product name and confirm it with the user" })
      .transform(async (exchange) => {
        const suggestion = await mcpSample(exchange, {
          messages: [{ role: "user", content: { type: "text", text: "Suggest a name for a teal mug" } }],
          maxTokens: 20,
        });
        const suggested = suggestion.content.type === "text" ? suggestion.content.text : "Mug";
        const answer = await mcpElicit(exchange, {
          message: `Use the name "${suggested}"?`,
          requestedSchema: {
            type: "object",
            properties: {
              name: { type: "string", default: suggested },
              size: { type: "string", enum: ["small", "large"], default: "small" },
            },
          },
        });
        return answer.action === "accept" ? answer.content : { declined: true };
      });
    // #endregion
  });
  return routes;
}

// #region selection
/** What clients see: tools, resources and prompts are each selected explicitly. */
export const mcp = {
  tools: ["shop_logo", "reindex", "name_product"],
  resources: ["docs://returns-policy", "docs://logo", "orders://{id}"],
  prompts: ["review_order"],
};
// #endregion
