// routekit's Streamable HTTP server of its own on 127.0.0.1 (serveMcpHttp): its address, options and
// resources, and the `routekit-mcp serve --http` command. The cases it shares with the endpoint
// mounted on the http: server are in server-http-transports.test.ts.
import { createHook } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { serveMcpHttp } from "../src/index.js";
import { createFixtureContext, type FixtureLog } from "./fixtures/tool-routes.js";
import { connect, listening, post, text } from "./support/http-client.js";
import { BIN, killChild, spawnHttpChild, TOOL_ROUTES } from "./support/processes.js";

const TOKEN = "test-token-0123456789";
const AUTH = { authorization: `Bearer ${TOKEN}` };

/**
 * Timers made from now on and not yet fired or cleared, unref'd ones too (async_hooks sees them),
 * by their delay in ms. Node reports cleared timers a tick late: read `live` after a setImmediate.
 */
function trackTimers(): { live: Map<number, number>; stop(): void } {
  const live = new Map<number, number>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === "Timeout") live.set(id, (resource as { _idleTimeout?: number })._idleTimeout ?? -1);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return { live, stop: () => hook.disable() };
}

describe("serveMcpHttp's own server", () => {
  it("binds to 127.0.0.1 and serves at /mcp on a port of its own", async () => {
    const context = await createFixtureContext();
    await context.start();
    const server = await serveMcpHttp(context, { tools: ["echo"], token: TOKEN });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const { client, transport } = await connect(server.url, AUTH);
      expect(text(await client.callTool({ name: "echo", arguments: { text: "own" } }))).toBe("echo: own");
      await transport.terminateSession();
      await client.close();
    } finally {
      await server.close();
      await context.stop();
    }
  });
});

describe("serveMcpHttp options", () => {
  it("needs an allowlist or predicate: nothing is exposed by accident", async () => {
    const context = await createFixtureContext();
    await expect(serveMcpHttp(context, {} as never)).rejects.toThrow(
      /option 'tools' must be given: a list of tool names or a predicate/,
    );
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

describe("serveMcpHttp call bounds", () => {
  it("answers at the deadline a tool that ignores its signal and never settles", async () => {
    const context = await createFixtureContext();
    let signal: AbortSignal | undefined;
    context.tools.register({
      name: "stuck",
      description: "Never settles.",
      execute: (_args: Record<string, unknown>, call: { signal?: AbortSignal }) => {
        signal = call.signal;
        return new Promise(() => undefined);
      },
    });
    await context.start();
    const server = await serveMcpHttp(context, { tools: ["stuck"], toolTimeoutMs: 200 });
    const { client, transport } = await connect(server.url, {});
    try {
      const result = await client.callTool({ name: "stuck", arguments: {} });
      expect(result).toMatchObject({ isError: true });
      expect(text(result)).toBe("tool 'stuck' timed out after 200 ms");
      expect(signal?.aborted).toBe(true);
    } finally {
      await transport.terminateSession();
      await client.close();
      await server.close();
      await context.stop();
    }
  });

  it("times each call from its own start, on one timer it clears when the server closes", async () => {
    const context = await createFixtureContext();
    context.tools.register({
      name: "stuck",
      description: "Never settles.",
      execute: () => new Promise(() => undefined),
    });
    await context.start();
    const timers = trackTimers();
    const server = await serveMcpHttp(context, { tools: ["stuck", "echo"], toolTimeoutMs: 300 });
    // The clock's timer waits for the first call; a server of a long deadline keeps it armed after
    // its call has finished, until it closes.
    const idle = await serveMcpHttp(context, { tools: ["echo"], toolTimeoutMs: 60_000 });
    const idleClient = await connect(idle.url, {});
    expect(text(await idleClient.client.callTool({ name: "echo", arguments: { text: "y" } }))).toBe(
      "echo: y",
    );
    await idleClient.transport.terminateSession();
    await idleClient.client.close();
    await idle.close();
    const { client, transport } = await connect(server.url, {});
    try {
      const timed = async () => {
        const started = performance.now();
        const result = await client.callTool({ name: "stuck", arguments: {} });
        return { text: text(result), elapsed: performance.now() - started };
      };
      const first = timed();
      await new Promise((resolve) => setTimeout(resolve, 150));
      // A call that starts while another waits, and finishes first, changes neither's deadline.
      expect(text(await client.callTool({ name: "echo", arguments: { text: "x" } }))).toBe("echo: x");
      const second = timed();
      const [a, b] = await Promise.all([first, second]);
      expect(a.text).toBe("tool 'stuck' timed out after 300 ms");
      expect(b.text).toBe("tool 'stuck' timed out after 300 ms");
      // Each from its own start: the second is not ended with the first.
      expect(a.elapsed).toBeGreaterThanOrEqual(295);
      expect(b.elapsed).toBeGreaterThanOrEqual(295);
    } finally {
      await transport.terminateSession();
      await client.close();
      await server.close();
      await context.stop();
    }
    await new Promise((resolve) => setImmediate(resolve));
    timers.stop();
    // Not one timer of the deadlines' lengths outlives its server (the HTTP client's and server's
    // own keep-alive timers are not the servers' to clear).
    expect([...timers.live.values()].filter((delay) => delay === 300 || delay === 60_000)).toEqual([]);
  });
});

describe("serveMcpHttp resources", () => {
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

  it("ends the calls in flight when the route context stops past its timeout; the route sees it", async () => {
    const log: FixtureLog = { aborted: [] };
    const context = await createFixtureContext(log);
    await context.start();
    const server = await serveMcpHttp(context, { tools: ["slow"] });
    const { client, transport } = await connect(server.url, {});
    try {
      const pending = client.callTool({ name: "slow", arguments: { ms: 30_000 } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const stopped = context.stop({ timeoutMs: 50 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const result = await pending;
      expect(result.isError).toBe(true);
      expect(text(result)).toBe("tool 'slow' was cancelled: the route context is stopping");
      // The route's exchange runs under the call's deadline: its signal fired with the stop's reason.
      expect(log.aborted).toHaveLength(1);
      // The stop says what it had to abort.
      expect(await stopped).toMatchObject({ code: "SHUTDOWN_TIMEOUT" });
    } finally {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
      await server.close();
    }
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
      const { client, transport } = await connect(url, AUTH);
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
