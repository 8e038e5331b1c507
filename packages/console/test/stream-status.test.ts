import type { AgentRun, AgentRunSummary } from "@routekit/console";
import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { MathEvalTool } from "@routekit/llm-tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExchangeSummary } from "../src/exchange-record.js";
import { type ModelServer, startModelServer } from "./support/model-server.js";
import { eventually, silentLogger } from "./support/order-context.js";

let context: RouteContext;
let model: ModelServer;
let url: string;

const getJson = async <TValue>(path: string): Promise<TValue> =>
  (await fetch(new URL(path, url))).json() as Promise<TValue>;

beforeAll(async () => {
  model = await startModelServer([
    { toolCalls: [{ name: "math_eval", arguments: JSON.stringify({ expression: "6 * 7" }) }] },
    { text: "It is 42." },
  ]);
  context = createContext({ logger: silentLogger });
  context.use(consolePlugin({ record: "always" }));
  context.use(
    llmPlugin({
      models: {
        streaming: openAiChat({ model: "gpt-4o-mini", baseURL: model.url, apiKey: "test-key", stream: true }),
      },
    }),
  );
  await context.addRoutes(new MathEvalTool());
  await context.addRoutes((r) => {
    const streamed = llm("streaming").tools("math_eval").stream().uri();
    r.from("direct:read-to-end").routeId("read-to-end").to(streamed);
    r.from("direct:abandoned").routeId("abandoned").to(streamed);
  });
  await context.start();
  url = consoleOf(context)!.url!;
});
afterAll(async () => {
  await context.stop();
  await model.close();
});

async function finished(routeId: string): Promise<{ run: AgentRun; exchange: ExchangeSummary }> {
  let run: AgentRunSummary | undefined;
  let exchange: ExchangeSummary | undefined;
  await eventually(async () => {
    const { agentRuns } = await getJson<{ agentRuns: AgentRunSummary[] }>("/api/agent-runs");
    run = agentRuns.find((candidate) => candidate.routeId === routeId && candidate.status !== "running");
    const { exchanges } = await getJson<{ exchanges: ExchangeSummary[] }>(`/api/exchanges?route=${routeId}`);
    exchange = exchanges.find((candidate) => candidate.status !== "running");
    return run !== undefined && exchange !== undefined;
  }, 30_000);
  return { run: await getJson<AgentRun>(`/api/agent-runs/${run!.id}`), exchange: exchange! };
}

describe("the console follows a streamed reply to its end", () => {
  it("times the exchange until its stream ended, not until the route returned the stream", async () => {
    const stream = (await context.request(
      "direct:read-to-end",
      "What is six times seven?",
    )) as AsyncIterable<unknown>;
    for await (const _part of stream) {
      // read to the end, as a caller forwarding the stream would
    }
    const { run, exchange } = await finished("read-to-end");
    expect(run.status).toBe("completed");
    expect(exchange.status).toBe("completed");
    // The run is inside the exchange: it started later and ended no later.
    expect(exchange.durationMs).toBeGreaterThanOrEqual(run.durationMs!);
  });

  it("shows a run whose reader stopped as cancelled, not failed", async () => {
    const stream = (await context.request(
      "direct:abandoned",
      "What is six times seven?",
    )) as AsyncIterable<unknown>;
    for await (const _part of stream) break;
    const { run, exchange } = await finished("abandoned");
    expect(run.status).toBe("cancelled");
    expect(exchange.status).toBe("cancelled");
    const { exchanges } = await getJson<{ exchanges: ExchangeSummary[] }>("/api/exchanges?status=cancelled");
    expect(exchanges.map((found) => found.routeId)).toContain("abandoned");
  });
});
