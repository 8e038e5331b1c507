import { afterEach, describe, expect, it } from "vitest";
import { ModelRequestError } from "../src/errors.js";
import { anthropicMessages } from "../src/providers/index.js";
import { type LlmStreamPart, runToolLoop } from "../src/tool-loop/index.js";
import {
  anthropicEvent,
  anthropicTextStream,
  cutBytes,
  insideOf,
  type StreamReply,
  type StreamServer,
  startStreamServer,
} from "./support/stream-server.js";
import { toolMap, weatherTool } from "./support/test-tools.js";

let server: StreamServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function streamingModel(replies: StreamReply[]) {
  server = await startStreamServer(replies);
  const model = anthropicMessages({
    model: "claude-sonnet-4-5",
    baseURL: server.url,
    apiKey: "sk-ant-test-stream",
    stream: true,
    maxRetries: 2,
  });
  return { model, requests: server.requests };
}

const start = (usage = { input_tokens: 40, output_tokens: 1 }) =>
  anthropicEvent({
    type: "message_start",
    message: {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [],
      usage,
    },
  });
const textBlock = (index: number, pieces: string[]) =>
  anthropicEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } }) +
  pieces
    .map((text) =>
      anthropicEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text } }),
    )
    .join("") +
  anthropicEvent({ type: "content_block_stop", index });
const toolBlock = (index: number, id: string, fragments: string[]) => [
  anthropicEvent({
    type: "content_block_start",
    index,
    content_block: { type: "tool_use", id, name: "get_weather", input: {} },
  }),
  ...fragments.map((partial_json) =>
    anthropicEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json } }),
  ),
  anthropicEvent({ type: "content_block_stop", index }),
];
const end = (stopReason: string, outputTokens: number) =>
  anthropicEvent({
    type: "message_delta",
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: outputTokens },
  }) + anthropicEvent({ type: "message_stop" });

describe("anthropicMessages({ stream: true })", () => {
  it("hands on text deltas across pings and cuts mid-line, mid-JSON and mid-character", async () => {
    const pieces = ["Ça ", "va ", "très ", "bien 👍", "."];
    const wire = `${start()}${anthropicEvent({ type: "ping" })}${textBlock(0, pieces)}${anthropicEvent({ type: "ping" })}${end("end_turn", 9)}`;
    const cuts = [
      insideOf(wire, "event: content_block_delta", 8),
      insideOf(wire, '"text_delta"', 5),
      insideOf(wire, "Ç", 1),
      insideOf(wire, "è", 1),
      insideOf(wire, "👍", 2),
      insideOf(wire, "message_stop", 3),
    ];
    const { model, requests } = await streamingModel([{ steps: cutBytes(wire, cuts) }]);
    const parts: LlmStreamPart[] = [];

    const result = await runToolLoop({
      model,
      tools: new Map(),
      input: "Ça va ?",
      onPart: (part) => parts.push(part),
    });

    expect(parts.filter((part) => part.type === "text-delta").map((part) => part.text)).toEqual(pieces);
    expect(result).toMatchObject({ text: pieces.join(""), stopReason: "stop", model: "claude-sonnet-4-5" });
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 9 });
    expect(requests[0]?.body).toMatchObject({ stream: true, model: "claude-sonnet-4-5" });
  });

  it("assembles tool inputs from many input_json_delta fragments, runs parallel calls, and streams the next turn", async () => {
    const { model, requests } = await streamingModel([
      {
        steps: [
          start(),
          textBlock(0, ["Let me check."]),
          ...toolBlock(1, "toolu_oslo", ['{"ci', 'ty": ', '"Os', 'lo"}']),
          ...toolBlock(2, "toolu_rome", ["", '{"city"', ': "Rome"', "}"]),
          end("tool_use", 30),
        ],
      },
      {
        steps: [
          start({ input_tokens: 90, output_tokens: 1 }) +
            textBlock(0, ["Sunny ", "in both."]) +
            end("end_turn", 6),
        ],
      },
    ]);
    const parts: LlmStreamPart[] = [];

    const result = await runToolLoop({
      model,
      tools: toolMap(weatherTool()),
      input: "Oslo and Rome?",
      onPart: (part) => parts.push(part),
    });

    expect(result).toMatchObject({ text: "Sunny in both.", toolCalls: 2, iterations: 2 });
    expect(result.usage).toEqual({ inputTokens: 130, outputTokens: 36 });
    // Each call starts when its block stops, so a result may come before the next call.
    expect(parts[0]?.type).toBe("text-delta");
    expect(parts.slice(5).map((part) => part.type)).toEqual(["text-delta", "text-delta", "finish"]);
    const at = (type: string, id: string) =>
      parts.findIndex((part) => part.type === type && "toolCallId" in part && part.toolCallId === id);
    for (const id of ["toolu_oslo", "toolu_rome"]) {
      expect(at("tool-call", id)).toBeGreaterThan(0);
      expect(at("tool-result", id)).toBeGreaterThan(at("tool-call", id));
    }
    expect(at("tool-call", "toolu_oslo")).toBeLessThan(at("tool-call", "toolu_rome"));
    const messages = requests[1]?.body.messages as Array<{ role: string; content: unknown }>;
    expect(messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_oslo", name: "get_weather", input: { city: "Oslo" } },
        { type: "tool_use", id: "toolu_rome", name: "get_weather", input: { city: "Rome" } },
      ],
    });
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_oslo", content: "Oslo: 21C, sunny", is_error: false },
      { type: "tool_result", tool_use_id: "toolu_rome", content: "Rome: 21C, sunny", is_error: false },
    ]);
  });

  it("answers the model with an error result when a tool input is not JSON", async () => {
    const { model, requests } = await streamingModel([
      { steps: [start(), ...toolBlock(0, "toolu_bad", ['{"city": "Os']), end("tool_use", 5)] },
      { steps: [anthropicTextStream(["Sorry."])] },
    ]);

    const result = await runToolLoop({ model, tools: toolMap(weatherTool()), input: "Oslo?" });

    expect(result.text).toBe("Sorry.");
    const messages = requests[1]?.body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    expect(messages[2]?.content[0]).toMatchObject({ tool_use_id: "toolu_bad", is_error: true });
    expect(String(messages[2]?.content[0]?.content)).toMatch(
      /arguments for tool 'get_weather' are not valid JSON/,
    );
  });

  it("fails with an error saying the stream broke on an error event mid-way, without a retry", async () => {
    const { model, requests } = await streamingModel([
      {
        steps: [
          start(),
          textBlock(0, ["Partial"]),
          anthropicEvent({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
        ],
      },
    ]);

    const failure = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );

    expect(failure).toBeInstanceOf(ModelRequestError);
    expect((failure as Error).message).toMatch(
      /anthropic stream from POST .*\/v1\/messages broke mid-way: the server sent an error event: overloaded_error: Overloaded/,
    );
    expect(requests).toHaveLength(1);
  });

  it("fails with an error saying the stream broke on an abrupt close or an end before message_stop", async () => {
    const { model, requests } = await streamingModel([
      {
        steps: [
          start(),
          anthropicEvent({
            type: "content_block_start",
            index: 0,
            content_block: { type: "text", text: "" },
          }),
          "destroy",
        ],
      },
      { steps: [start(), textBlock(0, ["cut"])] },
    ]);

    const abrupt = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );
    const early = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );

    expect((abrupt as Error).message).toMatch(/broke mid-way/);
    expect((early as Error).message).toMatch(/broke mid-way: the connection closed before message_stop/);
    expect(requests).toHaveLength(2);
  });

  it("names the event and what was wrong with a delta for a block that never started", async () => {
    const { model } = await streamingModel([
      {
        steps: [
          start(),
          anthropicEvent({ type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "x" } }),
        ],
      },
    ]);

    const failure = await runToolLoop({ model, tools: new Map(), input: "Hi" }).catch(
      (error: unknown) => error,
    );

    expect(failure).toMatchObject({ code: "MODEL_RESPONSE_INVALID" });
    expect((failure as Error).message).toMatch(
      /expected content_block_delta\.index to be the index of a started content block, got 3/,
    );
  });
});
