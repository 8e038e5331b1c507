// The same kind of server in-process over Streamable HTTP: serveMcpHttp on 127.0.0.1 with a bearer
// token, a registered tool with an output schema (its value arrives as structuredContent), and the
// SDK's Client calling it. Then the plugin form, started and stopped with the context, and the
// endpoint mounted on the http: routes' server.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import "@routekit/llm";
import { mcpServer, mcpServerOf, serveMcpHttp } from "@routekit/mcp";

const context = createContext({ logLevel: "warn" });

// #region output-schema
// A tool that declares what it returns: MCP clients get outputSchema and structuredContent.
const convert = {
  name: "convert_currency",
  description: "Convert an amount between currencies.",
  inputSchema: {
    type: "object",
    properties: { amount: { type: "number" }, from: { type: "string" }, to: { type: "string" } },
    required: ["amount", "from", "to"],
  },
  outputSchema: {
    type: "object",
    properties: { amount: { type: "number" }, currency: { type: "string" } },
    required: ["amount", "currency"],
  },
  execute: ({ amount, to }: { amount: number; to: string }) => ({ amount: amount * 0.9, currency: to }),
} as const;
context.tools.register(convert);
// #endregion

await context.start();

// #region serve-http
const token = process.env.MCP_TOKEN ?? "example-token-123";
const server = await serveMcpHttp(context, {
  tools: ["convert_currency"], // or a predicate: (tool) => tool.source === "route"
  port: 0, // any free port; 127.0.0.1 unless `host` says otherwise
  token, // clients send "Authorization: Bearer <token>"
});
console.log(`serving at ${server.url}`);
// #endregion

// #region http-client
const client = new Client({ name: "example-host", version: "1.0.0" });
await client.connect(
  new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);
const result = await client.callTool({
  name: "convert_currency",
  arguments: { amount: 100, from: "USD", to: "EUR" },
});
console.log(`structuredContent: ${JSON.stringify(result.structuredContent)}`);
// #endregion
await client.close();
await server.close();
await context.stop();

// #region plugin
// The plugin form: the server starts after the routes and closes when the context stops.
const served = createContext({ logLevel: "warn" });
served.tools.register(convert);
served.use(mcpServer({ transport: "http", port: 0, tools: ["convert_currency"] }));
await served.start();
console.log(`plugin serving at ${"url" in mcpServerOf(served) ? "an HTTP URL" : "stdio"}`);
await served.stop();
// #endregion

// #region mount-on-http
// The endpoint on the http: routes' server: one port for the routes and for MCP.
const shop = createContext({ logLevel: "warn" });
shop.tools.register(convert);
shop.use(httpPlugin({ port: 0 })); // installed first: the MCP endpoint mounts on its server
shop.use(mcpServer({ transport: "http", mount: "http", path: "/mcp", tools: ["convert_currency"], token }));
await shop.addRoutes((r) => {
  r.from("http:/health").setBody(() => ({ ok: true }));
});
await shop.start();
const base = httpServerOf(shop).url;
console.log(`routes at ${base}/health, MCP at ${base}/mcp`);
// #endregion
const shopClient = new Client({ name: "example-host", version: "1.0.0" });
await shopClient.connect(
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  }),
);
const mounted = await shopClient.callTool({
  name: "convert_currency",
  arguments: { amount: 10, from: "USD", to: "EUR" },
});
console.log(`mounted structuredContent: ${JSON.stringify(mounted.structuredContent)}`);
await shopClient.close();
await shop.stop();
