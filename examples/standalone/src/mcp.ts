// @routekit/mcp both ways: one context serves math_eval over Streamable HTTP on loopback, another
// registers that server's tools with mcpTools and calls one from a route.
import assert from "node:assert/strict";
import { createContext } from "@routekit/core";
import { MathEvalTool } from "@routekit/llm-tools";
import { mcpTools, serveMcpHttp } from "@routekit/mcp";

export async function checkMcp(): Promise<void> {
  const serving = createContext({ logLevel: "warn" });
  await serving.addRoutes(new MathEvalTool());
  await serving.start();
  const server = await serveMcpHttp(serving, { tools: ["math_eval"], port: 0 });
  const client = createContext({ logLevel: "warn" });
  try {
    client.use(mcpTools({ name: "calc", url: server.url }));
    await client.addRoutes((r) => {
      r.from("direct:remote-math").to("mcp:calc/math_eval");
    });
    await client.start();
    assert.deepEqual(client.tools.names(), ["calc_math_eval"]);
    const result = await client.request("direct:remote-math", { expression: "6 * 7" });
    assert.equal(result, "42");
    console.log("mcp: math_eval over Streamable HTTP answered", result);
  } finally {
    await client.stop();
    await server.close();
    await serving.stop();
  }
}
