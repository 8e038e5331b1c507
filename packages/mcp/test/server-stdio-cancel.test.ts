// Cancellation of a call over stdio, in this process (serveMcpStdio on in-memory streams): the
// server listens to a call's cancellation only once the call outlives the turn it started in, so
// a `notifications/cancelled` that arrives in the same read as its request, or in a later one,
// must still fire the route's signal — and the call sends no answer (the client gave up on it).
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { type McpStdioServer, serveMcpStdio } from "../src/index.js";
import { createFixtureContext, type FixtureLog } from "./fixtures/tool-routes.js";

interface Line {
  id?: number;
  result?: { content?: Array<{ text?: string }> };
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 200 && !check(); turn++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("serveMcpStdio: notifications/cancelled", () => {
  const running: Array<() => Promise<void>> = [];

  afterEach(async () => {
    for (const stop of running.splice(0)) await stop();
  });

  /** An initialized stdio session on in-memory streams, the lines it wrote, and the routes' log. */
  async function session() {
    const log: FixtureLog = { aborted: [] };
    const context = await createFixtureContext(log);
    await context.start();
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Line[] = [];
    let pending = "";
    stdout.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
        lines.push(JSON.parse(pending.slice(0, end)) as Line);
        pending = pending.slice(end + 1);
      }
    });
    const server: McpStdioServer = await serveMcpStdio(context, { tools: ["slow", "echo"], stdin, stdout });
    running.push(async () => {
      await server.close();
      await context.stop();
    });
    const send = (...messages: object[]) =>
      stdin.write(messages.map((message) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`).join(""));
    send(
      {
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
      },
      { method: "notifications/initialized" },
    );
    await waitUntil(() => lines.some((line) => line.id === 0), "the initialize answer");
    return { log, lines, send };
  }

  const slowCall = (id: number) => ({
    id,
    method: "tools/call",
    params: { name: "slow", arguments: { ms: 5_000 } },
  });
  const cancel = (id: number) => ({
    method: "notifications/cancelled",
    params: { requestId: id, reason: "stop" },
  });

  it("runs no tool when the cancellation comes in the same read as the request", async () => {
    const { log, lines, send } = await session();
    send(slowCall(1), cancel(1));
    // Another call is served as usual; the cancelled one never ran and got no answer.
    send({ id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "after" } } });
    await waitUntil(() => lines.some((line) => line.id === 2), "the echo answer");
    expect(lines.find((line) => line.id === 2)?.result?.content?.[0]?.text).toBe("echo: after");
    expect(lines.some((line) => line.id === 1)).toBe(false);
    expect(log.aborted).toHaveLength(0);
  });

  it("fires the route's signal when the cancellation comes in the turn the call started in", async () => {
    const { log, lines, send } = await session();
    const started = Date.now();
    send(slowCall(1));
    // The route is running (a few promise turns in), and the turn has not ended yet.
    for (let turn = 0; turn < 50; turn++) await Promise.resolve();
    send(cancel(1));
    await waitUntil(() => log.aborted.length === 1, "the route's signal");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(lines.some((line) => line.id === 1)).toBe(false);
  });

  it("fires the route's signal when the cancellation comes in a later read", async () => {
    const { log, lines, send } = await session();
    send(slowCall(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log.aborted).toHaveLength(0);
    send(cancel(1));
    await waitUntil(() => log.aborted.length === 1, "the route's signal");
    expect(lines.some((line) => line.id === 1)).toBe(false);
  });
});
