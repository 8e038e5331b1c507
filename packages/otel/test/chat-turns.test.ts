import { createContext, type RouteContext } from "@routekit/core";
import { anthropicMessages, type LanguageModel, llm, llmPlugin, openAiChat } from "@routekit/llm";
import { afterEach, describe, expect, it } from "vitest";
import { otelPlugin } from "../src/index.js";
import { startAnthropicLoopback } from "./support/anthropic-loopback.js";
import { startOpenAiLoopback } from "./support/openai-loopback.js";
import { spanNamed, startTestSdk, type TestSdk } from "./support/otel-sdk.js";

let sdk: TestSdk | undefined;
let context: RouteContext | undefined;
let close: (() => Promise<void>) | undefined;

afterEach(async () => {
  await context?.stop({ timeoutMs: 2_000 });
  await close?.();
  await sdk?.shutdown();
  context = undefined;
  close = undefined;
  sdk = undefined;
});

/** A provider behind a loopback server scripted with a tool call turn, then a text turn. */
interface Provider {
  readonly name: string;
  readonly requestModel: string;
  readonly responseModel: string;
  readonly responseIdPattern: RegExp;
  start(): Promise<LanguageModel>;
}

const PROVIDERS: Provider[] = [
  {
    name: "openai",
    requestModel: "gpt-4o-mini",
    responseModel: "gpt-4o-mini-2024-07-18",
    responseIdPattern: /^chatcmpl-otel\d+$/,
    async start() {
      const server = await startOpenAiLoopback([
        { toolCalls: [{ id: "call_w", name: "get_weather", arguments: '{"city":"Oslo"}' }] },
        { text: "21C in Oslo." },
      ]);
      close = server.close;
      return openAiChat({ model: "gpt-4o-mini", baseURL: server.baseURL, apiKey: "sk-test-otel-0123456789" });
    },
  },
  {
    name: "anthropic",
    requestModel: "claude-sonnet-4",
    responseModel: "claude-sonnet-4-20250514",
    responseIdPattern: /^msg_otel\d+$/,
    async start() {
      const server = await startAnthropicLoopback([
        { toolUses: [{ id: "call_w", name: "get_weather", input: { city: "Oslo" } }] },
        { text: "21C in Oslo." },
      ]);
      close = server.close;
      return anthropicMessages({ model: "claude-sonnet-4", baseURL: server.baseURL, apiKey: "test-key" });
    },
  },
];

async function agent(provider: Provider, options: { recordContent: boolean; includeContent: boolean }) {
  const model = await provider.start();
  sdk = startTestSdk();
  context = createContext({ logLevel: "off" });
  context.use(llmPlugin({ models: { [provider.name]: model } }));
  context.use(otelPlugin({ tracerProvider: sdk.tracerProvider, recordContent: options.recordContent }));
  const step = llm(provider.name).tools("get_weather").includeContent(options.includeContent).uri();
  await context.addRoutes((r) => {
    r.from("direct:ask").routeId("ask").to(step);
    r.from("direct:llm.get_weather")
      .routeId("weather-tool")
      .asLlmTool("get_weather", {
        description: "The weather in a city.",
        input: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      })
      .setBody(() => ({ celsius: 21 }));
  });
  await context.start();
  expect(await context.request("direct:ask", "Weather in Oslo?")).toBe("21C in Oslo.");
  return sdk.spans().filter((span) => span.name === `chat ${provider.requestModel}`);
}

describe.each(PROVIDERS)("chat spans of $name", (provider) => {
  it("carry gen_ai.response.model and gen_ai.response.id of each turn", async () => {
    const chats = await agent(provider, { recordContent: false, includeContent: false });
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.attributes["gen_ai.request.model"]).toBe(provider.requestModel);
      expect(chat.attributes["gen_ai.response.model"]).toBe(provider.responseModel);
      expect(String(chat.attributes["gen_ai.response.id"])).toMatch(provider.responseIdPattern);
      expect(chat.attributes["gen_ai.input.messages"]).toBeUndefined();
      expect(chat.attributes["gen_ai.output.messages"]).toBeUndefined();
    }
    expect(chats[0]?.attributes["gen_ai.response.id"]).not.toBe(chats[1]?.attributes["gen_ai.response.id"]);
  });

  it("record each turn's messages sent and assistant turn with recordContent and the step's includeContent", async () => {
    const chats = await agent(provider, { recordContent: true, includeContent: true });
    expect(chats).toHaveLength(2);
    const input = (index: number) => JSON.parse(String(chats[index]?.attributes["gen_ai.input.messages"]));
    const output = (index: number) => JSON.parse(String(chats[index]?.attributes["gen_ai.output.messages"]));
    expect(input(0)).toEqual([{ role: "user", parts: [{ type: "text", content: "Weather in Oslo?" }] }]);
    expect(output(0)).toEqual([
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_w", name: "get_weather", arguments: '{"city":"Oslo"}' }],
        finish_reason: "tool_calls",
      },
    ]);
    // The second turn was sent the whole conversation so far, as it was then.
    expect(input(1)).toEqual([
      input(0)[0],
      { role: "assistant", parts: output(0)[0].parts },
      {
        role: "tool",
        parts: [{ type: "tool_call_response", id: "call_w", result: '{"celsius":21}' }],
      },
    ]);
    expect(output(1)).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "21C in Oslo." }], finish_reason: "stop" },
    ]);
    expect(
      spanNamed(sdk?.spans() ?? [], "invoke_agent ask").attributes["gen_ai.input.messages"],
    ).toBeDefined();
  });

  it("record no turn content with recordContent off, even when the step includes it in its events", async () => {
    const chats = await agent(provider, { recordContent: false, includeContent: true });
    const text = JSON.stringify(chats.map((chat) => chat.attributes));
    expect(text).not.toContain("gen_ai.input.messages");
    expect(text).not.toContain("gen_ai.output.messages");
    expect(text).not.toContain("Oslo");
  });
});
