import { afterEach, describe, expect, it } from "vitest";
import { anthropicMessages, costOf, openAiChat, runToolLoop } from "../src/index.js";
import { anthropicReply } from "./support/anthropic-server.js";
import { type LoopbackServer, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply } from "./support/openai-server.js";
import {
  anthropicEvent,
  openAiChunk,
  type StreamServer,
  sse,
  startStreamServer,
} from "./support/stream-server.js";

let server: LoopbackServer | undefined;
let streams: StreamServer | undefined;
afterEach(async () => {
  await server?.close();
  await streams?.close();
  server = undefined;
  streams = undefined;
});

const PRICE = {
  inputPerMillion: 3,
  outputPerMillion: 15,
  cachedInputPerMillion: 0.3,
  cacheWriteInputPerMillion: 3.75,
};
const OPENAI_USAGE = {
  prompt_tokens: 2006,
  completion_tokens: 300,
  total_tokens: 2306,
  prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
};
const ANTHROPIC_USAGE = {
  input_tokens: 50,
  cache_creation_input_tokens: 1000,
  cache_read_input_tokens: 2000,
  output_tokens: 120,
};
// Anthropic: 50 + 1000 + 2000 input tokens, 2000 read from the cache and 1000 written to it.
const ANTHROPIC_COST = (50 * 3 + 2000 * 0.3 + 1000 * 3.75 + 120 * 15) / 1_000_000;
// OpenAI: 2006 input tokens of which 1920 cached.
const OPENAI_COST = ((2006 - 1920) * 3 + 1920 * 0.3 + 300 * 15) / 1_000_000;

const openAiPrices = { "openai/gpt-4o-mini": PRICE };
const anthropicPrices = { "anthropic/claude-sonnet-4-5": PRICE };

describe("providers report the tokens served from and written to their prompt cache", () => {
  it("OpenAI: prompt_tokens_details.cached_tokens of a plain reply, priced as cached", async () => {
    server = await startLoopbackServer([{ json: openAiTextReply("Hi.", OPENAI_USAGE) }]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", prices: openAiPrices });

    expect(result.usage).toEqual({ inputTokens: 2006, outputTokens: 300, cachedInputTokens: 1920 });
    expect(result.cost).toBeCloseTo(OPENAI_COST, 15);
  });

  it("OpenAI: the usage chunk of a stream", async () => {
    streams = await startStreamServer([
      {
        steps: [
          openAiChunk({ role: "assistant", content: "Hi" }) +
            openAiChunk({}, "stop") +
            sse({
              id: "chatcmpl-1",
              object: "chat.completion.chunk",
              model: "gpt-4o-mini",
              choices: [],
              usage: OPENAI_USAGE,
            }) +
            sse("[DONE]"),
        ],
      },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: streams.url, apiKey: "sk-test", stream: true });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", prices: openAiPrices });

    expect(result.text).toBe("Hi");
    expect(result.usage).toEqual({ inputTokens: 2006, outputTokens: 300, cachedInputTokens: 1920 });
    expect(result.cost).toBeCloseTo(OPENAI_COST, 15);
  });

  it("OpenAI: a usage without details reports no cached tokens, priced at the input price", async () => {
    server = await startLoopbackServer([
      { json: openAiTextReply("Hi.", { prompt_tokens: 100, completion_tokens: 10 }) },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test" });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", prices: openAiPrices });

    expect(result.usage).toEqual({ inputTokens: 100, outputTokens: 10 });
    expect(result.cost).toBeCloseTo((100 * 3 + 10 * 15) / 1_000_000, 15);
  });

  it("Anthropic: cache_read_input_tokens and cache_creation_input_tokens of a plain reply", async () => {
    server = await startLoopbackServer([
      { json: anthropicReply([{ type: "text", text: "Hi." }], "end_turn", ANTHROPIC_USAGE) },
    ]);
    const model = anthropicMessages({
      model: "claude-sonnet-4-5",
      baseURL: server.url,
      apiKey: "sk-ant-test",
    });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", prices: anthropicPrices });

    expect(result.usage).toEqual({
      inputTokens: 3050,
      outputTokens: 120,
      cachedInputTokens: 2000,
      cacheWriteInputTokens: 1000,
    });
    expect(result.cost).toBeCloseTo(ANTHROPIC_COST, 15);
  });

  it("Anthropic: message_start's cache counts and message_delta's output of a stream", async () => {
    streams = await startStreamServer([
      {
        steps: [
          anthropicEvent({
            type: "message_start",
            message: {
              id: "msg_1",
              type: "message",
              role: "assistant",
              model: "claude-sonnet-4-5",
              content: [],
              usage: { ...ANTHROPIC_USAGE, output_tokens: 1 },
            },
          }) +
            anthropicEvent({
              type: "content_block_start",
              index: 0,
              content_block: { type: "text", text: "" },
            }) +
            anthropicEvent({
              type: "content_block_delta",
              index: 0,
              delta: { type: "text_delta", text: "Hi" },
            }) +
            anthropicEvent({ type: "content_block_stop", index: 0 }) +
            // A later message_delta repeats input_tokens without the cache counts: they are kept.
            anthropicEvent({
              type: "message_delta",
              delta: { stop_reason: "end_turn", stop_sequence: null },
              usage: { input_tokens: 50, output_tokens: 120 },
            }) +
            anthropicEvent({ type: "message_stop" }),
        ],
      },
    ]);
    const model = anthropicMessages({
      model: "claude-sonnet-4-5",
      baseURL: streams.url,
      apiKey: "sk-ant-test",
      stream: true,
    });

    const result = await runToolLoop({ model, tools: new Map(), input: "hi", prices: anthropicPrices });

    expect(result.text).toBe("Hi");
    expect(result.usage).toEqual({
      inputTokens: 3050,
      outputTokens: 120,
      cachedInputTokens: 2000,
      cacheWriteInputTokens: 1000,
    });
    expect(result.cost).toBeCloseTo(ANTHROPIC_COST, 15);
  });

  it("without cached prices, cached and written tokens cost the input price", () => {
    const usage = {
      inputTokens: 3050,
      outputTokens: 120,
      cachedInputTokens: 2000,
      cacheWriteInputTokens: 1000,
    };
    expect(costOf(usage, { inputPerMillion: 3, outputPerMillion: 15 })).toBeCloseTo(
      (3050 * 3 + 120 * 15) / 1_000_000,
      15,
    );
  });
});
