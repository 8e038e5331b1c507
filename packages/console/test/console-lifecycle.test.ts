import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext } from "@routekit/core";
import { describe, expect, it } from "vitest";
import { silentLogger, startOrderContext, TOKEN } from "./support/order-context.js";
import { rawRequest } from "./support/raw-request.js";

describe("consolePlugin options", () => {
  it("refuses a non-loopback host without a token and bad sizes, naming the option", () => {
    expect(() => consolePlugin({ host: "0.0.0.0" })).toThrow(/host '0.0.0.0' is not loopback: set a 'token'/);
    expect(() => consolePlugin({ bufferSizes: { exchanges: 0 } })).toThrow(
      /option 'bufferSizes.exchanges' must be a whole number from 1 to 100000 \(found number 0\)/,
    );
    expect(() => consolePlugin({ token: "short" })).toThrow(
      /option 'token' must be a text of 8 to 512 characters \(found a string \(not shown\)\)/,
    );
    expect(() => consolePlugin({ bufferSize: {} } as never)).toThrow(
      /unknown option 'bufferSize' \(did you mean 'bufferSizes'\?\)/,
    );
    expect(() => consolePlugin({ port: 70_000 })).toThrow(/'port'/);
  });

  it("fails the context's start when its port is taken, naming host and port", async () => {
    const first = createContext({ logger: silentLogger });
    first.use(consolePlugin());
    await first.start();
    const port = consoleOf(first)!.port!;
    const second = createContext({ logger: silentLogger });
    second.use(consolePlugin({ port }));
    try {
      await expect(second.start()).rejects.toThrow(`cannot listen on 127.0.0.1:${port}`);
    } finally {
      await second.stop();
      await first.stop();
    }
    expect(consoleOf(second)?.url).toBeUndefined();
  });

  it("is not there until installed, and listens only while the context runs", async () => {
    const context = createContext({ logger: silentLogger });
    expect(consoleOf(context)).toBeUndefined();
    context.use(consolePlugin());
    expect(consoleOf(context)?.url).toBeUndefined();
    await context.start();
    expect(consoleOf(context)?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await context.stop();
    expect(consoleOf(context)?.url).toBeUndefined();
  });
});

const timers = () =>
  process.getActiveResourcesInfo().filter((kind) => kind === "Timeout" || kind === "Immediate").length;

describe("releasing what the console started", () => {
  it("leaves no timer behind: the recording allowance and the event stream's tick end with the context", async () => {
    const before = timers();
    const { context, url } = await startOrderContext();
    await context.request("direct:orders", { kind: "book" });
    const controller = new AbortController();
    const response = await fetch(`${url}api/events?token=${TOKEN}`, { signal: controller.signal });
    await response.body!.getReader().read();
    controller.abort();
    await context.stop();
    expect(timers()).toBeLessThanOrEqual(before);
  });

  it("closes open event streams and every connection when the context stops", async () => {
    const { context, url } = await startOrderContext();
    const handle = consoleOf(context)!;
    const response = await fetch(`${url}api/events?token=${TOKEN}`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^event: snapshot\ndata: \{/);
    expect(handle.connections).toBe(1);
    await context.stop();
    // The stream ends (the server closed it), it does not hang.
    for (
      let chunk = await reader.read().catch(() => ({ done: true }));
      !chunk.done;
      chunk = await reader.read()
    ) {}
    expect(handle.connections).toBe(0);
    await expect(rawRequest(url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
