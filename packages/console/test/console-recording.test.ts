import {
  type ConsoleOptions,
  consoleOf,
  consolePlugin,
  type ExchangeRecord,
  type ExchangeSummary,
  type LiveRouteCounters,
  type StepRun,
} from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import type { Processor } from "@routekit/core/internal";
import { llmPlugin, openAiChat } from "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { eventually, getWithToken, silentLogger, startOrderContext, TOKEN } from "./support/order-context.js";

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop();
  context = undefined;
});

/** Opens a page's event stream and waits for its first message; `close` disconnects it. */
async function connectPage(url: string): Promise<{ close(): void }> {
  const controller = new AbortController();
  const response = await fetch(`${url}api/events?token=${TOKEN}`, { signal: controller.signal });
  await response.body!.getReader().read();
  return { close: () => controller.abort() };
}

async function recordedExchanges(url: string): Promise<ExchangeSummary[]> {
  return (await getWithToken<{ exchanges: ExchangeSummary[] }>(url, "/api/exchanges")).body.exchanges;
}

async function stepCalls(url: string, routeId: string, path: string): Promise<number | undefined> {
  const counters = (await getWithToken<LiveRouteCounters[]>(url, "/api/counters")).body;
  return counters.find((route) => route.routeId === routeId)?.steps.find((step) => step.path === path)?.calls;
}

describe("recording while a page is connected (the default)", () => {
  it("listens to no step event until a page connects, and stops when the last one leaves", async () => {
    const started = await startOrderContext();
    context = started.context;
    const { url } = started;
    const handle = consoleOf(context)!;
    expect(handle.recording).toBe(false);
    expect(context.events.observingSteps).toBe(false);
    await context.request("direct:orders", { kind: "book" });
    // Route counters come from the context and always count; steps and timelines wait for a page.
    const books = (await getWithToken<LiveRouteCounters[]>(url, "/api/counters")).body.find(
      (route) => route.routeId === "books",
    );
    expect(books?.exchanges).toBe(1);
    expect(await stepCalls(url, "books", "#1 process")).toBe(0);
    expect(await recordedExchanges(url)).toEqual([]);

    const first = await connectPage(url);
    const second = await connectPage(url);
    expect(handle.recording).toBe(true);
    expect(context.events.observingSteps).toBe(true);
    await context.request("direct:orders", { kind: "book" });
    expect(await stepCalls(url, "books", "#1 process")).toBe(1);
    await eventually(async () =>
      (await recordedExchanges(url)).some((record) => record.status === "completed"),
    );

    first.close();
    await eventually(() => handle.connections === 1);
    expect(handle.recording).toBe(true);
    second.close();
    await eventually(() => !handle.recording);
    expect(context.events.observingSteps).toBe(false);
    await context.request("direct:orders", { kind: "book" });
    expect(await stepCalls(url, "books", "#1 process")).toBe(1);
    expect(await recordedExchanges(url)).toHaveLength(1);
  });

  it("leaves every step but the llm steps as compiled: nothing runs around them", async () => {
    const given = new Map<string, Processor>();
    const received = new Map<string, Processor>();
    context = createContext({ logger: silentLogger });
    // Around the console: the outer probe receives what the console returned for each step, the
    // inner one what the console received.
    context.addInterceptor({
      name: "outer-probe",
      wrapStep: (step, next) => {
        received.set(step.path, next);
        return next;
      },
    });
    context.use(consolePlugin());
    context.addInterceptor({
      name: "inner-probe",
      wrapStep: (step, next) => {
        given.set(step.path, next);
        return next;
      },
    });
    // The route is only compiled, never run: the model is never called.
    const assistant = openAiChat({ model: "gpt-4o-mini", baseURL: "http://127.0.0.1:9", apiKey: "unused" });
    context.use(llmPlugin({ models: { assistant } }));
    await context.addRoutes((r) => {
      r.from("direct:plain")
        .routeId("plain")
        .setHeader("a", "1")
        .choice((c) => c.when("${header.a} == '1'", (route) => route.to("mock:one")))
        .to("llm:assistant");
    });
    const wrapped = [...given].filter(([path, processor]) => received.get(path) !== processor);
    expect(wrapped.map(([path]) => path)).toEqual(["#3 to(llm:assistant)"]);
    expect(given.size).toBe(4);
  });

  it('records from the start with record: "always", and stops with the context', async () => {
    const started = await startOrderContext({ record: "always" });
    context = started.context;
    expect(consoleOf(context)?.recording).toBe(true);
    await context.request("direct:orders", { kind: "other" });
    await eventually(async () => (await recordedExchanges(started.url)).length === 1);
    await context.stop();
    expect(consoleOf(context)?.recording).toBe(false);
    expect(context.events.observingSteps).toBe(false);
  });

  it("refuses a record mode it does not know, naming the option", () => {
    expect(() => consolePlugin({ record: "sometimes" as ConsoleOptions["record"] })).toThrow(
      `consolePlugin: option 'record' must be one of "while-connected", "always" (found string "sometimes")`,
    );
    expect(() => consolePlugin({ bufferSizes: { partsPerStep: -1 } })).toThrow(
      "consolePlugin: option 'bufferSizes.partsPerStep' must be a whole number from 0 to 10000 (found number -1)",
    );
  });
});

/** A context with a split of the body's items and a multicast to two routes, recorded always. */
async function startFanOutContext(options: ConsoleOptions = {}): Promise<string> {
  context = createContext({ logger: silentLogger });
  context.use(consolePlugin({ token: TOKEN, record: "always", ...options }));
  await context.addRoutes((r) => {
    r.from("direct:fan")
      .routeId("fan")
      .split("${body}", (part) => part.setHeader("item", "${body}").to("direct:check"))
      .multicast(["direct:left", "direct:right"]);
    r.from("direct:check")
      .routeId("check")
      .process((exchange) => {
        if (exchange.body === "bad") throw new Error("bad item");
      });
    r.from("direct:left").routeId("left").setHeader("side", "left");
    r.from("direct:right").routeId("right").setHeader("side", "right");
  });
  await context.start();
  return consoleOf(context)!.url!;
}

async function recordOf(url: string): Promise<ExchangeRecord> {
  let id: string | undefined;
  await eventually(async () => {
    id = (await recordedExchanges(url)).find((record) => record.status !== "running")?.id;
    return id !== undefined;
  });
  return (await getWithToken<ExchangeRecord>(url, `/api/exchanges/${id}`)).body;
}

const pathsOf = (steps: readonly StepRun[]) => steps.map((step) => `${step.routeId} ${step.path}`);

describe("split parts and multicast copies in their parent's timeline", () => {
  it("nests each part's steps under the split step, and each copy's under the multicast", async () => {
    const url = await startFanOutContext();
    await context!.request("direct:fan", ["a", "b", "c"]);
    const record = await recordOf(url);
    expect(pathsOf(record.steps)).toEqual(["fan #1 split", "fan #2 multicast"]);
    const [split, multicast] = record.steps as [StepRun, StepRun];
    expect(split.parts).toHaveLength(3);
    for (const part of split.parts!) {
      expect(part.status).toBe("completed");
      expect(part.exchangeId).not.toBe(record.id);
      expect(part.startMs).toBeGreaterThanOrEqual(split.startMs);
      expect(pathsOf(part.steps)).toEqual([
        "fan #1 split > #1 setHeader(item)",
        "fan #1 split > #2 to(direct:check)",
        "check #1 process",
      ]);
    }
    expect(split.parts!.map((part) => part.steps[0]!.after?.headers.item)).toEqual(["a", "b", "c"]);
    expect(multicast.parts!.map((part) => pathsOf(part.steps))).toEqual([
      ["fan #2 multicast > #1 to(direct:left)", "left #1 setHeader(side)"],
      ["fan #2 multicast > #1 to(direct:right)", "right #1 setHeader(side)"],
    ]);
    expect(multicast.parts!.map((part) => part.steps[1]!.after?.headers.side)).toEqual(["left", "right"]);
    // The nested steps count in the exchange's summary.
    const summary = (await recordedExchanges(url))[0]!;
    expect(summary.steps).toBe(2 + 3 * 3 + 2 * 2);
  });

  it("marks the part that failed, and the search finds text in nested steps", async () => {
    const url = await startFanOutContext();
    await expect(context!.request("direct:fan", ["a", "bad"])).rejects.toThrow("bad item");
    const record = await recordOf(url);
    expect(record.status).toBe("failed");
    const split = record.steps[0]!;
    expect(split.status).toBe("failed");
    expect(split.parts!.map((part) => part.status)).toEqual(["completed", "failed"]);
    expect(split.parts![1]!.error).toBe("Error: bad item");
    // Only a nested step's label says setHeader(item).
    const byStep = await getWithToken<{ total: number }>(url, "/api/exchanges?q=setHeader(item)");
    expect(byStep.body.total).toBe(1);
  });

  it("keeps at most partsPerStep parts per step and stepsPerExchange steps in the whole timeline", async () => {
    const url = await startFanOutContext({ bufferSizes: { partsPerStep: 2, stepsPerExchange: 6 } });
    await context!.request("direct:fan", ["a", "b", "c", "d"]);
    const record = await recordOf(url);
    const split = record.steps[0]!;
    expect(split.parts).toHaveLength(2);
    expect(split.droppedParts).toBe(2);
    // 1 split step + 2 parts × 3 steps = 7 steps: the sixth is the last one kept.
    const kept = record.steps.length + split.parts!.reduce((sum, part) => sum + part.steps.length, 0);
    expect(kept).toBe(6);
    expect(split.parts![1]!.droppedSteps).toBe(1);
    expect(record.droppedSteps).toBeGreaterThanOrEqual(1);
  });
});
