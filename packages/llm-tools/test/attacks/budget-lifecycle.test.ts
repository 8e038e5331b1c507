import { createBudget, createContext } from "@routekit/core";
import "@routekit/llm-tools";
import { scaledMs } from "@routekit/test-support";
import { describe, expect, it } from "vitest";

const siblings = (count: number) => `<r>${"<a>1</a>".repeat(count)}</r>`;

describe("the budget's workers and the context's lifecycle", () => {
  it("a context that stops aborts the job in flight and terminates its worker", async () => {
    const budget = createBudget({ maxWorkers: 1, timeoutMs: 60_000 });
    const context = createContext();
    await context.addRoutes((routes) => {
      routes.from("direct:xpath").xpath({ budget, timeoutMs: 60_000 });
    });
    await context.start();
    try {
      expect(await context.request("direct:xpath", { xml: "<r><a>1</a></r>", xpath: "string(//a)" })).toBe(
        "1",
      );
      const inFlight = context
        .request("direct:xpath", { xml: siblings(20_000), xpath: "count(//a[. = //a])" })
        .catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(budget.stats().busy).toBe(1);
      const stoppedAt = performance.now();
      // The stop reports the exchange it had to abort; the abort reaches the budget's job.
      const stopError = await context.stop({ timeoutMs: 200 }).catch((error: unknown) => error);
      if (stopError !== undefined) expect(stopError).toMatchObject({ code: "SHUTDOWN_TIMEOUT" });
      expect(performance.now() - stoppedAt).toBeLessThan(scaledMs(5000));
      expect(await inFlight).toBeInstanceOf(Error);
      expect(budget.stats()).toEqual({ workers: 0, busy: 0, starting: 0, queued: 0 });
    } finally {
      await context.stop();
      await budget.close();
    }
  });

  it("idle workers never keep the process alive: nothing ref'd remains once the work is done", async () => {
    const before = process.getActiveResourcesInfo().filter((name) => name !== "TTYWrap").length;
    const budget = createBudget({ maxWorkers: 2, idleTimeoutMs: 300 });
    const context = createContext();
    await context.addRoutes((routes) => {
      routes.from("direct:json").jsonPath({ budget });
    });
    await context.start();
    await Promise.all([
      context.request("direct:json", { json: { a: 1 }, path: "$.a" }),
      context.request("direct:json", { json: { a: 2 }, path: "$.a" }),
    ]);
    expect(budget.stats().workers).toBeGreaterThan(0);
    expect(process.getActiveResourcesInfo().filter((name) => name !== "TTYWrap").length).toBeLessThanOrEqual(
      before,
    );
    await context.stop();
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(budget.stats().workers).toBe(0);
  });
});
