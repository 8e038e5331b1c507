import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { createContext, type RouteContext } from "@routekit/core";
import { llm, llmPlugin, llmStreamOf, openAiChat, type PriceTable } from "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { otelPlugin } from "../src/index.js";
import { type OpenAiLoopback, type ScriptedTurn, startOpenAiLoopback } from "./support/openai-loopback.js";
import { parentOf, spanNamed, spanTree, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;
let server: OpenAiLoopback | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await server?.close();
  await sdk?.shutdown();
  context = undefined;
  server = undefined;
  sdk = undefined;
});

const TWO_TOOLS_THEN_ANSWER: ScriptedTurn[] = [
  {
    toolCalls: [
      { id: "call_weather", name: "get_weather", arguments: '{"city":"Oslo"}' },
      { id: "call_time", name: "get_time", arguments: '{"zone":"CET"}' },
    ],
  },
  { text: "It is 21C in Oslo at noon." },
];

async function agent(turns: ScriptedTurn[], recordContent?: boolean, prices?: PriceTable) {
  server = await startOpenAiLoopback(turns);
  sdk = startTestSdk();
  context = createContext({ logLevel: "off" });
  context.use(
    llmPlugin({
      models: {
        openai: openAiChat({
          model: "gpt-4o-mini",
          baseURL: server.baseURL,
          apiKey: "sk-test-otel-0123456789",
        }),
      },
      ...(prices !== undefined && { prices }),
    }),
  );
  context.use(
    otelPlugin({
      tracerProvider: sdk.tracerProvider,
      meterProvider: sdk.meterProvider,
      ...(recordContent !== undefined && { recordContent }),
    }),
  );
  await context.addRoutes((r) => {
    r.from("direct:ask")
      .routeId("ask")
      .to(
        llm("openai")
          .tools("get_weather", "get_time")
          .systemPrompt("Answer briefly.")
          .temperature(0.2)
          .maxTokens(200)
          .uri(),
      );
    r.from("direct:llm.get_weather")
      .routeId("weather-tool")
      .asLlmTool("get_weather", {
        description: "The weather in a city.",
        input: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      })
      .setBody(() => ({ celsius: 21 }));
    r.from("direct:llm.get_time")
      .routeId("time-tool")
      .asLlmTool("get_time", {
        description: "The time in a zone.",
        input: { type: "object", properties: { zone: { type: "string" } }, required: ["zone"] },
      })
      .setBody(() => "12:00");
  });
  await context.start();
  return { sdk, context };
}

describe("GenAI spans of an llm step", () => {
  it("carry the cached input tokens and the cost of each call and of the run", async () => {
    const prices = {
      "openai/gpt-4o-mini": { inputPerMillion: 2, outputPerMillion: 8, cachedInputPerMillion: 0.5 },
    };
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ id: "call_weather", name: "get_weather", arguments: '{"city":"Oslo"}' }] },
      { text: "It is 21C in Oslo.", cachedTokens: 64 },
    ];
    const { sdk, context } = await agent(turns, undefined, prices);
    await context.request("direct:ask", "Weather in Oslo?");

    const spans = sdk.spans();
    const chats = spans.filter((span) => span.name === "chat gpt-4o-mini");
    // First call: 40 in, 12 out, nothing cached; second: 70 in (64 cached), 9 out.
    const first = (40 * 2 + 12 * 8) / 1_000_000;
    const second = (6 * 2 + 64 * 0.5 + 9 * 8) / 1_000_000;
    expect(chats[0]?.attributes["routekit.llm.cost_usd"]).toBeCloseTo(first, 15);
    expect(chats[0]?.attributes["gen_ai.usage.cache_read.input_tokens"]).toBeUndefined();
    expect(chats[1]?.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 70,
      "gen_ai.usage.output_tokens": 9,
      "gen_ai.usage.cache_read.input_tokens": 64,
    });
    expect(chats[1]?.attributes["routekit.llm.cost_usd"]).toBeCloseTo(second, 15);
    const invoke = spanNamed(spans, "invoke_agent ask");
    expect(invoke.attributes["gen_ai.usage.input_tokens"]).toBe(110);
    expect(invoke.attributes["routekit.llm.cost_usd"]).toBeCloseTo(first + second, 15);
  });

  it("nests invoke_agent, chat turns and execute_tool spans, with the tool routes under their calls", async () => {
    const { sdk, context } = await agent(TWO_TOOLS_THEN_ANSWER);
    expect(await context.request("direct:ask", "Weather and time in Oslo?")).toBe(
      "It is 21C in Oslo at noon.",
    );

    const spans = sdk.spans();
    expect(spanTree(spans)).toBe(
      [
        "process direct:ask",
        "  invoke_agent ask",
        "    chat gpt-4o-mini",
        "    execute_tool get_weather",
        "      process direct:llm.get_weather",
        "    execute_tool get_time",
        "      process direct:llm.get_time",
        "    chat gpt-4o-mini",
      ].join("\n"),
    );
    const route = spanNamed(spans, "process direct:ask");
    const invoke = spanNamed(spans, "invoke_agent ask");
    expect(invoke.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(invoke)).toBe(route.spanContext().spanId);
    expect(invoke.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "ask",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.request.temperature": 0.2,
      "gen_ai.request.max_tokens": 200,
      "gen_ai.usage.input_tokens": 110,
      "gen_ai.usage.output_tokens": 21,
      "gen_ai.response.finish_reasons": ["stop"],
    });

    const chats = spans.filter((span) => span.name === "chat gpt-4o-mini");
    expect(chats.map((span) => span.kind)).toEqual([SpanKind.CLIENT, SpanKind.CLIENT]);
    expect(chats[0]?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.request.temperature": 0.2,
      "gen_ai.request.max_tokens": 200,
      "gen_ai.usage.input_tokens": 40,
      "gen_ai.usage.output_tokens": 12,
      "gen_ai.response.finish_reasons": ["tool_calls"],
      "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
      "gen_ai.response.id": expect.stringMatching(/^chatcmpl-otel\d+$/),
    });
    expect(chats[1]?.attributes["gen_ai.response.finish_reasons"]).toEqual(["stop"]);

    const weather = spanNamed(spans, "execute_tool get_weather");
    expect(weather.kind).toBe(SpanKind.INTERNAL);
    expect(weather.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_weather",
      "gen_ai.tool.type": "function",
    });
    const weatherRoute = spanNamed(spans, "process direct:llm.get_weather");
    expect(parentOf(weatherRoute)).toBe(weather.spanContext().spanId);
    expect(spanNamed(spans, "execute_tool get_time").attributes["gen_ai.tool.call.id"]).toBe("call_time");
    expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
  });

  it("records no message content by default", async () => {
    const { sdk, context } = await agent(TWO_TOOLS_THEN_ANSWER);
    await context.request("direct:ask", "Weather and time in Oslo?");
    const text = JSON.stringify(sdk.spans().map((span) => span.attributes));
    for (const name of [
      "gen_ai.input.messages",
      "gen_ai.output.messages",
      "gen_ai.system_instructions",
      "gen_ai.tool.call.arguments",
      "gen_ai.tool.call.result",
    ])
      expect(text).not.toContain(name);
    expect(text).not.toContain("Oslo");
  });

  it("records prompts, answers and tool arguments and results with recordContent: true", async () => {
    const { sdk, context } = await agent(TWO_TOOLS_THEN_ANSWER, true);
    await context.request("direct:ask", "Weather and time in Oslo?");
    const spans = sdk.spans();
    const invoke = spanNamed(spans, "invoke_agent ask");
    expect(JSON.parse(String(invoke.attributes["gen_ai.input.messages"]))).toEqual([
      { role: "user", parts: [{ type: "text", content: "Weather and time in Oslo?" }] },
    ]);
    expect(JSON.parse(String(invoke.attributes["gen_ai.output.messages"]))).toEqual([
      {
        role: "assistant",
        parts: [{ type: "text", content: "It is 21C in Oslo at noon." }],
        finish_reason: "stop",
      },
    ]);
    expect(JSON.parse(String(invoke.attributes["gen_ai.system_instructions"]))).toEqual([
      { type: "text", content: "Answer briefly." },
    ]);
    const weather = spanNamed(spans, "execute_tool get_weather");
    expect(JSON.parse(String(weather.attributes["gen_ai.tool.call.arguments"]))).toEqual({ city: "Oslo" });
    expect(JSON.parse(String(weather.attributes["gen_ai.tool.call.result"]))).toEqual({ celsius: 21 });
    expect(spanNamed(spans, "execute_tool get_time").attributes["gen_ai.tool.call.result"]).toBe("12:00");
  });

  it("records the GenAI client metrics: token usage by type and operation duration", async () => {
    const { sdk, context } = await agent(TWO_TOOLS_THEN_ANSWER);
    await context.request("direct:ask", "Weather and time in Oslo?");
    const tokens = await sdk.points("gen_ai.client.token.usage");
    const byType = Object.fromEntries(tokens.map((point) => [point.attributes["gen_ai.token.type"], point]));
    expect(byType.input?.value).toMatchObject({ count: 2, sum: 110 });
    expect(byType.output?.value).toMatchObject({ count: 2, sum: 21 });
    expect(byType.input?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
      "gen_ai.token.type": "input",
    });
    const [duration] = await sdk.points("gen_ai.client.operation.duration");
    expect(duration?.value).toMatchObject({ count: 2 });
  });

  it("marks a failed model call and its run with error.type, and stops listening when the context stops", async () => {
    const { sdk, context } = await agent([{ status: 400, error: "bad request from the test" }]);
    await expect(context.request("direct:ask", "Anything?")).rejects.toThrow();
    const spans = sdk.spans();
    const chat = spanNamed(spans, "chat gpt-4o-mini");
    expect(chat.status.code).toBe(SpanStatusCode.ERROR);
    expect(chat.attributes["error.type"]).toBeTypeOf("string");
    const invoke = spanNamed(spans, "invoke_agent ask");
    expect(invoke.attributes["error.type"]).toBe(chat.attributes["error.type"]);
    const [duration] = await sdk.points("gen_ai.client.operation.duration");
    expect(duration?.attributes["error.type"]).toBe(chat.attributes["error.type"]);

    expect(context.events.has("model-call-started")).toBe(true);
    await context.stop();
    expect(context.events.has("model-call-started")).toBe(false);
    expect(context.events.has("tool-call-started")).toBe(false);
  });

  it("ends a streaming step's invoke_agent span when its stream ends, after the route's span", async () => {
    server = await startOpenAiLoopback([{ stream: ["Hel", "lo"] }]);
    sdk = startTestSdk();
    context = createContext({ logLevel: "off" });
    context.use(
      llmPlugin({
        models: {
          openai: openAiChat({
            model: "gpt-4o-mini",
            baseURL: server.baseURL,
            apiKey: "sk-test-otel-0123456789",
            stream: true,
          }),
        },
      }),
    );
    context.use(otelPlugin({ tracerProvider: sdk.tracerProvider }));
    await context.addRoutes((r) => r.from("direct:chat").routeId("chat").to(llm("openai").stream().uri()));
    await context.start();

    const exchange = await context.requestExchange("direct:chat", { body: "Say hello" });
    const stream = llmStreamOf(exchange);
    const pieces: string[] = [];
    for await (const piece of stream?.textStream ?? []) pieces.push(piece);
    expect(pieces.join("")).toBe("Hello");
    await stream?.text;

    const spans = sdk.spans();
    const route = spanNamed(spans, "process direct:chat");
    const invoke = spanNamed(spans, "invoke_agent chat");
    const chat = spanNamed(spans, "chat gpt-4o-mini");
    expect(parentOf(invoke)).toBe(route.spanContext().spanId);
    expect(parentOf(chat)).toBe(invoke.spanContext().spanId);
    const nanoseconds = (time: [number, number]) => time[0] * 1e9 + time[1];
    expect(nanoseconds(invoke.endTime)).toBeGreaterThanOrEqual(nanoseconds(route.endTime));
    expect(invoke.attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 15,
      "gen_ai.usage.output_tokens": 2,
      "gen_ai.response.finish_reasons": ["stop"],
    });
  });
});
