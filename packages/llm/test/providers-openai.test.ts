import { afterEach, describe, expect, it, vi } from "vitest";
import { LlmError, ModelRequestError } from "../src/errors.js";
import { openAiChat } from "../src/providers/index.js";
import { runToolLoop } from "../src/tool-loop/index.js";
import { bodyOf, type LoopbackServer, messagesOf, startLoopbackServer } from "./support/loopback-server.js";
import { openAiTextReply, openAiToolCallReply } from "./support/openai-server.js";
import { toolMap, weatherTool } from "./support/test-tools.js";

const KEY = "sk-test-0123456789abcdef";
const weatherParameters = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
  additionalProperties: false,
};

let server: LoopbackServer | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

async function serve(...replies: Parameters<typeof startLoopbackServer>[0][]) {
  server = await startLoopbackServer(replies[0] ?? []);
  return server;
}

describe("openAiChat over Chat Completions", () => {
  it("runs one tool call round trip and replays the assistant message verbatim", async () => {
    const toolReply = openAiToolCallReply([
      { id: "call_1", name: "get_weather", arguments: '{"city":"Oslo"}' },
    ]);
    const { url, requests } = await serve([
      { json: toolReply },
      { json: openAiTextReply("It is 21C in Oslo.") },
    ]);
    const model = openAiChat({
      model: "gpt-4o-mini",
      baseURL: `${url}/v1`,
      apiKey: KEY,
      organization: "org-1",
    });

    const result = await runToolLoop({
      model,
      tools: toolMap(weatherTool()),
      input: "Weather in Oslo?",
      system: "Be brief.",
    });

    expect(result).toMatchObject({
      text: "It is 21C in Oslo.",
      stopReason: "stop",
      iterations: 2,
      toolCalls: 1,
      provider: "openai",
      model: "gpt-4o-mini",
      usage: { inputTokens: 30, outputTokens: 13 },
    });
    expect(requests).toHaveLength(2);
    const [first, second] = requests;
    expect(first?.method).toBe("POST");
    expect(first?.path).toBe("/v1/chat/completions");
    expect(first?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(first?.headers["openai-organization"]).toBe("org-1");
    expect(first?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Oslo?" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Test tool get_weather.",
            parameters: weatherParameters,
          },
        },
      ],
      parallel_tool_calls: true,
    });
    expect(second?.body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Oslo?" },
        toolReply.choices[0]?.message,
        { role: "tool", tool_call_id: "call_1", content: "Oslo: 21C, sunny" },
      ],
      tools: bodyOf(requests, 0).tools,
      parallel_tool_calls: true,
    });
  });

  it("answers parallel calls in call order even when the second finishes first", async () => {
    const finished: string[] = [];
    const tool = weatherTool((city) => (city === "Oslo" ? 150 : 0));
    const tracked = {
      ...tool,
      execute: async (args: Record<string, unknown>) => {
        const result = await tool.execute(args);
        finished.push(String(args.city));
        return result;
      },
    };
    const { url, requests } = await serve([
      {
        json: openAiToolCallReply([
          { id: "call_a", name: "get_weather", arguments: '{"city":"Oslo"}' },
          { id: "call_b", name: "get_weather", arguments: '{"city":"Paris"}' },
        ]),
      },
      { json: openAiTextReply("Both are sunny.") },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: url, apiKey: KEY });

    const result = await runToolLoop({ model, tools: toolMap(tracked), input: "Oslo and Paris?" });

    expect(result.text).toBe("Both are sunny.");
    expect(finished).toEqual(["Paris", "Oslo"]);
    const messages = messagesOf(requests, 1);
    expect(messages.slice(1)).toEqual([
      expect.objectContaining({ role: "assistant", content: null }),
      { role: "tool", tool_call_id: "call_a", content: "Oslo: 21C, sunny" },
      { role: "tool", tool_call_id: "call_b", content: "Paris: 21C, sunny" },
    ]);
  });

  it("sends invalid arguments JSON back to the model as an error result", async () => {
    const { url, requests } = await serve([
      { json: openAiToolCallReply([{ id: "call_1", name: "get_weather", arguments: '{"city": "Oslo"' }]) },
      { json: openAiTextReply("Sorry.") },
    ]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: url });

    const result = await runToolLoop({ model, tools: toolMap(weatherTool()), input: "Oslo?" });

    expect(result.text).toBe("Sorry.");
    const toolMessage = messagesOf(requests, 1)[2];
    expect(toolMessage?.role).toBe("tool");
    expect(toolMessage?.content).toContain("arguments for tool 'get_weather' are not valid JSON");
  });

  it("sends temperature and max_tokens, parallel_tool_calls false, and no tool fields without tools", async () => {
    const { url, requests } = await serve([{ json: openAiTextReply("a") }, { json: openAiTextReply("b") }]);
    const model = openAiChat({ model: "m", baseURL: url });
    const tools = [weatherTool()];

    await model.generate({
      messages: [{ role: "user", content: "x" }],
      tools,
      temperature: 0.2,
      maxTokens: 50,
      parallelToolCalls: false,
    });
    await model.generate({ messages: [{ role: "user", content: "y" }], tools: [], parallelToolCalls: true });

    expect(requests[0]?.body).toMatchObject({ temperature: 0.2, max_tokens: 50, parallel_tool_calls: false });
    expect(requests[1]?.body).toEqual({ model: "m", messages: [{ role: "user", content: "y" }] });
  });

  it("maps finish reasons and reads usage and the served model name", async () => {
    const truncated = openAiTextReply("partial");
    truncated.choices[0] = {
      ...truncated.choices[0],
      finish_reason: "length",
    } as (typeof truncated.choices)[0];
    const { url } = await serve([{ json: truncated }]);
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: url });

    const response = await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });

    expect(response).toMatchObject({
      text: "partial",
      stopReason: "length",
      rawStopReason: "length",
      usage: { inputTokens: 10, outputTokens: 5 },
      model: "gpt-4o-mini-2024-07-18",
      toolCalls: [],
    });
  });

  it("rejects a reply that is not JSON or lacks choices with MODEL_RESPONSE_INVALID", async () => {
    const { url } = await serve([{ text: "<html>gateway</html>" }, { json: { choices: [] } }]);
    const model = openAiChat({ model: "m", baseURL: url });
    const request = { messages: [{ role: "user" as const, content: "x" }], tools: [] };

    await expect(model.generate(request)).rejects.toMatchObject({
      code: "MODEL_RESPONSE_INVALID",
      message: expect.stringContaining("not JSON: <html>gateway</html>"),
    });
    await expect(model.generate(request)).rejects.toMatchObject({
      code: "MODEL_RESPONSE_INVALID",
      message: expect.stringContaining("expected choices to be a non-empty array, got an array of 0"),
    });
  });
});

describe("openAiChat configuration", () => {
  it("requires a key for the default base URL, at check() and before any request", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", "");
    const model = openAiChat({ model: "gpt-4o-mini" });

    expect(model.requiresApiKey).toBe(true);
    expect(() => model.check?.()).toThrow(LlmError);
    expect(() => model.check?.()).toThrow(/no API key for https:\/\/api\.openai\.com\/v1: .*OPENAI_API_KEY/);
    await expect(model.generate({ messages: [], tools: [] })).rejects.toMatchObject({
      code: "API_KEY_MISSING",
    });
  });

  it("lets a custom base URL go without a key and sends no authorization", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    const { url, requests } = await serve([{ json: openAiTextReply("hi") }]);
    const model = openAiChat({ model: "llama3.2", baseURL: url });

    expect(model.requiresApiKey).toBe(false);
    expect(() => model.check?.()).not.toThrow();
    await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });
    expect(requests[0]?.headers.authorization).toBeUndefined();
  });

  it("takes the key and the base URL from the environment", async () => {
    const { url, requests } = await serve([{ json: openAiTextReply("hi") }]);
    vi.stubEnv("OPENAI_API_KEY", "sk-from-env");
    vi.stubEnv("OPENAI_BASE_URL", `${url}/v1/`);
    const model = openAiChat({ model: "gpt-4o-mini" });

    await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });

    expect(requests[0]?.path).toBe("/v1/chat/completions");
    expect(requests[0]?.headers.authorization).toBe("Bearer sk-from-env");
  });

  it("names the bad option", () => {
    expect(() => openAiChat({ model: "" })).toThrow(
      /openAiChat: option 'model' must be a non-empty string, got ""/,
    );
    expect(() => openAiChat({ model: "m", baseURL: "ftp://host" })).toThrow(
      /option 'baseURL' must be an absolute/,
    );
    expect(() => openAiChat({ model: "m", baseURL: "http://127.0.0.1", maxRetries: -1 })).toThrow(
      /option 'maxRetries' must be an integer >= 0, got -1/,
    );
    expect(() => openAiChat({ model: "m", baseURL: "http://127.0.0.1", timeoutMs: 0 })).toThrow(
      /'timeoutMs'/,
    );
  });
});

describe("openAiChat failures", () => {
  it("keeps the API key out of errors even when the server echoes it", async () => {
    const { url, requests } = await serve((request) => ({
      status: 500,
      headers: { "retry-after": "0" },
      json: { error: { message: `upstream broke while handling ${String(request.headers.authorization)}` } },
    }));
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: url, apiKey: KEY, maxRetries: 2 });

    const error = await model
      .generate({ messages: [{ role: "user", content: "x" }], tools: [] })
      .catch((e) => e);

    expect(requests).toHaveLength(3);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(error).toMatchObject({ code: "MODEL_REQUEST_FAILED", provider: "openai", status: 500 });
    expect(error.message).toContain("failed after 3 attempts: HTTP 500");
    expect(error.message).toContain("upstream broke while handling Bearer [redacted]");
    expect(error.message).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
  });

  it("honours retry-after in seconds on 429, then succeeds", async () => {
    const arrivals: number[] = [];
    const { url } = await serve((_request, index) => {
      arrivals.push(Date.now());
      return index === 0
        ? { status: 429, headers: { "retry-after": "1" }, json: { error: { message: "Rate limit reached" } } }
        : { json: openAiTextReply("finally") };
    });
    const model = openAiChat({ model: "gpt-4o-mini", baseURL: url, apiKey: KEY });

    const response = await model.generate({ messages: [{ role: "user", content: "x" }], tools: [] });

    expect(response.text).toBe("finally");
    expect(arrivals).toHaveLength(2);
    expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(900);
  });

  it("retries a 503 with its own backoff and does not retry a 400", async () => {
    const { url, requests } = await serve([
      { status: 503, text: "busy" },
      { json: openAiTextReply("ok") },
      { status: 400, json: { error: { message: "Invalid 'messages'" } } },
    ]);
    const model = openAiChat({ model: "m", baseURL: url, maxRetries: 1 });
    const request = { messages: [{ role: "user" as const, content: "x" }], tools: [] };

    expect((await model.generate(request)).text).toBe("ok");
    await expect(model.generate(request)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(
        'failed after 1 attempt: HTTP 400: {"error":{"message":"Invalid \'messages\'"}}',
      ),
    });
    expect(requests).toHaveLength(3);
  });

  it("reports a refused connection as a transport error", async () => {
    const closed = await startLoopbackServer([]);
    await closed.close();
    const model = openAiChat({ model: "m", baseURL: closed.url, maxRetries: 0 });

    await expect(model.generate({ messages: [{ role: "user", content: "x" }], tools: [] })).rejects.toThrow(
      /openai request POST http:\/\/127\.0\.0\.1:\d+\/chat\/completions failed after 1 attempt: transport error: .*ECONNREFUSED/,
    );
  });

  it("gives each attempt a deadline", async () => {
    const { url, requests } = await serve(() => "hang");
    const model = openAiChat({ model: "m", baseURL: url, maxRetries: 1, timeoutMs: 150 });

    await expect(model.generate({ messages: [{ role: "user", content: "x" }], tools: [] })).rejects.toThrow(
      /failed after 2 attempts: no reply within 150 ms \(timeoutMs\)/,
    );
    expect(requests).toHaveLength(2);
  });

  it("stops at once when the caller aborts mid-call, with the caller's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("user pressed stop");
    const { url, requests } = await serve(() => {
      controller.abort(reason);
      return "hang";
    });
    const model = openAiChat({ model: "m", baseURL: url, maxRetries: 3 });

    await expect(
      runToolLoop({ model, tools: toolMap(weatherTool()), input: "x", signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(requests).toHaveLength(1);
  });
});
