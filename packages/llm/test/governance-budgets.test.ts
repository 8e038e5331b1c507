import { createContext, createMemoryCheckpointStore, type RouteContext } from "@routekit/core";
import { afterEach, describe, expect, it } from "vitest";
import type { LlmRunCompletedEvent } from "../src/index.js";
import {
  LLM_HEADERS,
  llm,
  llmPlugin,
  llmSpendOf,
  openAiChat,
  type PriceTable,
  runToolLoop,
} from "../src/index.js";
import { type LoopbackServer, type Reply, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";

let context: RouteContext | undefined;
let server: LoopbackServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  context = undefined;
  server = undefined;
});

const PRICES: PriceTable = { "openai/gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6 } };

/** A tool call (usage 20 in, 8 out), then the answer (usage 10 in, 5 out). */
const TOOL_THEN_ANSWER: Reply[] = [
  { json: openAiToolCallReply([{ id: "call_1", name: "lookup", arguments: '{"order":"A-1"}' }]) },
  { json: openAiTextReply("order A-1 is shipped") },
];

async function startAgent(
  replies: Reply[],
  step: ReturnType<typeof llm>,
  plugin: Partial<Parameters<typeof llmPlugin>[0]> = {},
): Promise<{ context: RouteContext; lookups: unknown[] }> {
  server = await startLoopbackServer(replies);
  const lookups: unknown[] = [];
  const created = createContext();
  context = created;
  created.use(
    llmPlugin({
      models: {
        openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test", maxRetries: 0 }),
      },
      ...plugin,
    }),
  );
  await created.addRoutes((r) => {
    r.from("direct:lookup")
      .asLlmTool("lookup", { description: "Looks an order up." })
      .process((exchange) => {
        lookups.push(exchange.body);
        exchange.body = { status: "shipped" };
      });
    r.from("direct:ask").routeId("ask").to(step.tools("lookup").uri());
  });
  await created.start();
  return { context: created, lookups };
}

describe("token budgets end a run with stop reason 'budget'", () => {
  it("before a call: a conversation plus maxTokens over maxTotalTokens is never sent", async () => {
    const { context } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxTokens(500).maxTotalTokens(300));

    const exchange = await context.requestExchange("direct:ask", { body: "Where is order A-1?" });

    expect(exchange.error).toBeUndefined();
    expect(server?.requests.length).toBe(0);
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("budget");
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxTotalTokens");
    expect(exchange.headers[LLM_HEADERS.iterations]).toBe(0);
  });

  it("before a call: a prompt over maxInputTokens (a quarter of its JSON length) is never sent", async () => {
    const { context } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxInputTokens(100));

    const exchange = await context.requestExchange("direct:ask", { body: "x".repeat(2000) });

    expect(server?.requests.length).toBe(0);
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxInputTokens");
  });

  it("before a call: the estimate is exactly a quarter of the prompt message's JSON length, rounded up", async () => {
    // {"role":"user","content":""} is 28 characters: with 372 x's the JSON is 400, 100 tokens.
    const atLimit = "x".repeat(372);
    expect(JSON.stringify({ role: "user", content: atLimit })).toHaveLength(400);
    const { context } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxInputTokens(100));

    // At the limit the first call is sent (the second, with the reported usage added, is not).
    await context.requestExchange("direct:ask", { body: atLimit });
    expect(server?.requests.length).toBe(1);

    const refused = await context.requestExchange("direct:ask", { body: `${atLimit}x` });
    expect(refused.headers[LLM_HEADERS.budget]).toBe("maxInputTokens");
    expect(refused.headers[LLM_HEADERS.iterations]).toBe(0);
    expect(server?.requests.length).toBe(1);
  });

  it("after a call: reported output over maxOutputTokens ends the run; the turn's tool calls are not run", async () => {
    const { context, lookups } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxOutputTokens(5));
    const completed: LlmRunCompletedEvent[] = [];
    context.events.on("llm-run-completed", (event) => completed.push(event));

    const exchange = await context.requestExchange("direct:ask", { body: "Where is order A-1?" });

    expect(server?.requests.length).toBe(1);
    expect(lookups).toEqual([]);
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("budget");
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxOutputTokens");
    expect(completed).toHaveLength(1);
    expect(completed[0]?.budget).toEqual({
      budget: "maxOutputTokens",
      limit: 5,
      used: 8,
      check: "after-call",
    });
    expect(llmSpendOf(context).route("ask")?.budgetStops).toBe(1);
  });

  it("after a call: reported total over maxTotalTokens ends the run", async () => {
    const { context } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxTotalTokens(27));

    const exchange = await context.requestExchange("direct:ask", { body: "Where?" });

    expect(server?.requests.length).toBe(1);
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxTotalTokens");
    expect(exchange.headers[LLM_HEADERS.tokensIn]).toBe(20);
  });

  it("a run within its budgets ends as usual", async () => {
    const { context } = await startAgent(
      TOOL_THEN_ANSWER,
      llm("openai").maxTotalTokens(10_000).maxInputTokens(5000).maxOutputTokens(1000),
    );

    const exchange = await context.requestExchange("direct:ask", { body: "Where is order A-1?" });

    expect(exchange.body).toBe("order A-1 is shipped");
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("stop");
    expect(exchange.headers[LLM_HEADERS.budget]).toBeUndefined();
  });

  it("runToolLoop stops the same way and names the budget in its result", async () => {
    server = await startLoopbackServer(TOOL_THEN_ANSWER);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test", maxRetries: 0 });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", maxOutputTokens: 7 });

    expect(result.stopReason).toBe("budget");
    expect(result.budget).toEqual({ budget: "maxOutputTokens", limit: 7, used: 8, check: "after-call" });
    expect(result.text).toBe("");
  });

  it("a durable run stops at its budget and records it in its checkpoint", async () => {
    server = await startLoopbackServer(TOOL_THEN_ANSWER);
    const store = createMemoryCheckpointStore();
    const created = createContext();
    context = created;
    created.use(
      llmPlugin({
        models: {
          openai: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test", maxRetries: 0 }),
        },
        prices: PRICES,
        durable: { store, recoverEveryMs: 0 },
      }),
    );
    await created.addRoutes((r) => {
      r.from("direct:lookup")
        .asLlmTool("lookup", { description: "Looks an order up." })
        .setBody(() => ({ status: "shipped" }));
      r.from("direct:agent").to(llm("openai").tools("lookup").maxOutputTokens(10).durable().uri());
    });
    await created.start();

    const exchange = await created.requestExchange("direct:agent", { body: "Where is A-1?" });

    expect(exchange.error).toBeUndefined();
    expect(server.requests.length).toBe(2);
    expect(exchange.headers[LLM_HEADERS.stopReason]).toBe("budget");
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxOutputTokens");
    expect(exchange.headers[LLM_HEADERS.costUsd]).toBeCloseTo((30 * 0.15 + 13 * 0.6) / 1_000_000, 12);
  });
});

describe("cost from a user-supplied price table", () => {
  it("reports the run's cost in the header, the events and the per-route and per-tenant accounting", async () => {
    const replies = [...TOOL_THEN_ANSWER, { json: openAiTextReply("the same") }];
    const { context } = await startAgent(replies, llm("openai"), {
      prices: PRICES,
      tenantHeader: "x-tenant",
    });
    const callCosts: Array<number | undefined> = [];
    const runs: LlmRunCompletedEvent[] = [];
    context.events.on("model-call-completed", (event) => callCosts.push(event.cost));
    context.events.on("llm-run-completed", (event) => runs.push(event));

    const exchange = await context.requestExchange("direct:ask", {
      body: "Where is order A-1?",
      headers: { "x-tenant": "acme" },
    });
    await context.requestExchange("direct:ask", { body: "Again?", headers: { "x-tenant": "globex" } });

    // Hand-computed: 20 in + 8 out, then 10 in + 5 out, at $0.15 / $0.60 per million.
    const first = (20 * 0.15 + 8 * 0.6) / 1_000_000;
    const second = (10 * 0.15 + 5 * 0.6) / 1_000_000;
    expect(exchange.headers[LLM_HEADERS.costUsd]).toBeCloseTo(first + second, 15);
    expect(callCosts[0]).toBeCloseTo(first, 15);
    expect(callCosts[1]).toBeCloseTo(second, 15);
    expect(runs[0]).toMatchObject({
      routeId: "ask",
      tenant: "acme",
      usage: { inputTokens: 30, outputTokens: 13 },
    });
    expect(runs[0]?.cost).toBeCloseTo(first + second, 15);
    const spend = llmSpendOf(context);
    expect(spend.tenant("acme")).toMatchObject({ runs: 1, inputTokens: 30, outputTokens: 13 });
    expect(spend.tenant("acme")?.costUsd).toBeCloseTo(first + second, 15);
    expect(spend.route("ask")?.runs).toBe(2);
    expect(Object.keys(spend.byTenant()).sort()).toEqual(["acme", "globex"]);
  });

  it("maxCostUsd stops before a call whose estimated cost would cross it", async () => {
    const { context } = await startAgent(TOOL_THEN_ANSWER, llm("openai").maxCostUsd(0.00001), {
      prices: PRICES,
    });

    const exchange = await context.requestExchange("direct:ask", { body: "Where is order A-1?" });

    // The first call costs $0.0000078; the second would send ~60 more input tokens: past $0.00001.
    expect(server?.requests.length).toBe(1);
    expect(exchange.headers[LLM_HEADERS.budget]).toBe("maxCostUsd");
    expect(exchange.headers[LLM_HEADERS.costUsd]).toBeCloseTo((20 * 0.15 + 8 * 0.6) / 1_000_000, 15);
  });

  it("counts cached input tokens at their own price", async () => {
    const { costOf } = await import("../src/index.js");
    const cost = costOf(
      { inputTokens: 1000, outputTokens: 100, cachedInputTokens: 400 },
      { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
    );
    expect(cost).toBeCloseTo((600 * 2 + 400 * 0.5 + 100 * 8) / 1_000_000, 15);
  });
});

describe("bad governance options name the option and what was found", () => {
  it("refuses maxCostUsd on a model without a price", async () => {
    await expect(startAgent([], llm("openai").maxCostUsd(1))).rejects.toThrow(
      /option 'maxCostUsd' needs a price for 'openai\/gpt-4o-mini' in prices; priced models: \(none\)/,
    );
  });

  it("refuses a malformed price", () => {
    expect(() =>
      llmPlugin({
        models: {},
        prices: { "openai/gpt-4o-mini": { inputPerMillion: -1, outputPerMillion: 1 } },
      }),
    ).toThrow(
      /llmPlugin: option 'prices\['openai\/gpt-4o-mini'\]\.inputPerMillion' must be a number of US dollars >= 0, got -1/,
    );
    expect(() =>
      llmPlugin({ models: {}, prices: { "gpt-4o-mini": { inputPerMillion: 1, outputPerMillion: 1 } } }),
    ).toThrow(/keyed by 'provider\/model'/);
  });

  it("refuses a budget that is not a positive number", async () => {
    await expect(startAgent([], llm("openai").maxTotalTokens(0))).rejects.toThrow(/maxTotalTokens/);
    server = await startLoopbackServer([]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });
    await expect(runToolLoop({ model, tools: new Map(), input: "hi", maxInputTokens: 1.5 })).rejects.toThrow(
      "runToolLoop: option 'maxInputTokens' must be an integer number of tokens >= 1, got 1.5",
    );
  });

  it("refuses a blank tenantHeader", () => {
    expect(() => llmPlugin({ models: {}, tenantHeader: " " })).toThrow(
      `llmPlugin: option 'tenantHeader' must be a header name such as 'x-tenant' (found " ")`,
    );
  });
});
