// The official SDK's Client against routekit's Streamable HTTP server on 127.0.0.1: in this
// process (to watch the routes' signals and the server's sessions) and as a child started with
// `routekit-mcp serve --http`.
import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, serveMcpHttp } from "../src/index.js";
import { createFixtureContext, EXPOSED, type FixtureLog } from "./fixtures/tool-routes.js";
import { BIN, killChild, spawnHttpChild, TOOL_ROUTES } from "./support/processes.js";

const TOKEN = "test-token-0123456789";
const text = (result: unknown) =>
  ((result as { content?: Array<{ text?: string }> }).content ?? [])
    .map((block) => block.text ?? "")
    .join("");

async function connect(url: string, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  await client.connect(transport);
  return { client, transport };
}

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
});

function post(url: string, headers: Record<string, string>, body = initialize) {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body,
  });
}

describe("serveMcpHttp with the SDK's Client", () => {
  const log: FixtureLog = { aborted: [] };
  let context: RouteContext;
  let server: McpHttpServer;
  const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];

  beforeAll(async () => {
    context = await createFixtureContext(log);
    await context.start();
    server = await serveMcpHttp(context, { tools: EXPOSED, token: TOKEN, toolTimeoutMs: 500 });
  });

  afterEach(async () => {
    for (const { client, transport } of clients.splice(0)) {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  afterAll(async () => {
    await server.close();
    await context.stop();
  });

  async function connected() {
    const pair = await connect(server.url);
    clients.push(pair);
    return pair.client;
  }

  it("binds to 127.0.0.1 and lists only the allowed tools", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "add",
      "echo",
      "fail",
      "slow",
      "progress",
      "aborts",
      "grow",
    ]);
  });

  it("calls tools: text, structuredContent, invalid arguments and a throwing route", async () => {
    const client = await connected();
    expect(text(await client.callTool({ name: "echo", arguments: { text: "over http" } }))).toBe(
      "echo: over http",
    );
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).structuredContent).toEqual({
      sum: 2,
    });
    const invalid = await client.callTool({ name: "echo", arguments: {} });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toContain("must have required property 'text'");
    const failed = await client.callTool({ name: "fail", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(text(failed)).not.toMatch(/\n\s+at /);
  });

  it("times a call out and aborts the route's exchange signal", async () => {
    const client = await connected();
    const before = log.aborted.length;
    const result = await client.callTool({ name: "slow", arguments: { ms: 30_000 } });
    expect(text(result)).toBe("tool 'slow' timed out after 500 ms");
    expect(log.aborted.length).toBe(before + 1);
  });

  it("aborts the route's signal on notifications/cancelled", async () => {
    const client = await connected();
    const before = log.aborted.length;
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 400 } }, undefined, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("stop it")), 100);
    await expect(call).rejects.toThrow(/stop it/);
    const started = Date.now();
    while (log.aborted.length === before && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(log.aborted.length).toBe(before + 1);
    expect(log.aborted.at(-1)).not.toBe("TimeoutError");
  });

  it("aborts a session's in-flight calls when the client ends the session (DELETE)", async () => {
    const { client, transport } = await connect(server.url);
    const before = log.aborted.length;
    const call = client.callTool({ name: "slow", arguments: { ms: 400 } }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await transport.terminateSession();
    const started = Date.now();
    while (log.aborted.length === before && Date.now() - started < 5_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(log.aborted.length).toBe(before + 1);
    await client.close();
    await call;
  });

  it("streams progress a step reports", async () => {
    const client = await connected();
    const updates: number[] = [];
    await client.callTool({ name: "progress", arguments: {} }, undefined, {
      onprogress: (update) => updates.push(update.progress),
    });
    expect(updates).toEqual([1, 2, 3]);
  });

  it("sends list_changed when routes are added and removed after start", async () => {
    const client = await connected();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    // The standalone SSE stream carries server notifications; give the client a moment to open it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await context.addRoutes((r) => {
      r.from("direct:late")
        .routeId("late")
        .asLlmTool("late_tool", { description: "Added after start." })
        .setBody(() => "late");
    });
    const started = Date.now();
    while (changes === 0 && Date.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("late_tool");
    await context.removeRoute("late");
    while (changes === 1 && Date.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toBe(2);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("late_tool");
  });

  it("refuses a foreign Origin (DNS rebinding) and a foreign Host with 403", async () => {
    const auth = { authorization: `Bearer ${TOKEN}` };
    const foreign = await post(server.url, { ...auth, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: { message: "Origin 'http://evil.example' is not allowed" },
    });
    const own = await post(server.url, { ...auth, origin: new URL(server.url).origin });
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const port = new URL(server.url).port;
    // fetch sends the Host of the URL; node:http sends the one given, as a rebound name would.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(server.url, {
        method: "POST",
        headers: { ...auth, host: `attacker.example:${port}`, "content-type": "application/json" },
      });
      request.once("response", (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.once("error", reject);
      request.end(initialize);
    });
    expect(status).toBe(403);
  });

  it("refuses a missing or wrong bearer token with 401", async () => {
    const missing = await post(server.url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await post(server.url, { authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    await expect(connect(server.url, { authorization: "Bearer nope-nope-nope" })).rejects.toThrow();
  });

  it("answers an oversized request with 413 and keeps serving", async () => {
    const client = await connected();
    const huge = "x".repeat(5 * 1024 * 1024);
    await expect(client.callTool({ name: "echo", arguments: { text: huge } })).rejects.toThrow(
      /413|too large/i,
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe(
      "echo: still here",
    );
  });

  it("releases sessions when clients end them", async () => {
    const before = server.sessions;
    const { client, transport } = await connect(server.url);
    expect(server.sessions).toBe(before + 1);
    await transport.terminateSession();
    await client.close();
    expect(server.sessions).toBe(before);
  });
});

describe("serveMcpHttp options", () => {
  it("needs an allowlist or predicate: nothing is exposed by accident", async () => {
    const context = await createFixtureContext();
    await expect(serveMcpHttp(context, {} as never)).rejects.toThrow(/option 'tools' is required/);
    await expect(serveMcpHttp(context, { tools: ["echo"], tols: [] } as never)).rejects.toThrow(
      /unknown option 'tols' \(did you mean 'tools'\?\)/,
    );
    await expect(serveMcpHttp(context, { tools: ["echo"], host: "0.0.0.0" })).rejects.toThrow(
      /give a 'token'/,
    );
  });

  it("exposes the tools a predicate accepts", async () => {
    const context = await createFixtureContext();
    await context.start();
    const server = await serveMcpHttp(context, { tools: (tool) => tool.source === "native" });
    const { client, transport } = await connect(server.url, {});
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add"]);
    await transport.terminateSession();
    await client.close();
    await server.close();
    await context.stop();
  });
});

describe("serveMcpHttp resources", () => {
  const listening = () => process.getActiveResourcesInfo().filter((name) => name === "TCPServerWrap").length;

  it("releases its listening socket, its sessions and in-flight calls on close", async () => {
    const baseline = listening();
    const log: FixtureLog = { aborted: [] };
    const context = await createFixtureContext(log);
    await context.start();
    const server = await serveMcpHttp(context, { tools: ["echo", "slow"] });
    expect(listening()).toBe(baseline + 1);
    const { client } = await connect(server.url, {});
    expect(text(await client.callTool({ name: "echo", arguments: { text: "a" } }))).toBe("echo: a");
    // A call in flight when the server closes is aborted, not left running, and the client told.
    const pending = client.callTool({ name: "slow", arguments: { ms: 30_000 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.sessions).toBe(1);
    await server.close();
    expect(server.sessions).toBe(0);
    // libuv releases a closed handle on its next turn.
    for (let turn = 0; turn < 50 && listening() > baseline; turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listening()).toBe(baseline);
    expect(log.aborted).toHaveLength(1);
    await expect(fetch(server.url, { method: "POST" })).rejects.toThrow();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toBe("tool 'slow' was cancelled: the MCP server is closing");
    await client.close();
    await context.stop({ timeoutMs: 2_000 });
  });
});

describe("routekit-mcp serve --http", () => {
  it("serves a routes module over Streamable HTTP with a token from the environment", async () => {
    const { child, url } = await spawnHttpChild(
      process.execPath,
      [BIN, "serve", TOOL_ROUTES, "--http", "127.0.0.1:0", "--token-env", "FIXTURE_TOKEN"],
      { FIXTURE_TOKEN: TOKEN },
    );
    try {
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect((await post(url, {})).status).toBe(401);
      const { client, transport } = await connect(url);
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
      expect(text(await client.callTool({ name: "echo", arguments: { text: "child" } }))).toBe("echo: child");
      await transport.terminateSession();
      await client.close();
    } finally {
      await killChild(child);
    }
    expect(child.exitCode).toBe(0);
  }, 90_000);
});
