// An llm step whose tools come from an MCP server: mcpTools starts the server of
// examples/mcp-server as a child process (stdio), registers its tools as shop_<name>, and a
// scripted model (offline, no API key) calls two of them. A route also calls one directly with
// to("mcp:shop/math_eval").
import { fileURLToPath } from "node:url";
import { createContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { mcpTools } from "@routekit/mcp";

// The routekit-mcp command of this repository (installed: `npx routekit-mcp`, or node_modules/.bin).
const bin = fileURLToPath(new URL("../../packages/mcp/bin/routekit-mcp.js", import.meta.url));
const serverRoutes = fileURLToPath(new URL("../mcp-server/routes.ts", import.meta.url));
const docsRoutes = fileURLToPath(new URL("../mcp-server/resources-prompts.ts", import.meta.url));

// The model's side of the conversation, scripted: two tool calls, then an answer from their results.
const model = scriptedModel([
  {
    toolCalls: [
      { name: "shop_order_status", arguments: { orderId: "A-17" } },
      { name: "shop_math_eval", arguments: { expression: "120 * 0.9" } },
    ],
  },
  (request) => {
    const last = request.messages.at(-1);
    const [order, discounted] = last?.role === "tool" ? last.results.map((result) => result.output) : [];
    return { text: `Order A-17: ${order}; with 10% off it costs ${discounted} USD.` };
  },
]);

// #region mcp-tools
const context = createContext({ logLevel: "warn" });
context.use(llmPlugin({ models: { agent: model } }));
context.use(
  mcpTools({
    name: "shop",
    command: process.execPath,
    args: [bin, "serve", serverRoutes],
    callTimeoutMs: 20_000,
    connectTimeoutMs: 60_000, // starting a TypeScript server through tsx can take a while
  }),
);

await context.addRoutes((r) => {
  // The server's tools are in context.tools as shop_<tool>: an llm step offers them like any tool.
  r.from("direct:ask").to(llm("agent").tools("shop_order_status", "shop_math_eval").uri());
  // A route calls one directly; the body is the arguments, the reply the tool's value.
  r.from("direct:discount")
    .setBody(() => ({ expression: "42.5 * 0.9" }))
    .to("mcp:shop/math_eval");
});
await context.start();
// #endregion

console.log(`registered: ${context.tools.names().join(", ")}`);
console.log(
  `llm step: ${await context.request("direct:ask", "What is the status of order A-17, and its price with 10% off?")}`,
);
console.log(`route: ${await context.request("direct:discount")}`);

// #region mcp-resources-prompts
// A server's resources and prompts are endpoints too: mcp:SERVER/resource/URI and mcp:SERVER/prompt/NAME.
const docs = createContext({ logLevel: "warn" });
docs.use(
  mcpTools({
    name: "docs",
    command: process.execPath,
    args: [bin, "serve", docsRoutes],
    connectTimeoutMs: 60_000,
  }),
);
await docs.addRoutes((r) => {
  r.from("direct:policy").to("mcp:docs/resource/docs://returns-policy"); // body out: the text
  r.from("direct:order").toD("mcp:docs/resource/orders://${header.orderId}"); // a template's URI
  r.from("direct:review-prompt").to("mcp:docs/prompt/review_order"); // body in: the arguments
});
await docs.start();
// #endregion
console.log(`resource: ${await docs.request("direct:policy")}`);
console.log(`template: ${await docs.request("direct:order", null, { orderId: "A-17" })}`);
const messages = await docs.request<Array<{ role: string }>>("direct:review-prompt", { orderId: "B-4" });
console.log(`prompt: ${messages.length} messages, the last from the ${messages.at(-1)?.role}`);

await docs.stop();
await context.stop();
