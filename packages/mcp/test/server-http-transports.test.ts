// The official SDK's Client against routekit's Streamable HTTP endpoint on 127.0.0.1, the same
// cases for both ways of serving it: a server of its own (serveMcpHttp) and mounted on the http:
// component's server (mcpServer({ transport: "http", mount: "http" }) after httpPlugin). Each way's
// own cases (its address, options and resources) are in server-http.test.ts and
// server-mounted-http.test.ts.
import { request as httpRequest } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { RouteContext } from "@routekit/core";
import { httpPlugin } from "@routekit/http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, mcpServer, mcpServerOf, serveMcpHttp } from "../src/index.js";
import { createFixtureContext, EXPOSED, type FixtureLog } from "./fixtures/tool-routes.js";
import { connect, initialize, post, text } from "./support/http-client.js";

const TOKEN = "test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SETTINGS = { tools: EXPOSED, token: TOKEN, toolTimeoutMs: 500 };

/** A started context serving the fixture's tools over HTTP, and how to stop both. */
interface Served {
  readonly context: RouteContext;
  readonly server: McpHttpServer;
  stop(): Promise<void>;
}

const TRANSPORTS: Array<{ name: string; serve: (log: FixtureLog) => Promise<Served> }> = [
  {
    name: "serveMcpHttp",
    async serve(log) {
      const context = await createFixtureContext(log);
      await context.start();
      const server = await serveMcpHttp(context, SETTINGS);
      return {
        context,
        server,
        async stop() {
          await server.close();
          await context.stop();
        },
      };
    },
  },
  {
    name: 'mcpServer({ transport: "http", mount: "http" })',
    async serve(log) {
      const context = await createFixtureContext(log);
      context.use(httpPlugin());
      context.use(mcpServer({ transport: "http", mount: "http", ...SETTINGS }));
      await context.start();
      return { context, server: mcpServerOf(context) as McpHttpServer, stop: () => context.stop() };
    },
  },
];

describe.each(TRANSPORTS)("$name with the SDK's Client", ({ serve }) => {
  const log: FixtureLog = { aborted: [] };
  let served: Served;
  let url: string;
  const clients: Array<{ client: Client; transport: StreamableHTTPClientTransport }> = [];

  beforeAll(async () => {
    served = await serve(log);
    url = served.server.url;
  });

  afterEach(async () => {
    for (const { client, transport } of clients.splice(0)) {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    }
  });

  afterAll(async () => {
    await served.stop();
  });

  async function connected() {
    const pair = await connect(url, AUTH);
    clients.push(pair);
    return pair.client;
  }

  it("lists only the allowed tools", async () => {
    const client = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "add",
      "echo",
      "fail",
      "slow",
      "progress",
      "burst",
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
    await waitUntil(() => log.aborted.length > before);
    expect(log.aborted.length).toBe(before + 1);
    expect(log.aborted.at(-1)).not.toBe("TimeoutError");
  });

  it("aborts a session's in-flight calls when the client ends the session (DELETE)", async () => {
    const { client, transport } = await connect(url, AUTH);
    const before = log.aborted.length;
    const call = client.callTool({ name: "slow", arguments: { ms: 400 } }).catch((error: Error) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await transport.terminateSession();
    await waitUntil(() => log.aborted.length > before);
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

  it("gets every progress notification to the client before the result, when a route ends at once", async () => {
    const client = await connected();
    for (let call = 0; call < 20; call++) {
      const updates: number[] = [];
      const result = await client.callTool({ name: "burst", arguments: {} }, undefined, {
        onprogress: (update) => updates.push(update.progress),
      });
      expect(text(result)).toBe("burst done");
      expect(updates).toEqual([1, 2, 3]);
    }
  });

  it("sends list_changed when routes are added and removed after start", async () => {
    const client = await connected();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    // The standalone SSE stream carries server notifications; give the client a moment to open it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await served.context.addRoutes((r) => {
      r.from("direct:late")
        .routeId("late")
        .asLlmTool("late_tool", { description: "Added after start." })
        .setBody(() => "late");
    });
    await waitUntil(() => changes > 0);
    expect(changes).toBe(1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("late_tool");
    await served.context.removeRoute("late");
    await waitUntil(() => changes > 1);
    expect(changes).toBe(2);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("late_tool");
  });

  it("refuses a foreign Origin (DNS rebinding) and a foreign Host with 403 before any session", async () => {
    const foreign = await post(url, { ...AUTH, origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({
      error: { message: "Origin 'http://evil.example' is not allowed" },
    });
    const own = await post(url, { ...AUTH, origin: new URL(url).origin });
    expect(own.status).toBe(200);
    await own.body?.cancel();
    const port = new URL(url).port;
    // fetch sends the Host of the URL; node:http sends the one given, as a rebound name would.
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(url, {
        method: "POST",
        headers: { ...AUTH, host: `attacker.example:${port}`, "content-type": "application/json" },
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

  it("refuses a missing or wrong bearer token with 401, and the SDK Client with it", async () => {
    const missing = await post(url, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const wrong = await post(url, { authorization: "Bearer not-the-token" });
    expect(wrong.status).toBe(401);
    await expect(connect(url, { authorization: "Bearer nope-nope-nope" })).rejects.toThrow();
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
    const before = served.server.sessions;
    const { client, transport } = await connect(url, AUTH);
    expect(served.server.sessions).toBe(before + 1);
    await transport.terminateSession();
    await client.close();
    expect(served.server.sessions).toBe(before);
  });
});

/** Polls `condition` every 10 ms for up to 5 s. */
async function waitUntil(condition: () => boolean): Promise<void> {
  const started = Date.now();
  while (!condition() && Date.now() - started < 5_000)
    await new Promise((resolve) => setTimeout(resolve, 10));
}
