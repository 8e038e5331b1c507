import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import {
  type CheckpointStore,
  createContext,
  createMemoryCheckpointStore,
  type RouteContext,
} from "@routekit/core";
import { LLM_RUN_ID_HEADER, llm, llmPlugin } from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import { otelPlugin } from "../src/index.js";
import { startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
const contexts: RouteContext[] = [];
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.stop({ timeoutMs: 2_000 });
  await sdk?.shutdown();
  sdk = undefined;
});

/** One instance: a durable agent whose `refund` waits for a person, traced into the test SDK. */
async function instance(store: CheckpointStore, name: string, answers: string[]): Promise<RouteContext> {
  const context = createContext({ logLevel: "off" });
  const model = scriptedModel(
    answers.map((text) =>
      text === "park"
        ? { toolCalls: [{ id: "call_refund", name: "refund", arguments: { order: "A-1" } }] }
        : { text },
    ),
  );
  context.use(llmPlugin({ models: { m: model }, durable: { store, instanceId: name, recoverEveryMs: 0 } }));
  context.use(otelPlugin({ tracerProvider: sdk!.tracerProvider, meterProvider: sdk!.meterProvider }));
  await context.addRoutes((r) => {
    r.from("direct:refund")
      .asLlmTool("refund", { description: "Refunds an order.", durability: { needsApproval: true } })
      .transform(() => "refunded");
    r.from("direct:agent").routeId("support").to(llm("m").tools("refund").durable().uri());
  });
  await context.start();
  contexts.push(context);
  return context;
}

const idOf = (span: ReadableSpan) => `${span.spanContext().traceId}-${span.spanContext().spanId}`;

describe("spans of a durable run taken up again", () => {
  it("link to the run's earlier spans, kept in its checkpoint, on another context", async () => {
    sdk = startTestSdk();
    const store = createMemoryCheckpointStore();
    const first = await instance(store, "a", ["park"]);
    const second = await instance(store, "b", ["refunded A-1"]);
    const parked = await first.requestExchange("direct:agent", {
      body: "refund A-1",
      headers: { [LLM_RUN_ID_HEADER]: "run-1" },
    });
    expect(parked.body).toMatchObject({ status: "parked" });
    const before = sdk.spans().filter((span) => span.name === "invoke_agent support");
    expect(before).toHaveLength(1);
    const earlier = before[0]!;
    expect(earlier.attributes["routekit.agent_run.id"]).toBe("run-1");
    const kept = ((await store.get("run-1"))?.state as { traces?: string[] } | undefined)?.traces;
    expect(kept).toEqual([`00-${earlier.spanContext().traceId}-${earlier.spanContext().spanId}-01`]);

    // The approval arrives at the second context, which resumes the run: its span links to the first.
    const outcome = await second.agents.approve("run-1", "call_refund", { approved: true });
    expect(outcome).toMatchObject({ status: "completed" });
    const after = sdk.spans().filter((span) => span.name === "invoke_agent support" && span !== earlier);
    expect(after).toHaveLength(1);
    const resumed = after[0]!;
    expect(resumed.attributes["routekit.agent_run.id"]).toBe("run-1");
    expect(resumed.spanContext().traceId).not.toBe(earlier.spanContext().traceId);
    expect(resumed.links.map((link) => `${link.context.traceId}-${link.context.spanId}`)).toEqual([
      idOf(earlier),
    ]);
    // Both stretches are kept for a later one to link to.
    const traces = ((await store.get("run-1"))?.state as { traces?: string[] } | undefined)?.traces ?? [];
    expect(traces.map((trace) => trace.slice(3, 52))).toEqual([idOf(earlier), idOf(resumed)]);
  });

  it("a redelivered message of a parked run links the step's span to the earlier one", async () => {
    sdk = startTestSdk();
    const store = createMemoryCheckpointStore();
    const first = await instance(store, "a", ["park"]);
    const second = await instance(store, "b", []);
    await first.requestExchange("direct:agent", {
      body: "refund A-1",
      headers: { [LLM_RUN_ID_HEADER]: "run-2" },
    });
    const again = await second.requestExchange("direct:agent", {
      body: "refund A-1",
      headers: { [LLM_RUN_ID_HEADER]: "run-2" },
    });
    expect(again.body).toMatchObject({ status: "parked" });
    const spans = sdk.spans().filter((span) => span.name === "invoke_agent support");
    expect(spans).toHaveLength(2);
    expect(spans[1]!.links.map((link) => `${link.context.traceId}-${link.context.spanId}`)).toEqual([
      idOf(spans[0]!),
    ]);
  });
});
