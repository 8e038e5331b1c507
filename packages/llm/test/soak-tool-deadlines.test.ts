import { getEventListeners } from "node:events";
import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin } from "@routekit/llm";
import { type ScriptedStep, scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";

// Counts, not timings: 10,000 tool calls with a per-tool timeout leave no timer and no abort
// listener behind on the context's signals.

let context: RouteContext | undefined;
afterEach(async () => {
  await context?.stop({ timeoutMs: 2000 });
  context = undefined;
});

const activeTimers = (): number =>
  process.getActiveResourcesInfo().filter((name) => name === "Timeout").length;
const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;

const RUNS = 1000;
const CALLS_PER_RUN = 10;

function script(): ScriptedStep[] {
  const steps: ScriptedStep[] = [];
  for (let run = 0; run < RUNS; run++) {
    steps.push({
      toolCalls: Array.from({ length: CALLS_PER_RUN }, (_, index) => ({
        name: index % 2 === 0 ? "echo" : "slow_echo",
        arguments: { n: index },
      })),
    });
    steps.push({ text: "done" });
  }
  return steps;
}

async function started(uri: string): Promise<{ target: RouteContext; calls: () => number }> {
  let calls = 0;
  const target = createContext({ logLevel: "off" });
  context = target;
  target.use(llmPlugin({ models: { scripted: scriptedModel(script()) } }));
  await target.addRoutes((r) => {
    r.from("direct:echo")
      .asLlmTool("echo", { description: "Echoes its arguments." })
      .process(() => {
        calls++;
      });
    r.from("direct:slow_echo")
      .asLlmTool("slow_echo", { description: "Echoes its arguments after a tick." })
      .process(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        calls++;
      });
    r.from("direct:ask").to(uri);
  });
  await target.start();
  return { target, calls: () => calls };
}

describe("tool calls end their deadlines", () => {
  it.each([
    ["with toolTimeout", llm("scripted").tools("echo", "slow_echo").toolTimeout(30_000).uri()],
    ["without toolTimeout", llm("scripted").tools("echo", "slow_echo").uri()],
  ])(
    "leaves timers and listeners at baseline after 10,000 tool calls %s",
    { timeout: 60_000 },
    async (_, uri) => {
      const { target, calls } = await started(uri);
      const shutdown = target.createExchange().signal;
      const timersBefore = activeTimers();
      const listenersBefore = abortListeners(shutdown);
      for (let run = 0; run < RUNS; run++) {
        expect(await target.request("direct:ask", "go")).toBe("done");
      }
      expect(calls()).toBe(RUNS * CALLS_PER_RUN);
      expect(abortListeners(shutdown)).toBe(listenersBefore);
      expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
    },
  );
});
