import { afterEach, describe, expect, it, vi } from "vitest";
import { ModelRequestError } from "../src/errors.js";
import { anthropicMessages } from "../src/providers/index.js";
import { runToolLoop } from "../src/tool-loop/index.js";
import { anthropicErrorBody, anthropicReply, anthropicTextReply } from "./support/anthropic-server.js";
import {
  bodyOf,
  type LoopbackServer,
  messagesOf,
  type Reply,
  startLoopbackServer,
} from "./support/loopback-server.js";
import { addTool, toolMap, weatherTool } from "./support/test-tools.js";

const KEY = "sk-ant-test-0123456789";

let server: LoopbackServer | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function serve(replies: Reply[]) {
  server = await startLoopbackServer(replies);
  return server;
}

describe("anthropicMessages over the Messages API", () => {
  it("runs a mixed text + tool_use turn and answers every call in one user message", async () => {
    const mixed = anthropicReply(
      [
        { type: "text", text: "Let me check both." },
        { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Oslo" } },
        { type: "tool_use", id: "toolu_2", name: "add", input: { a: 2, b: 3 } },
      ],
      "tool_use",
    );
    const { url, requests } = await serve([
      { json: mixed },
      { json: anthropicTextReply("Oslo is sunny; 2+3=5.") },
    ]);
    const model = anthropicMessages({ model: "claude-sonnet-4-20250514", baseURL: url, apiKey: KEY });

    const result = await runToolLoop({
      model,
      tools: toolMap(weatherTool(), addTool()),
      input: "Weather in Oslo, and 2+3?",
      system: "Be brief.",
    });

    expect(result).toMatchObject({
      text: "Oslo is sunny; 2+3=5.",
      stopReason: "stop",
      iterations: 2,
      toolCalls: 2,
      provider: "anthropic",
      usage: { inputTokens: 60, outputTokens: 24 },
    });
    expect(result.messages[1]).toMatchObject({ role: "assistant", content: "Let me check both." });
    const first = requests[0];
    expect(first?.path).toBe("/v1/messages");
    expect(first?.headers["x-api-key"]).toBe(KEY);
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first?.headers.authorization).toBeUndefined();
    expect(first?.body).toEqual({
      model: "claude-sonnet-4-20250514",
      max_tokens: 1024,
      system: "Be brief.",
      messages: [{ role: "user", content: "Weather in Oslo, and 2+3?" }],
      tools: [
        {
          name: "get_weather",
          description: "Test tool get_weather.",
          input_schema: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
            additionalProperties: false,
          },
        },
        {
          name: "add",
          description: "Test tool add.",
          input_schema: {
            type: "object",
            properties: { a: { type: "number" }, b: { type: "number" } },
            required: ["a", "b"],
          },
        },
      ],
    });
    expect(messagesOf(requests, 1)).toEqual([
      { role: "user", content: "Weather in Oslo, and 2+3?" },
      { role: "assistant", content: mixed.content },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: "Oslo: 21C, sunny", is_error: false },
          { type: "tool_result", tool_use_id: "toolu_2", content: "5", is_error: false },
        ],
      },
    ]);
  });

  it("marks error results with is_error and names the known tools", async () => {
    const { url, requests } = await serve([
      {
        json: anthropicReply(
          [{ type: "tool_use", id: "toolu_9", name: "get_wether", input: {} }],
          "tool_use",
        ),
      },
      { json: anthropicTextReply("I mistyped.") },
    ]);
    const model = anthropicMessages({ model: "claude-x", baseURL: url });

    await runToolLoop({ model, tools: toolMap(weatherTool(), addTool()), input: "x" });

    expect(messagesOf(requests, 1)[2]).toEqual({
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_9",
          content: "unknown tool 'get_wether'; known tools: get_weather, add",
          is_error: true,
        },
      ],
    });
  });

  it("sends maxTokens, temperature and disable_parallel_tool_use; maps max_tokens to length", async () => {
    const { url, requests } = await serve([
      { json: anthropicReply([{ type: "text", text: "cut" }], "max_tokens") },
    ]);
    const model = anthropicMessages({
      model: "claude-x",
      baseURL: url,
      maxTokens: 64,
      anthropicVersion: "2024-01-01",
    });

    const result = await runToolLoop({
      model,
      tools: toolMap(addTool()),
      input: [
        { role: "system", content: "Rule one." },
        { role: "user", content: "x" },
      ],
      system: "Rule zero.",
      temperature: 0,
      parallelToolCalls: false,
    });

    expect(result).toMatchObject({ text: "cut", stopReason: "length" });
    expect(requests[0]?.headers["anthropic-version"]).toBe("2024-01-01");
    expect(bodyOf(requests, 0)).toMatchObject({
      max_tokens: 64,
      temperature: 0,
      system: "Rule zero.\n\nRule one.",
      messages: [{ role: "user", content: "x" }],
      tool_choice: { type: "auto", disable_parallel_tool_use: true },
    });
  });

  it("retries 529 overloaded and then succeeds", async () => {
    const { url, requests } = await serve([
      {
        status: 529,
        headers: { "retry-after": "0" },
        json: anthropicErrorBody("overloaded_error", "Overloaded"),
      },
      { json: anthropicTextReply("done") },
    ]);
    const model = anthropicMessages({ model: "claude-x", baseURL: url, apiKey: KEY });

    const response = await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });

    expect(response).toMatchObject({ text: "done", stopReason: "stop", rawStopReason: "end_turn" });
    expect(requests).toHaveLength(2);
  });

  it("reports a final failure with status and body excerpt, and no key", async () => {
    const { url } = await serve([
      { status: 401, json: anthropicErrorBody("authentication_error", `invalid x-api-key ${KEY}`) },
    ]);
    const model = anthropicMessages({ model: "claude-x", baseURL: url, apiKey: KEY });

    const error = await model
      .generate({ messages: [{ role: "user", content: "x" }], tools: [] })
      .catch((e) => e);

    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error).toMatchObject({ provider: "anthropic", status: 401 });
    expect(error.message).toContain('"type":"authentication_error","message":"invalid x-api-key [redacted]"');
    expect(error.message).not.toContain(KEY);
  });

  it("rejects a reply without content blocks", async () => {
    const { url } = await serve([{ json: { type: "message", content: "text" } }]);
    const model = anthropicMessages({ model: "claude-x", baseURL: url });

    await expect(
      model.generate({ messages: [{ role: "user", content: "x" }], tools: [] }),
    ).rejects.toMatchObject({
      code: "MODEL_RESPONSE_INVALID",
      message: expect.stringContaining('expected content to be an array of content blocks, got "text"'),
    });
  });

  it("requires a key for the default base URL only", () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_BASE_URL", "");

    const vendor = anthropicMessages({ model: "claude-x" });
    expect(vendor.requiresApiKey).toBe(true);
    expect(() => vendor.check?.()).toThrow(
      /no API key for https:\/\/api\.anthropic\.com: .*ANTHROPIC_API_KEY/,
    );
    expect(() =>
      anthropicMessages({ model: "claude-x", baseURL: "http://127.0.0.1:9" }).check?.(),
    ).not.toThrow();
    expect(() => anthropicMessages({ model: "claude-x", maxTokens: 0 })).toThrow(
      /anthropicMessages: option 'maxTokens' must be an integer >= 1, got 0/,
    );
  });
});
