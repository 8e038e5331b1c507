// Deeply nested JSON-RPC bodies: bounded before they are parsed (400, -32602), on the server of
// serveMcpHttp's own.
import { describe, expect, it } from "vitest";
import { serveMcpHttp } from "../src/index.js";
import { createFixtureContext } from "./fixtures/tool-routes.js";
import { connect, post, text } from "./support/http-client.js";

const deep = (depth: number) => `${"[".repeat(depth)}1${"]".repeat(depth)}`;
const call = (argumentsText: string) =>
  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":${argumentsText}}}}`;

describe("attack: deeply nested MCP tool arguments", () => {
  it("arguments nested past maxJsonDepth (default 128) get 400 and -32602 before parsing; calls go on", async () => {
    const context = await createFixtureContext();
    await context.start();
    const server = await serveMcpHttp(context, { tools: ["echo"] });
    try {
      const opened = await post(server.url, {});
      const session = opened.headers.get("mcp-session-id") ?? "";
      expect(session).not.toBe("");
      // 1 MB of nesting, under the default 4 MiB body limit.
      const response = await post(server.url, { "mcp-session-id": session }, call(deep(500_000)));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: {
          code: -32602,
          message:
            "Invalid params: JSON nested more than 128 levels deep (at character 216); the server accepts up to 128 levels (option 'maxJsonDepth')",
        },
      });
      const { client, transport } = await connect(server.url, {});
      expect(text(await client.callTool({ name: "echo", arguments: { text: "[[[]]] {{" } }))).toBe(
        "echo: [[[]]] {{",
      );
      await transport.terminateSession();
      await client.close();
    } finally {
      await server.close();
      await context.stop();
    }
  });

  it("the limit is an option; a malformed body is still a parse error", async () => {
    const context = await createFixtureContext();
    await context.start();
    await expect(serveMcpHttp(context, { tools: ["echo"], maxJsonDepth: 0 })).rejects.toThrow(
      /option 'maxJsonDepth' must be a whole number >= 1 \(found number 0\)/,
    );
    const server = await serveMcpHttp(context, { tools: ["echo"], maxJsonDepth: 8 });
    try {
      const tooDeep = await post(server.url, {}, call(deep(6)));
      expect(((await tooDeep.json()) as { error: { message: string } }).error.message).toMatch(
        /nested more than 8 levels deep/,
      );
      const malformed = await post(server.url, {}, "{not json");
      expect(malformed.status).toBe(400);
      expect(((await malformed.json()) as { error: { code: number } }).error.code).toBe(-32700);
    } finally {
      await server.close();
      await context.stop();
    }
  });
});
