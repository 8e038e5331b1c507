// routekit's MCP endpoint mounted on the http: component's server (httpPlugin), on 127.0.0.1,
// beside an http: route of the same context: its address, mounting options and resources. The
// cases it shares with serveMcpHttp's own server are in server-http-transports.test.ts.
import type { RouteContext } from "@routekit/core";
import { httpPlugin, httpServerOf } from "@routekit/http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpHttpServer, mcpServer, mcpServerOf, mountMcpHttp } from "../src/index.js";
import { createFixtureContext, EXPOSED, type FixtureLog } from "./fixtures/tool-routes.js";
import { connect, listening, post, text } from "./support/http-client.js";

const TOKEN = "mounted-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

/** A started context with httpPlugin, an http: route at /health and the fixture's tool routes. */
async function startContext(mcp: Parameters<typeof mcpServer>[0], log?: FixtureLog): Promise<RouteContext> {
  const context = await createFixtureContext(log);
  context.use(httpPlugin());
  context.use(mcpServer(mcp));
  await context.addRoutes((r) => {
    r.from("http:/health").setBody(() => ({ ok: true }));
  });
  await context.start();
  return context;
}

describe('mcpServer({ transport: "http", mount: "http" }) on the http: server', () => {
  let context: RouteContext;
  let server: McpHttpServer;

  beforeAll(async () => {
    context = await startContext({ transport: "http", mount: "http", tools: EXPOSED, token: TOKEN });
    server = mcpServerOf(context) as McpHttpServer;
  });

  afterAll(async () => {
    await context.stop();
  });

  it("serves at /mcp on the http: server's port, beside the http: routes", async () => {
    expect(server.url).toBe(`${httpServerOf(context).url}/mcp`);
    const { client, transport } = await connect(server.url, AUTH);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("echo");
    expect(text(await client.callTool({ name: "echo", arguments: { text: "mounted" } }))).toBe(
      "echo: mounted",
    );
    // The route on the same server still answers, and needs no MCP token.
    const health = await fetch(`${httpServerOf(context).url}/health`);
    expect(await health.json()).toEqual({ ok: true });
    await transport.terminateSession();
    await client.close();
    expect(server.sessions).toBe(0);
  });

  it("answers 404 under the mount path but off the endpoint", async () => {
    const response = await post(`${server.url}/other`, AUTH);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining("/mcp") } });
  });
});

describe("the mounted endpoint's resources", () => {
  it("the context's stop lets an in-flight call finish, then closes sessions and releases the socket", async () => {
    const baseline = listening();
    const log: FixtureLog = { aborted: [] };
    const context = await startContext({ transport: "http", mount: "http", tools: ["echo", "slow"] }, log);
    const server = mcpServerOf(context) as McpHttpServer;
    expect(listening()).toBe(baseline + 1);
    const { client } = await connect(server.url, {});
    const pending = client.callTool({ name: "slow", arguments: { ms: 300 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.sessions).toBe(1);
    await context.stop({ timeoutMs: 5_000 });
    expect(text(await pending)).toBe("slow done");
    expect(log.aborted).toHaveLength(0);
    expect(server.sessions).toBe(0);
    for (let turn = 0; turn < 50 && listening() > baseline; turn++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(listening()).toBe(baseline);
    await expect(fetch(server.url, { method: "POST" })).rejects.toThrow();
    await client.close();
  });

  it("unmounts on close: the path goes back to the routes (404), the http: server keeps serving", async () => {
    const context = await createFixtureContext();
    context.use(httpPlugin());
    await context.addRoutes((r) => {
      r.from("http:/health").setBody(() => "up");
    });
    await context.start();
    try {
      const server = await mountMcpHttp(context, { tools: ["echo"], path: "/tools/mcp" });
      expect(server.url).toBe(`${httpServerOf(context).url}/tools/mcp`);
      const { client, transport } = await connect(server.url, {});
      expect(text(await client.callTool({ name: "echo", arguments: { text: "x" } }))).toBe("echo: x");
      await transport.terminateSession();
      await client.close();
      await server.close();
      const gone = await post(server.url, {});
      expect(gone.status).toBe(404);
      await gone.body?.cancel();
      expect(await (await fetch(`${httpServerOf(context).url}/health`)).text()).toBe("up");
    } finally {
      await context.stop();
    }
  });
});

describe("mounting options", () => {
  it("refuses host and port, a mount other than http, and mount with stdio", async () => {
    const context = await createFixtureContext();
    await expect(mountMcpHttp(context, { tools: ["echo"], port: 8080 } as never)).rejects.toThrow(
      /option 'port' is not used: the endpoint is on the http: server/,
    );
    expect(() => mcpServer({ transport: "http", mount: "https", tools: ["echo"] } as never)).toThrow(
      /option 'mount' must be "http"/,
    );
    expect(() => mcpServer({ transport: "stdio", mount: "http", tools: ["echo"] } as never)).toThrow(
      /with transport "stdio"/,
    );
  });

  it("needs httpPlugin installed before it, and names what to do", async () => {
    const without = await createFixtureContext();
    without.use(mcpServer({ transport: "http", mount: "http", tools: ["echo"] }));
    await expect(without.start()).rejects.toThrow(/install httpPlugin\(\) before mcpServer\(\)/);
    const before = await createFixtureContext();
    before.use(mcpServer({ transport: "http", mount: "http", tools: ["echo"] }));
    before.use(httpPlugin());
    const baseline = listening();
    await expect(before.start()).rejects.toThrow(/install httpPlugin\(\) before mcpServer\(\)/);
    expect(before.state).toBe("stopped");
    expect(listening()).toBe(baseline);
  });

  it("refuses a path the http: server cannot mount", async () => {
    const context = await createFixtureContext();
    context.use(httpPlugin());
    await context.start();
    try {
      await expect(mountMcpHttp(context, { tools: ["echo"], path: "/mcp/" })).rejects.toThrow(
        /mountMcpHttp: .*plain segments like '\/mcp'/,
      );
      const first = await mountMcpHttp(context, { tools: ["echo"] });
      await expect(mountMcpHttp(context, { tools: ["echo"] })).rejects.toThrow(/overlaps/);
      await first.close();
    } finally {
      await context.stop();
    }
  });
});
