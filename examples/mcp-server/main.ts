// Starts routes.ts the way an MCP host does — `routekit-mcp serve examples/mcp-server/routes.ts`
// as a child process over stdio — and uses it with the official SDK's Client: list the tools, call
// math_eval, json_path and order_status (with progress). No network, no API key.
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

// The routekit-mcp command of this repository (installed: `npx routekit-mcp`, or node_modules/.bin).
const bin = fileURLToPath(new URL("../../packages/mcp/bin/routekit-mcp.js", import.meta.url));
const routes = fileURLToPath(new URL("./routes.ts", import.meta.url));

// #region sdk-client
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, "serve", routes],
  stderr: "ignore",
});
const client = new Client({ name: "example-host", version: "1.0.0" });
await client.connect(transport);

const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(", ")}`);

const sum = await client.callTool({ name: "math_eval", arguments: { expression: "2 * (3 + 4)" } });
console.log(`math_eval: ${textOf(sum)}`);

const order = await client.callTool({ name: "order_status", arguments: { orderId: "A-17" } }, undefined, {
  onprogress: (update) => console.log(`progress: ${update.message}`),
});
console.log(`order_status: ${textOf(order)}`);
// #endregion

const path = await client.callTool({
  name: "json_path",
  arguments: { json: '{"items":[{"sku":"W-1"},{"sku":"G-2"}]}', path: "$.items[*].sku" },
});
console.log(`json_path: ${textOf(path)}`);
const invalid = await client.callTool({ name: "order_status", arguments: { order: "A-17" } });
console.log(`invalid arguments: ${textOf(invalid)} (isError: ${invalid.isError})`);

await client.close();

function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");
}
