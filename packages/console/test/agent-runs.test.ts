import type { AgentRun, AgentRunSummary, RouteSpend } from "@routekit/console";
import { consoleOf, consolePlugin } from "@routekit/console";
import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, openAiChat } from "@routekit/llm";
import { MathEvalTool } from "@routekit/llm-tools";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  context.use(consolePlugin());
  context.use(
    llmPlugin({
      models: {
        plain: openAiChat({ model: "gpt-4o-mini", baseURL: model.url, apiKey: "test-key" }),
        streaming: openAiChat({ model: "gpt-4o-mini", baseURL: model.url, apiKey: "test-key", stream: true }),
      },
      prices: { "openai/gpt-4o-mini": { inputPerMillion: 2, outputPerMillion: 8 } },
    }),
  );
  await context.addRoutes(new MathEvalTool());
  await context.addRoutes((r) => {
    r.from("direct:quiet").routeId("quiet").to(llm("plain").tools("math_eval").uri());
    r.from("direct:streamed")
      .routeId("streamed")
      .to(llm("streaming").tools("math_eval").includeContent().stream().uri());
  });
  await context.start();
  url = consoleOf(context)!.url!;
});
afterAll(async () => {
  await context.stop();
  await model.close();
});

async function runOf(routeId: string): Promise<AgentRun> {
  let summary: AgentRunSummary | undefined;
  await eventually(async () => {
    const { agentRuns } = await getJson<{ agentRuns: AgentRunSummary[] }>("/api/agent-runs");
    summary = agentRuns.find((run) => run.routeId === routeId && run.status !== "running");
    return summary !== undefined;
  }, 30_000);
  return getJson<AgentRun>(`/api/agent-runs/${summary!.id}`);
}

describe("agent runs", () => {
  it("records turns and tool calls without arguments or results when the llm step does not include content", async () => {
    expect(await context.request("direct:quiet", "What is six times seven?")).toBe("It is 42.");
    const run = await runOf("quiet");
    expect(run).toMatchObject({
      status: "completed",
      model: "openai/gpt-4o-mini",
      toolCalls: 1,
      inputTokens: 240,
      outputTokens: 25,
    });
    expect(run.calls.map((call) => `${call.kind} ${call.name}`)).toEqual([
      "model openai/gpt-4o-mini",
      "tool math_eval",
      "model openai/gpt-4o-mini",
    ]);
    const tool = run.calls[1]!;
    expect(tool.arguments).toBeUndefined();
    expect(tool.output).toBeUndefined();
    expect(tool.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("follows a streaming llm step until its stream ends", async () => {
    const stream = (await context.request(
      "direct:streamed",
      "What is six times seven?",
    )) as AsyncIterable<unknown>;
    for await (const _part of stream) {
      // read to the end, as a caller forwarding the stream would
    }
    const run = await runOf("streamed");
    expect(run.status).toBe("completed");
    expect(run.calls.map((call) => call.kind)).toEqual(["model", "tool", "model"]);
    expect(run.calls[1]).toMatchObject({
      name: "math_eval",
      arguments: '{"expression":"6 * 7"}',
      output: "42",
      status: "completed",
    });
    expect(run.calls[2]).toMatchObject({ stopReason: "stop", inputTokens: 140, outputTokens: 13 });
  });

  it("shows each model call's, each run's and each route's tokens and cost", async () => {
    expect(await context.request("direct:quiet", "What is six times seven?")).toBe("It is 42.");
    const run = await runOf("quiet");
    // The model server answers 100 in / 12 out, then 140 in / 13 out; $2 and $8 per million.
    const first = (100 * 2 + 12 * 8) / 1_000_000;
    const second = (140 * 2 + 13 * 8) / 1_000_000;
    expect(run.calls[0]?.costUsd).toBeCloseTo(first, 12);
    expect(run.calls[2]?.costUsd).toBeCloseTo(second, 12);
    expect(run.costUsd).toBeCloseTo(first + second, 12);
    const { agentRuns, routeSpend } = await getJson<{
      agentRuns: AgentRunSummary[];
      routeSpend: RouteSpend[];
    }>("/api/agent-runs");
    expect(agentRuns.find((summary) => summary.id === run.id)?.costUsd).toBeCloseTo(first + second, 12);
    // The first test ran route 'quiet' once already: two runs, twice the tokens and cost.
    const quiet = routeSpend.find((spend) => spend.routeId === "quiet");
    expect(quiet).toMatchObject({ runs: 2, inputTokens: 480, outputTokens: 50, cachedInputTokens: 0 });
    expect(quiet?.costUsd).toBeCloseTo(2 * (first + second), 12);
    expect(routeSpend.map((spend) => spend.routeId)).toContain("streamed");
  });
});
