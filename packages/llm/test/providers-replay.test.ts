import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type ReplayTranscript, replayModel } from "../src/providers/index.js";
import { runToolLoop } from "../src/tool-loop/index.js";
import { anthropicReply } from "./support/anthropic-server.js";
import { addTool, toolMap, weatherTool } from "./support/test-tools.js";

function recordedWeather(): ReplayTranscript {
  const text = readFileSync(new URL("./support/transcripts/openai-weather.json", import.meta.url), "utf8");
  return JSON.parse(text) as ReplayTranscript;
}

describe("replayModel", () => {
  it("plays a recorded OpenAI transcript through the tool loop", async () => {
    const model = replayModel(recordedWeather());

    const result = await runToolLoop({
      model,
      tools: toolMap(weatherTool(), addTool()),
      input: "Oslo, and 19+23?",
    });

    expect(result).toMatchObject({
      text: "Oslo is 21C and sunny, and 19 + 23 = 42.",
      stopReason: "stop",
      iterations: 2,
      toolCalls: 2,
      provider: "openai",
      model: "gpt-4o-mini",
      usage: { inputTokens: 299, outputTokens: 68 },
    });
    expect(result.messages[2]).toEqual({
      role: "tool",
      results: [
        {
          callId: "call_Q1mZxV6hT0r9bN2kL4pS8dYc",
          name: "get_weather",
          output: "Oslo: 21C, sunny",
          isError: false,
        },
        { callId: "call_W7eR3tY5uI9oP1aS6dF2gH4j", name: "add", output: "42", isError: false },
      ],
    });
    expect(model.requests).toHaveLength(2);
    expect(model.remaining).toBe(0);
  });

  it("says clearly when the transcript runs out", async () => {
    const model = replayModel(recordedWeather());
    const tools = toolMap(weatherTool(), addTool());
    await runToolLoop({ model, tools, input: "first" });

    await expect(runToolLoop({ model, tools, input: "again" })).rejects.toMatchObject({
      code: "MODEL_REQUEST_FAILED",
      message: "replayModel(openai/gpt-4o-mini): request 3 has no recorded turn: the transcript has 2",
    });
  });

  it("refuses a request that does not answer the recorded tool calls", async () => {
    const model = replayModel(recordedWeather());
    const first = await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });

    const call = first.toolCalls[0];
    if (call === undefined) throw new Error("the recording asks for tools");
    await expect(
      model.generate({
        messages: [
          { role: "user", content: "x" },
          first.assistant,
          { role: "tool", results: [{ callId: call.id, name: call.name, output: "ok", isError: false }] },
        ],
        tools: [],
      }),
    ).rejects.toThrow(
      "request 2 must answer the 2 tool call(s) recorded in turn 1 in order " +
        "[call_Q1mZxV6hT0r9bN2kL4pS8dYc, call_W7eR3tY5uI9oP1aS6dF2gH4j], but it answers [call_Q1mZxV6hT0r9bN2kL4pS8dYc]",
    );
  });

  it("parses an Anthropic recording with the live parser", async () => {
    const model = replayModel({
      provider: "anthropic",
      model: "claude-x",
      turns: [{ response: anthropicReply([{ type: "text", text: "Hello." }], "end_turn") }],
    });

    const response = await model.generate({ messages: [{ role: "user", content: "hi" }], tools: [] });

    expect(response).toMatchObject({ text: "Hello.", stopReason: "stop", rawStopReason: "end_turn" });
    expect(response.assistant.raw).toEqual([{ type: "text", text: "Hello." }]);
  });

  it("validates the transcript when it is created, naming the path", () => {
    const base = recordedWeather();
    expect(() => replayModel({ ...base, provider: "gemini" as "openai" })).toThrow(
      /transcript.provider must be "openai" or "anthropic", got "gemini"/,
    );
    expect(() => replayModel({ ...base, turns: [] })).toThrow(/transcript.turns must be a non-empty array/);
    expect(() => replayModel({ ...base, turns: [{ response: { choices: [{}] } }] })).toThrow(
      /transcript.turns\[0\].response: expected choices\[0\].message to be an object, got nothing/,
    );
  });
});
