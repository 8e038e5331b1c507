import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { ModelRequestError } from "../src/errors.js";
import type { LanguageModel } from "../src/model-types.js";
import { anthropicMessages, openAiChat } from "../src/providers/index.js";
import { runToolLoop, type ToolLoopEvent } from "../src/tool-loop/index.js";
import type { ToolCallContext } from "../src/tool-types.js";
import {
  anthropicEvent,
  anthropicTextStream,
  openAiChunk,
  openAiTextStream,
  openAiUsageAndDone,
  type StreamServer,
  type StreamStep,
  startStreamServer,
} from "./support/stream-server.js";
import { nativeTool, toolMap } from "./support/test-tools.js";

let server: StreamServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Resolves when `resolve` is called; a test's gate between two parts of a stream. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** The stream holds until the first tool has started, or 2 s (then the test fails on its flags). */
const untilStarted = (started: Promise<void>): StreamStep => ({
  waitFor: Promise.race([started, sleep(2000)]),
});

const anthropicStart = (id: string) =>
  anthropicEvent({
    type: "message_start",
    message: { id, type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [], usage: {} },
  });
const anthropicToolBlock = (index: number, id: string, city: string) =>
  anthropicEvent({
    type: "content_block_start",
    index,
    content_block: { type: "tool_use", id, name: "get_weather", input: {} },
  }) +
  anthropicEvent({
    type: "content_block_delta",
    index,
    delta: { type: "input_json_delta", partial_json: JSON.stringify({ city }) },
  }) +
  anthropicEvent({ type: "content_block_stop", index });
const anthropicEnd =
  anthropicEvent({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }) +
  anthropicEvent({ type: "message_stop" });

const openAiCallStart = (index: number, id: string) =>
  openAiChunk({
    tool_calls: [{ index, id, type: "function", function: { name: "get_weather", arguments: "" } }],
  });
const openAiCallArguments = (index: number, city: string) =>
  openAiChunk({ tool_calls: [{ index, function: { arguments: JSON.stringify({ city }) } }] });

interface Provider {
  name: string;
  /** A turn asking for Oslo then Rome, holding at `hold` after Oslo's arguments are complete. */
  toolTurn: (hold: StreamStep) => StreamStep[];
  textTurn: string;
  model: (url: string) => LanguageModel;
}

const providers: Provider[] = [
  {
    name: "anthropicMessages",
    toolTurn: (hold) => [
      anthropicStart("msg_1"),
      anthropicToolBlock(0, "toolu_oslo", "Oslo"),
      hold,
      anthropicToolBlock(1, "toolu_rome", "Rome"),
      anthropicEnd,
    ],
    textTurn: anthropicTextStream(["Both ", "sunny."]),
    model: (url) =>
      anthropicMessages({
        model: "claude-sonnet-4-5",
        baseURL: url,
        apiKey: "k",
        maxRetries: 0,
        stream: true,
      }),
  },
  {
    name: "openAiChat",
    // A call is complete when the next one begins (or the finish reason comes).
    toolTurn: (hold) => [
      openAiChunk({ role: "assistant", content: null }),
      openAiCallStart(0, "call_oslo"),
      openAiCallArguments(0, "Oslo"),
      openAiCallStart(1, "call_rome"),
      hold,
      openAiCallArguments(1, "Rome"),
      openAiChunk({}, "tool_calls") + openAiUsageAndDone(20, 9),
    ],
    textTurn: openAiTextStream(["Both ", "sunny."]),
    model: (url) =>
      openAiChat({ model: "gpt-4o-mini", baseURL: `${url}/v1`, apiKey: "k", maxRetries: 0, stream: true }),
  },
];

describe.each(providers)("tool calls of a streaming $name turn", (provider) => {
  it("start as soon as their arguments are complete, before the turn ends; the next call waits for all", async () => {
    const firstStarted = gate();
    const log: string[] = [];
    const weather = nativeTool(
      "get_weather",
      { type: "object", properties: { city: { type: "string" } } },
      async (args) => {
        log.push(`start ${String(args.city)}`);
        firstStarted.open();
        await sleep(20);
        log.push(`end ${String(args.city)}`);
        return { output: `${String(args.city)}: sunny`, isError: false };
      },
    );
    server = await startStreamServer([
      { steps: provider.toolTurn(untilStarted(firstStarted.opened)) },
      { steps: [provider.textTurn] },
    ]);
    const events: ToolLoopEvent[] = [];

    const result = await runToolLoop({
      model: provider.model(server.url),
      tools: toolMap(weather),
      input: "Oslo and Rome?",
      onEvent: (event) => {
        events.push(event);
        if (event.type === "model-call-completed") log.push(`turn ${event.iteration} ended`);
        if (event.type === "model-call-started") log.push(`turn ${event.iteration} started`);
      },
    });

    expect(log.indexOf("start Oslo")).toBeLessThan(log.indexOf("turn 1 ended"));
    expect(log.indexOf("turn 2 started")).toBeGreaterThan(log.indexOf("end Rome"));
    expect(log.indexOf("turn 2 started")).toBeGreaterThan(log.indexOf("end Oslo"));
    expect(result).toMatchObject({ text: "Both sunny.", toolCalls: 2, iterations: 2 });
    expect(result.messages[2]).toEqual({
      role: "tool",
      results: [
        {
          callId: expect.stringMatching(/oslo$/),
          name: "get_weather",
          output: "Oslo: sunny",
          isError: false,
        },
        {
          callId: expect.stringMatching(/rome$/),
          name: "get_weather",
          output: "Rome: sunny",
          isError: false,
        },
      ],
    });
    const firstCallStarted = events.findIndex((event) => event.type === "tool-call-started");
    const firstTurnEnded = events.findIndex((event) => event.type === "model-call-completed");
    expect(firstCallStarted).toBeLessThan(firstTurnEnded);
  });

  it("run one after the other with parallelToolCalls false, the first still before the turn ends", async () => {
    const firstStarted = gate();
    const log: string[] = [];
    const weather = nativeTool(
      "get_weather",
      { type: "object", properties: { city: { type: "string" } } },
      async (args) => {
        log.push(`start ${String(args.city)}`);
        firstStarted.open();
        await sleep(5);
        log.push(`end ${String(args.city)}`);
        return { output: "sunny", isError: false };
      },
    );
    server = await startStreamServer([
      { steps: provider.toolTurn(untilStarted(firstStarted.opened)) },
      { steps: [provider.textTurn] },
    ]);

    await runToolLoop({
      model: provider.model(server.url),
      tools: toolMap(weather),
      input: "Oslo and Rome?",
      parallelToolCalls: false,
      onEvent: (event) => {
        if (event.type === "model-call-completed") log.push(`turn ${event.iteration} ended`);
      },
    });

    expect(log.indexOf("start Oslo")).toBeLessThan(log.indexOf("turn 1 ended"));
    expect(log.filter((line) => !line.startsWith("turn"))).toEqual([
      "start Oslo",
      "end Oslo",
      "start Rome",
      "end Rome",
    ]);
  });

  it("stop the calls already started when the turn then breaks, and the run rejects", async () => {
    const firstStarted = gate();
    let toolSignal: AbortSignal | undefined;
    const weather = nativeTool(
      "get_weather",
      { type: "object", properties: { city: { type: "string" } } },
      (_args, context?: ToolCallContext) => {
        toolSignal = context?.signal;
        firstStarted.open();
        return new Promise(() => {});
      },
    );
    const steps = provider.toolTurn(untilStarted(firstStarted.opened));
    const hold = steps.findIndex((step) => typeof step === "object" && "waitFor" in step);
    server = await startStreamServer([{ steps: [...steps.slice(0, hold + 1), "destroy"] }]);

    const run = runToolLoop({ model: provider.model(server.url), tools: toolMap(weather), input: "Oslo?" });

    await expect(run).rejects.toBeInstanceOf(ModelRequestError);
    expect(toolSignal?.aborted).toBe(true);
  });
});
