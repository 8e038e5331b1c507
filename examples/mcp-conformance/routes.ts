// The routes module the official MCP conformance suite runs against: every tool, resource and
// prompt its server scenarios call, written as routes (`routekit-mcp serve --http`).
import { createContext, type RouteContext } from "@routekit/core";
import "@routekit/llm";
import { reportProgress } from "@routekit/mcp";

/** A 1x1 red PNG and a minimal WAV file, base64 as the suite sends them. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const WAV_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function context(): Promise<RouteContext> {
  const routes = createContext({ name: "mcp-conformance", logLevel: "warn" });
  await routes.addRoutes((r) => {
    r.from("direct:test_simple_text")
      .asLlmTool("test_simple_text", { description: "Tests simple text content response" })
      .setBody(() => "This is a simple text response for testing.");
    r.from("direct:test_error_handling")
      .asLlmTool("test_error_handling", { description: "Tests error response handling" })
      .process(() => {
        throw new Error("This tool intentionally returns an error for testing");
      });
    r.from("direct:test_tool_with_progress")
      .asLlmTool("test_tool_with_progress", { description: "Tests tool that reports progress notifications" })
      .process(async (exchange) => {
        for (const step of [0, 50, 100]) {
          reportProgress(exchange, step, 100, `Completed step ${step} of 100`);
          if (step < 100) await sleep(50);
        }
      })
      .setBody(() => "progress reported");
    r.from("direct:json_schema_2020_12_tool")
      .asLlmTool("json_schema_2020_12_tool", {
        description: "Tool with JSON Schema 2020-12 features (SEP-1613)",
        input: {
          $schema: "https://json-schema.org/draft/2020-12/schema",
          type: "object",
          $defs: {
            address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
          },
          properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
          additionalProperties: false,
        },
      })
      .setBody(({ body }) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(body)}`);
    r.from("direct:test_reconnection")
      .asLlmTool("test_reconnection", { description: "Tests SSE stream disconnection (SEP-1699)" })
      .process(() => sleep(100))
      .setBody(() => "Reconnection test completed successfully.");
  });
  return routes;
}

export const mcp = { tools: (tool: { source?: string }) => tool.source === "route" };
