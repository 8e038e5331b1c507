import { createContext } from "@routekit/core";
import { describe, expect, it } from "vitest";
import { HttpError, httpPlugin, httpServerOf } from "../src/index.js";
import { serve } from "./support/serve.js";

describe("http server lifecycle", () => {
  it("serves concurrent requests independently", async () => {
    const { context, url } = await serve((r) => {
      r.from("http:/square?httpMethodRestrict=POST").process(async (exchange) => {
        const value = (exchange.body as { n: number }).n;
        await new Promise((resolve) => setTimeout(resolve, (value % 5) * 10));
        exchange.body = { n: value, square: value * value };
      });
    });
    try {
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          fetch(`${url}/square`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ n }),
          }).then((response) => response.json()),
        ),
      );
      expect(replies).toEqual(Array.from({ length: 40 }, (_, n) => ({ n, square: n * n })));
    } finally {
      await context.stop();
    }
  });

  it("on stop, finishes the in-flight request, refuses new work, then closes", async () => {
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const inRoute = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const { context, url } = await serve((r) => {
      r.from("http:/work").process(
        (exchange) =>
          new Promise<void>((resolve) => {
            entered();
            release = () => {
              exchange.body = "finished";
              resolve();
            };
          }),
      );
    });
    const inFlight = fetch(`${url}/work`).then(async (response) => ({
      status: response.status,
      body: await response.text(),
    }));
    await inRoute;
    const stopped = context.stop({ timeoutMs: 10_000 });
    // The listener is closed: a new connection is refused.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(fetch(`${url}/work`)).rejects.toThrow();
    expect(context.state).toBe("stopping");
    release();
    expect(await inFlight).toEqual({ status: 200, body: "finished" });
    await stopped;
    expect(context.state).toBe("stopped");
    expect(() => httpServerOf(context).url).toThrow(HttpError);
  });

  it("answers 503 to a request still running when stop() passes its timeout", async () => {
    let entered: () => void = () => undefined;
    const inRoute = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const { context, url } = await serve((r) => {
      r.from("http:/stuck").process(
        (exchange) =>
          new Promise<void>((resolve) => {
            entered();
            exchange.signal.addEventListener("abort", () => resolve());
          }),
      );
    });
    const reply = fetch(`${url}/stuck`).then(async (response) => ({
      status: response.status,
      body: await response.json(),
    }));
    await inRoute;
    await expect(context.stop({ timeoutMs: 100 })).rejects.toThrow("Stop timed out after 100 ms");
    expect(await reply).toMatchObject({
      status: 503,
      body: { error: "The request was aborted: the server is stopping" },
    });
  });

  it("listens again when the context restarts", async () => {
    const { context } = await serve((r) => {
      r.from("http:/ping").setBody(() => "pong");
    });
    await context.stop();
    await context.start();
    try {
      const response = await fetch(`${httpServerOf(context).url}/ping`);
      expect(await response.text()).toBe("pong");
    } finally {
      await context.stop();
    }
  });

  it("names the missing plugin and the unstarted server", async () => {
    const bare = createContext({ logLevel: "error" });
    expect(() => httpServerOf(bare)).toThrow(
      "This context has no HTTP server: install it with context.use(httpPlugin({ port }))",
    );
    const context = createContext({ logLevel: "error" });
    context.use(httpPlugin());
    expect(() => httpServerOf(context).url).toThrow(
      "The HTTP server is not listening: it starts with context.start() and closes with context.stop()",
    );
    expect(() => context.use(httpPlugin())).toThrow("httpPlugin is already installed in this context");
  });

  it("reports a port already in use when the context starts", async () => {
    const first = await serve((r) => {
      r.from("http:/a").setBody(() => "a");
    });
    const port = httpServerOf(first.context).address.port;
    const second = createContext({ logLevel: "error" });
    second.use(httpPlugin({ port }));
    try {
      await expect(second.start()).rejects.toThrow(
        new RegExp(`^The HTTP server could not listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
      );
    } finally {
      await first.context.stop();
    }
  });

  it("checks the plugin options, naming the option and what it expects", () => {
    expect(() => httpPlugin({ port: 70_000 })).toThrow(
      "httpPlugin: option 'port' expects an integer from 0 to 65535 (found 70000)",
    );
    expect(() => httpPlugin({ maxBodyBytes: -1 })).toThrow(
      "httpPlugin: option 'maxBodyBytes' expects an integer from 0 to 2147483648 (found -1)",
    );
    expect(() => httpPlugin({ timeoutStatus: 404 })).toThrow(
      "httpPlugin: option 'timeoutStatus' expects an integer from 500 to 599 (found 404)",
    );
    expect(() => httpPlugin({ errorDetail: "stack" as "none" })).toThrow(
      `httpPlugin: option 'errorDetail' expects "message" or "none" (found "stack")`,
    );
    expect(() => httpPlugin({ prot: 8080 } as object)).toThrow(
      "httpPlugin: unknown option 'prot'; valid options: host, port, maxBodyBytes, maxJsonDepth, requestTimeoutMs, timeoutStatus, errorDetail, headersTimeoutMs, dispatcher",
    );
  });
});
