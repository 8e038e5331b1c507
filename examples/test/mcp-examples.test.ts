import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = (script: string) =>
  promisify(execFile)(process.execPath, ["--import", "tsx", script], { cwd: root, timeout: 110_000 });

describe("examples/mcp-server and examples/mcp-client", () => {
  it("mcp-server: the SDK's Client lists the seven tools and calls them over stdio", async () => {
    const { stdout } = await run("examples/mcp-server/main.ts");
    expect(stdout).toContain(
      "tools: http_fetch, json_path, xpath, regex_extract, math_eval, web_search, order_status",
    );
    expect(stdout).toContain("math_eval: 14");
    expect(stdout).toContain("progress: looking up A-17");
    expect(stdout).toContain('order_status: {"status":"shipped","totalUsd":120}');
    expect(stdout).toContain('json_path: ["W-1","G-2"]');
    expect(stdout).toContain("(isError: true)");
  }, 120_000);

  it("mcp-client: an llm step and a route call an MCP server's tools; routes read its resources and prompts", async () => {
    const { stdout } = await run("examples/mcp-client/main.ts");
    expect(stdout).toContain("shop_order_status");
    expect(stdout).toContain(
      'llm step: Order A-17: {"status":"shipped","totalUsd":120}; with 10% off it costs 108 USD.',
    );
    expect(stdout).toContain("route: 38.25");
    // The second server's resources and prompts, as endpoints.
    expect(stdout).toContain("resource: # Returns\nWithin 30 days.");
    expect(stdout).toContain('template: {"status":"shipped"}');
    expect(stdout).toContain("prompt: 3 messages, the last from the user");
  }, 180_000);
});
