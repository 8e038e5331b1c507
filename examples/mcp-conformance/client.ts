// The client program the official MCP conformance suite runs against its test servers: a routekit
// context reaching the server at the URL given as the last argument with `mcpTools`, calling its
// tools as an llm step would, and answering its elicitation requests with a route.
import { createContext } from "@routekit/core";
import "@routekit/llm";
import { mcpTools } from "@routekit/mcp";

const url = process.argv.at(-1);
if (url === undefined || !/^https?:\/\//.test(url)) {
  process.stderr.write("usage: client.ts <server-url>\n");
  process.exit(2);
}

// #region answer-server
const context = createContext({ name: "mcp-conformance-client", logLevel: "warn" });
await context.addRoutes((r) => {
  // Accept every form as it comes: the fields left out get the schema's defaults (SEP-1034).
  r.from("direct:answer-elicitation").setBody(() => ({ action: "accept", content: {} }));
});
context.use(
  mcpTools({ name: "remote", url, prefix: "", elicitation: "direct:answer-elicitation", reconnect: false }),
);
// #endregion
await context.start();
try {
  for (const tool of context.tools.list()) {
    const input = tool.name === "add_numbers" ? { a: 5, b: 3 } : {};
    const result = await tool.execute(input, {});
    process.stdout.write(`${tool.name}: ${result.output}\n`);
  }
} finally {
  await context.stop({ timeoutMs: 5_000 });
}
