// Sessions of routekit's Streamable HTTP server under a client that opens as many as it can: the
// official SDK's Client is the session in use, raw initialize POSTs are the other local client.
import { request as httpRequest } from "node:http";
import type { RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { type McpHttpOptions, type McpHttpServer, serveMcpHttp } from "../src/index.js";
import { createFixtureContext } from "./fixtures/tool-routes.js";
import { connect, initialize, post, text } from "./support/http-client.js";

const running: Array<{ context: RouteContext; server: McpHttpServer }> = [];

afterEach(async () => {
  for (const { context, server } of running.splice(0)) {
    await server.close();
    await context.stop();
  }
});

async function serve(options: Omit<McpHttpOptions, "tools">): Promise<McpHttpServer> {
  const context = await createFixtureContext();
  await context.start();
  const server = await serveMcpHttp(context, { tools: ["echo", "slow"], ...options });
  running.push({ context, server });
  return server;
}

/** An initialize POST from the local address `from` (another loopback address than 127.0.0.1). */
function initializeFrom(url: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        localAddress: from,
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      },
      (response) => {
        response.resume();
        response.once("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.once("error", reject);
    request.end(initialize);
  });
}

describe("Streamable HTTP sessions", () => {
  it("never closes a session in use to make room: past maxSessions a new session gets 503", async () => {
    const server = await serve({ maxSessions: 3 });
    const victim = await connect(server.url, {});
    try {
      expect(text(await victim.client.callTool({ name: "echo", arguments: { text: "before" } }))).toBe(
        "echo: before",
      );
      const statuses: number[] = [];
      let refused: Response | undefined;
      for (let attempt = 0; attempt < 6; attempt++) {
        const response = await post(server.url, {});
        statuses.push(response.status);
        if (response.status === 503) refused ??= response;
        else await response.text();
      }
      expect(statuses).toEqual([200, 200, 503, 503, 503, 503]);
      expect(refused?.headers.get("retry-after")).toMatch(/^\d+$/);
      const body = (await refused?.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(
        /^Server busy: 3 sessions are open \(maxSessions\) and none has been idle for sessionIdleMs \(300000 ms\)/,
      );
      expect(server.sessions).toBe(3);
      expect(text(await victim.client.callTool({ name: "echo", arguments: { text: "after" } }))).toBe(
        "echo: after",
      );
    } finally {
      await victim.transport.terminateSession();
      await victim.client.close();
    }
  });

  it("closes the least recently used idle session for a new one, never one with a call in flight", async () => {
    const server = await serve({ maxSessions: 2, sessionIdleMs: 50 });
    const victim = await connect(server.url, {});
    try {
      const slow = victim.client.callTool({ name: "slow", arguments: { ms: 1500 } });
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Each new session finds the other raw one idle (its initialize answered 50 ms ago or more)
      // and takes its place; the victim's, with a call in flight, stays.
      for (let attempt = 0; attempt < 4; attempt++) {
        const response = await post(server.url, {});
        expect([200, 503]).toContain(response.status);
        await response.text();
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
      expect(server.sessions).toBeLessThanOrEqual(2);
      expect(text(await slow)).toBe("slow done");
      expect(text(await victim.client.callTool({ name: "echo", arguments: { text: "still" } }))).toBe(
        "echo: still",
      );
    } finally {
      await victim.transport.terminateSession();
      await victim.client.close();
    }
  });

  it("caps the sessions of one client address with 429; another address still gets one", async () => {
    const server = await serve({ maxSessions: 10, maxSessionsPerClient: 2 });
    const first = await post(server.url, {});
    const second = await post(server.url, {});
    expect([first.status, second.status]).toEqual([200, 200]);
    await Promise.all([first.text(), second.text()]);
    const third = await post(server.url, {});
    expect(third.status).toBe(429);
    const body = (await third.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(
      /^Too many sessions: this client \(127\.0\.0\.1\) has 2 open \(maxSessionsPerClient 2\) and none has been idle/,
    );
    expect(await initializeFrom(server.url, "127.0.0.2")).toBe(200);
    expect(server.sessions).toBe(3);
  });

  it("checks the session options", async () => {
    const context = await createFixtureContext();
    await expect(serveMcpHttp(context, { tools: ["echo"], maxSessionsPerClient: 0 })).rejects.toThrow(
      /option 'maxSessionsPerClient' must be a whole number >= 1 \(found number 0\)/,
    );
    await expect(
      serveMcpHttp(context, { tools: ["echo"], sessionIdleMs: "soon" as unknown as number }),
    ).rejects.toThrow(/option 'sessionIdleMs' must be a whole number of milliseconds >= 1/);
  });
});
