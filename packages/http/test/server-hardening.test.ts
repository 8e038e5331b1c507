import { getEventListeners } from "node:events";
import { connect, type Socket } from "node:net";
import { createContext, type Logger, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import { httpPlugin, httpServerOf } from "../src/index.js";

let context: RouteContext | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await context?.stop({ timeoutMs: 2_000 });
  context = undefined;
});

function capturingLogger(lines: string[]): Logger {
  const write = (message: string): void => {
    lines.push(message);
  };
  return { trace: write, debug: write, info: write, warn: write, error: write };
}

async function serve(
  configure: (target: RouteContext) => Promise<void>,
  options: Parameters<typeof httpPlugin>[0] = {},
  logger?: Logger,
): Promise<{ target: RouteContext; url: string }> {
  const target = createContext(logger === undefined ? { logLevel: "off" } : { logger });
  context = target;
  target.use(httpPlugin(options));
  await configure(target);
  await target.start();
  return { target, url: httpServerOf(target).url };
}

describe("http server hardening", () => {
  it("sends a generic 500 by default and logs the detail with the exchange id", async () => {
    const lines: string[] = [];
    const { url } = await serve(
      (target) =>
        target.addRoutes((r) => {
          r.from("http:/fail")
            .routeId("leaky")
            .process(() => {
              throw new Error("database password=hunter2 rejected");
            });
        }),
      {},
      capturingLogger(lines),
    );
    const response = await fetch(`${url}/fail`);
    expect(response.status).toBe(500);
    const text = await response.text();
    const body = JSON.parse(text) as { error: string; exchangeId: string };
    expect(body.error).toBe("Internal Server Error");
    expect(text).not.toContain("hunter2");
    const logged = lines.find((line) => line.includes(body.exchangeId));
    expect(logged).toMatch(/GET \/fail\).*hunter2/);
  });

  it("closes a connection that sends its headers too slowly within headersTimeoutMs plus a second", {
    timeout: 15_000,
  }, async () => {
    const headersTimeoutMs = 1_000;
    const { url } = await serve((target) => target.addRoutes((r) => r.from("http:/ok").setBody("ok")), {
      headersTimeoutMs,
    });
    const { port } = new URL(url);
    const socket = connect(Number(port), "127.0.0.1");
    sockets.push(socket);
    socket.on("error", () => {});
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.write("GET /ok HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    // One header byte every 200 ms: the headers never complete.
    const drip = setInterval(() => socket.write("x"), 200);
    const opened = performance.now();
    const closedAfter = await new Promise<number>((resolve) => {
      socket.once("close", () => resolve(performance.now() - opened));
      setTimeout(() => resolve(Number.POSITIVE_INFINITY), headersTimeoutMs + 5_000).unref();
    });
    clearInterval(drip);
    expect(closedAfter).toBeLessThanOrEqual(headersTimeoutMs + 1_000 + 250);
  });

  it("does not take an encoded slash for a path separator (literal fast path)", async () => {
    const { url } = await serve((target) =>
      target.addRoutes((r) => {
        r.from("http:/a/b").setBody("literal");
        r.from("http:/a/{id}").setBody((exchange) => `template ${String(exchange.headers["http.path.id"])}`);
      }),
    );
    expect(await (await fetch(`${url}/a/b`)).text()).toBe("literal");
    expect(await (await fetch(`${url}/a/c`)).text()).toBe("template c");
    expect((await fetch(`${url}/a%2Fb`)).status).toBe(404);
    expect(await (await fetch(`${url}/a/x%2Fy`)).text()).toBe("template x/y");
  });

  it("refuses a headersTimeoutMs that is not a positive integer", () => {
    expect(() => httpPlugin({ headersTimeoutMs: 0 })).toThrow(
      "httpPlugin: option 'headersTimeoutMs' expects an integer from 1 to 2147483648 (found 0)",
    );
  });

  it("leaves timers and listeners at baseline after 10,000 requests with a request deadline", {
    timeout: 120_000,
  }, async () => {
    const { target, url } = await serve(
      (configured) =>
        configured.addRoutes((r) => {
          r.from("http:/sync").setBody((exchange) => ({ echo: exchange.body }));
          r.from("http:/async").process(async (exchange) => {
            await Promise.resolve();
            exchange.body = { ok: true };
          });
          r.from("http:/fail").process(() => {
            throw new Error("no");
          });
        }),
      { requestTimeoutMs: 60_000 },
    );
    const shutdown = target.createExchange().signal;
    const timers = (): number => process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
    // One warm-up request so the server's own timers exist before the baseline.
    await (await fetch(`${url}/sync`, { method: "POST", body: "{}" })).text();
    const timersBefore = timers();
    const listenersBefore = getEventListeners(shutdown, "abort").length;
    const statuses = new Map<number, number>();
    const paths = ["/sync", "/async", "/fail"];
    for (let round = 0; round < 200; round++) {
      await Promise.all(
        Array.from({ length: 50 }, async (_, index) => {
          const response = await fetch(`${url}${paths[index % 3]}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ n: index }),
          });
          await response.arrayBuffer();
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        }),
      );
    }
    expect((statuses.get(200) ?? 0) + (statuses.get(500) ?? 0)).toBe(10_000);
    expect(getEventListeners(shutdown, "abort").length).toBe(listenersBefore);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});
