import { getEventListeners } from "node:events";
import { createContext, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";

// Counts, not timings: after many exchanges with a deadline, no timer and no abort listener
// is left behind on the context's long-lived signals.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2000 });
  context = undefined;
});

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
}

/** The context's shutdown signal, as an exchange without a deadline of its own carries it. */
function shutdownSignalOf(target: RouteContext): AbortSignal {
  return target.createExchange().signal;
}

function abortListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

async function started(): Promise<RouteContext> {
  const created = createContext({ logLevel: "off" });
  context = created;
  await created.addRoutes((r) => {
    r.from("direct:sync").routeId("sync").setBody("done");
    r.from("direct:async")
      .routeId("async")
      .process(async (exchange) => {
        await Promise.resolve();
        exchange.body = "done";
      });
    r.from("direct:fail")
      .routeId("fail")
      .process(() => {
        throw new Error("boom");
      });
    r.from("direct:seda").routeId("to-seda").to("seda:work");
    r.from("seda:work?concurrentConsumers=4").routeId("work").setBody("queued");
  });
  await created.start();
  return created;
}

describe("deadlines end with their exchange", () => {
  it("leaves no timer and no listener after 100,000 exchanges with timeoutMs", {
    timeout: 60_000,
  }, async () => {
    const target = await started();
    const shutdown = shutdownSignalOf(target);
    const timersBefore = activeTimers();
    const listenersBefore = abortListeners(shutdown);
    const uris = ["direct:sync", "direct:async", "direct:fail", "direct:seda"];
    let failed = 0;
    for (let round = 0; round < 100; round++) {
      const batch: Promise<unknown>[] = [];
      for (let index = 0; index < 1000; index++) {
        const uri = uris[index % uris.length] as string;
        batch.push(
          target.requestExchange(uri, { body: index, timeoutMs: 60_000 }).then((exchange) => {
            if (exchange.error !== undefined) failed++;
          }),
        );
      }
      await Promise.all(batch);
    }
    expect(failed).toBe(25_000);
    expect(abortListeners(shutdown)).toBe(listenersBefore);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it("clears the deadline when the exchange fails before any route (no consumer)", async () => {
    const target = await started();
    const shutdown = shutdownSignalOf(target);
    const timersBefore = activeTimers();
    const listenersBefore = abortListeners(shutdown);
    for (let index = 0; index < 1000; index++) {
      const exchange = await target.requestExchange("direct:nobody", { timeoutMs: 60_000 });
      expect(exchange.error?.message).toContain("direct:nobody");
    }
    expect(abortListeners(shutdown)).toBe(listenersBefore);
    expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  });

  it("releases the caller's signal too: no listener stays on a long-lived caller signal", async () => {
    const target = await started();
    const caller = new AbortController();
    for (let index = 0; index < 1000; index++) {
      await target.requestExchange("direct:async", { signal: caller.signal, timeoutMs: 60_000 });
      await target.requestExchange("direct:sync", { signal: caller.signal });
    }
    expect(abortListeners(caller.signal)).toBe(0);
  });

  it("still aborts an exchange at its deadline and when the caller's signal fires", async () => {
    const target = await started();
    await target.addRoutes((r) => {
      r.from("direct:hang")
        .routeId("hang")
        .process(
          (exchange) =>
            new Promise<void>((_, reject) => {
              exchange.signal.addEventListener("abort", () => reject(exchange.signal.reason), { once: true });
            }),
        );
    });
    const timedOut = await target.requestExchange("direct:hang", { timeoutMs: 20 });
    expect(timedOut.error?.name).toBe("TimeoutError");
    const caller = new AbortController();
    const pending = target.requestExchange("direct:hang", { signal: caller.signal, timeoutMs: 60_000 });
    caller.abort(new Error("caller gave up"));
    expect((await pending).error?.message).toBe("caller gave up");
    expect(abortListeners(caller.signal)).toBe(0);
  });

  it("does not combine the shutdown signal with itself", async () => {
    const target = await started();
    const shutdown = shutdownSignalOf(target);
    const exchange = target.createExchange({ signal: shutdown });
    expect(exchange.signal).toBe(shutdown);
  });
});
