import { afterEach, describe, expect, it } from "vitest";
import type { ChatMessage, LanguageModel } from "../src/model-types.js";
import { anthropicMessages, openAiChat } from "../src/providers/index.js";
import { runToolLoop, type ToolLoopEvent } from "../src/tool-loop/index.js";
import { anthropicReply, anthropicTextReply } from "./support/anthropic-server.js";
import { startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";
import {
  anthropicEvent,
  anthropicTextStream,
  openAiChunk,
  openAiTextStream,
  openAiUsageAndDone,
  startStreamServer,
} from "./support/stream-server.js";
import { toolMap, weatherTool } from "./support/test-tools.js";

let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A provider talking to a loopback server that answers a tool call turn, then a text turn. */
interface Case {
  name: string;
  model: () => Promise<LanguageModel>;
  responseModel: string;
  /** The response ids of the two turns. */
  responseIds: [string, string];
}

async function jsonServer(replies: unknown[]): Promise<string> {
  const server = await startLoopbackServer(replies.map((json) => ({ json })));
  close = server.close;
  return server.url;
}

async function streamServer(replies: string[]): Promise<string> {
  const server = await startStreamServer(replies.map((wire) => ({ steps: [wire] })));
  close = server.close;
  return server.url;
}

const openAiToolStream =
  openAiChunk({
    role: "assistant",
    content: null,
    tool_calls: [
      { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } },
    ],
  }) +
  openAiChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Oslo"}' } }] }) +
  openAiChunk({}, "tool_calls") +
  openAiUsageAndDone(20, 8);

const anthropicToolStream =
  anthropicEvent({
    type: "message_start",
    message: {
      id: "msg_tool",
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5-20250929",
      content: [],
      usage: { input_tokens: 30, output_tokens: 1 },
    },
  }) +
  anthropicEvent({
    type: "content_block_start",
    index: 0,
    content_block: { type: "tool_use", id: "toolu_1", name: "get_weather", input: {} },
  }) +
  anthropicEvent({
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"city":"Oslo"}' },
  }) +
  anthropicEvent({ type: "content_block_stop", index: 0 }) +
  anthropicEvent({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }) +
  anthropicEvent({ type: "message_stop" });

const cases: Case[] = [
  {
    name: "openAiChat",
    model: async () => {
      const first = openAiToolCallReply([
        { id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
      ]);
      const second = openAiTextReply("Sunny in Oslo.");
      const url = await jsonServer([first, second]);
      return openAiChat({ model: "gpt-4o-mini", baseURL: `${url}/v1`, apiKey: "sk-test", maxRetries: 0 });
    },
    responseModel: "gpt-4o-mini-2024-07-18",
    responseIds: ["chatcmpl-test", "chatcmpl-test"],
  },
  {
    name: "openAiChat({ stream: true })",
    model: async () => {
      const url = await streamServer([openAiToolStream, openAiTextStream(["Sunny ", "in Oslo."])]);
      return openAiChat({
        model: "gpt-4o-mini",
        baseURL: `${url}/v1`,
        apiKey: "sk-test",
        maxRetries: 0,
        stream: true,
      });
    },
    responseModel: "gpt-4o-mini-2024-07-18",
    responseIds: ["chatcmpl-stream", "chatcmpl-stream"],
  },
  {
    name: "anthropicMessages",
    model: async () => {
      const first = anthropicReply(
        [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } }],
        "tool_use",
      );
      const url = await jsonServer([first, anthropicTextReply("Sunny in Oslo.")]);
      return anthropicMessages({
        model: "claude-sonnet-4",
        baseURL: url,
        apiKey: "sk-ant-test",
        maxRetries: 0,
      });
    },
    responseModel: "claude-sonnet-4-20250514",
    responseIds: ["msg_test", "msg_test"],
  },
  {
    name: "anthropicMessages({ stream: true })",
    model: async () => {
      const url = await streamServer([anthropicToolStream, anthropicTextStream(["Sunny ", "in Oslo."])]);
      return anthropicMessages({
        model: "claude-sonnet-4-5",
        baseURL: url,
        apiKey: "sk-ant-test",
        maxRetries: 0,
        stream: true,
      });
    },
    responseModel: "claude-sonnet-4-5-20250929",
    responseIds: ["msg_tool", "msg_stream"],
  },
];

async function run(model: LanguageModel, includeContent: boolean) {
  const events: ToolLoopEvent[] = [];
  // The messages as they were when each call started (the event hands on the loop's own array).
  const sent: ChatMessage[][] = [];
  const result = await runToolLoop({
    model,
    tools: toolMap(weatherTool()),
    input: "Weather in Oslo?",
    includeContent,
    onEvent: (event) => {
      events.push(event);
      if (event.type === "model-call-started" && event.messages !== undefined) sent.push([...event.messages]);
    },
  });
  const completed = events.filter((event) => event.type === "model-call-completed");
  const started = events.filter((event) => event.type === "model-call-started");
  return { result, completed, started, sent };
}

describe.each(cases)("model call events of $name", (testCase) => {
  it("report the response's model and id, and with includeContent the messages sent and the turn produced", async () => {
    const { result, completed, started, sent } = await run(await testCase.model(), true);

    expect(completed).toHaveLength(2);
    for (const [index, event] of completed.entries()) {
      expect(event.responseModel).toBe(testCase.responseModel);
      expect(event.responseId).toMatch(new RegExp(`^${testCase.responseIds[index]}`));
    }
    expect(completed.map((event) => event.message)).toEqual([result.messages[1], result.messages[3]]);
    expect(completed[0]?.message?.toolCalls?.[0]).toMatchObject({ name: "get_weather" });
    expect(completed[1]?.message?.content).toBe("Sunny in Oslo.");
    expect(started).toHaveLength(2);
    expect(started[0]?.messages).toBe(result.messages);
    expect(sent).toEqual([result.messages.slice(0, 1), result.messages.slice(0, 3)]);
  });

  it("leave the content out without includeContent, but keep the response's model and id", async () => {
    const { completed, started } = await run(await testCase.model(), false);

    expect(completed).toHaveLength(2);
    for (const [index, event] of completed.entries()) {
      expect(event).not.toHaveProperty("message");
      expect(event.responseModel).toBe(testCase.responseModel);
      expect(event.responseId).toMatch(new RegExp(`^${testCase.responseIds[index]}`));
    }
    for (const event of started) expect(event).not.toHaveProperty("messages");
  });
});
