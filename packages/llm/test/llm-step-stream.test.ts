import { createContext, type RouteContext } from "@routekit/core";
import {
  LLM_HEADERS,
  type LlmStreamPart,
  llm,
  llmPlugin,
  llmStreamOf,
  openAiChat,
  streamToolLoop,
  toTool,
} from "@routekit/llm";
import { scriptedModel } from "@routekit/llm/testing";
import { afterEach, describe, expect, it } from "vitest";
import {
  openAiChunk,
  openAiTextStream,
  openAiUsageAndDone,
  type StreamServer,
  startStreamServer,
} from "./support/stream-server.js";

let context: RouteContext | undefined;
let server: StreamServer | undefined;
afterEach(async () => {
  await context?.stop();
  await server?.close();
  context = undefined;
  server = undefined;
});

async function start(models: Parameters<typeof llmPlugin>[0]["models"]): Promise<RouteContext> {
  const created = createContext({ logLevel: "error" });
  context = created;
  created.use(llmPlugin({ models }));
  await created.addRoutes((r) => {
    r.from("direct:tool.shout")
      .asLlmTool("shout", {
        description: "Upper-cases a word.",
        input: { type: "object", properties: { word: { type: "string" } }, required: ["word"] },
      })
      .transform(({ body }) => String(body.word).toUpperCase());
    r.from("direct:chat").routeId("chat").to(llm("model").tools("shout").stream().uri());
  });
  await created.start();
  return created;
}

describe("llm(...).stream()", () => {
  it("makes the body an LlmStream of every turn's deltas, tool calls and results, then the answer", async () => {
    server = await startStreamServer([
      {
        steps: [
          openAiChunk({ role: "assistant", content: "Shouting: " }),
          openAiChunk({
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name: "shout", arguments: '{"wo' } },
            ],
          }),
          openAiChunk({ tool_calls: [{ index: 0, function: { arguments: 'rd":"hey"}' } }] }),
          openAiChunk({}, "tool_calls"),
          openAiUsageAndDone(10, 4),
        ],
      },
      { steps: [openAiTextStream(["HEY", " it ", "is"])] },
    ]);
    const routes = await start({
      model: openAiChat({ model: "gpt-4o-mini", baseURL: server.url, apiKey: "sk-test", stream: true }),
    });
    const forwarded: LlmStreamPart[] = [];
    routes.events.on("llm-stream-part", (event) => {
      expect(event.routeId).toBe("chat");
      forwarded.push(event.part);
    });

    const exchange = await routes.requestExchange("direct:chat", { body: "Shout hey" });
    const stream = llmStreamOf(exchange);
    expect(stream).toBeDefined();
    expect(exchange.body).toBe(stream);
    const parts: LlmStreamPart[] = [];
    for await (const part of stream ?? []) parts.push(part);
    const text: string[] = [];
    for await (const delta of stream?.textStream ?? []) text.push(delta);

    expect(parts.map((part) => part.type)).toEqual([
      "text-delta",
      "tool-call",
      "tool-result",
      "text-delta",
      "text-delta",
      "text-delta",
      "finish",
    ]);
    expect(parts[1]).toEqual({ type: "tool-call", toolCallId: "call_1", toolName: "shout", iteration: 1 });
    expect(parts[2]).toEqual({
      type: "tool-result",
      toolCallId: "call_1",
      toolName: "shout",
      iteration: 1,
      isError: false,
    });
    expect(text).toEqual(["Shouting: ", "HEY", " it ", "is"]);
    expect(forwarded).toEqual(parts);
    await expect(stream?.text).resolves.toBe("HEY it is");
    expect(exchange.body).toBe("HEY it is");
    expect(exchange.headers).toMatchObject({
      [LLM_HEADERS.provider]: "openai",
      [LLM_HEADERS.tokensIn]: 22,
      [LLM_HEADERS.toolCalls]: 1,
      [LLM_HEADERS.iterations]: 2,
    });
    const messages = server.requests[1]?.body.messages as Array<Record<string, unknown>>;
    expect(messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "HEY" });
  });

  it("hands on each turn's text whole when the model does not stream", async () => {
    const routes = await start({ model: scriptedModel([{ text: "All at once." }]) });

    const exchange = await routes.requestExchange("direct:chat", { body: "Hi" });
    const parts: LlmStreamPart[] = [];
    for await (const part of llmStreamOf(exchange) ?? []) parts.push(part);

    expect(parts).toEqual([
      { type: "text-delta", text: "All at once.", iteration: 1 },
      {
        type: "finish",
        text: "All at once.",
        finishReason: "stop",
        usage: expect.any(Object),
        iterations: 1,
      },
    ]);
  });

  it("delivers a failed run's error to every reader after the parts that came before it", async () => {
    server = await startStreamServer([
      { steps: [openAiChunk({ role: "assistant", content: "Half" }), "destroy"] },
    ]);
    const routes = await start({
      model: openAiChat({ model: "m", baseURL: server.url, apiKey: "sk-test", stream: true, maxRetries: 0 }),
    });

    const exchange = await routes.requestExchange("direct:chat", { body: "Hi" });
    const stream = llmStreamOf(exchange);
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const part of stream ?? []) seen.push(part.type);
    })().catch((error: unknown) => error);

    expect(seen).toEqual(["text-delta"]);
    expect((failure as Error).message).toMatch(/broke mid-way/);
    await expect(stream?.result).rejects.toBe(failure);
    expect(exchange.body).toBe(stream);
  });

  it("cancels a stream still running when the context stops: the model server sees its connection closed", async () => {
    server = await startStreamServer([
      { steps: [openAiChunk({ role: "assistant", content: "Long" }), "hang"] },
    ]);
    const routes = await start({
      model: openAiChat({ model: "m", baseURL: server.url, apiKey: "sk-test", stream: true }),
    });
    const exchange = await routes.requestExchange("direct:chat", { body: "Hi" });
    const stream = llmStreamOf(exchange);
    const iterator = stream?.[Symbol.asyncIterator]();
    await iterator?.next();

    await routes.stop();
    context = undefined;

    await server.requests[0]?.closed;
    await expect(stream?.result).rejects.toMatchObject({
      message: expect.stringMatching(/the context stopped/),
    });
  });

  it("aborts the signal of a running tool when the reader stops", async () => {
    let toolStarted!: () => void;
    const started = new Promise<void>((resolve) => (toolStarted = resolve));
    let abortedWith: unknown;
    const slow = {
      name: "slow",
      description: "Waits until it is cancelled.",
      inputSchema: { type: "object", properties: {} },
      execute: (_input: unknown, context?: { signal?: AbortSignal }) =>
        new Promise<{ output: string; isError: boolean }>((resolve) => {
          toolStarted();
          context?.signal?.addEventListener("abort", () => {
            abortedWith = context.signal?.reason;
            resolve({ output: "cancelled", isError: true });
          });
        }),
    };
    const stream = streamToolLoop({
      model: scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }] }, { text: "never" }]),
      tools: new Map([["slow", toTool(slow)]]),
      input: "Go",
    });

    for await (const part of stream) {
      if (part.type !== "tool-call") continue;
      await started;
      break;
    }

    await expect(stream.result).rejects.toMatchObject({ name: "AbortError" });
    expect(abortedWith).toMatchObject({ name: "AbortError" });
  });

  it("types the body after a streaming step as an LlmStream", () => {
    const uri = llm("model").stream().uri();
    expect(uri).toBe("llm:model?stream=true");
  });
});
